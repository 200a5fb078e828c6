// array<T,N> (AMP spec 5.1): data owned by one accelerator_view.
//
// Kernels take arrays by reference ([=, &a], [&]). The closure then holds the
// host address of the array object, which a GPU cannot dereference (no HMM).
// Each array registers its address; a launch replaces that address in its copy
// of the closure with a "shadow" (a copy of the object whose pointer refers to
// the data on the accelerator that runs the kernel). See capture.h.
#pragma once
#include "array_view.h"
#include "capture_registry.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace Concurrency {

template <class T, int N = 1> class array : public detail::data_base<T, N> {
  using base = detail::data_base<T, N>;
  using base::h_;
  template <class, int> friend class array_view;
  template <class, int> friend class array;
  template <class, int> friend class detail::data_base;
  friend struct detail::copy_access;
  friend struct detail::closure_patcher;
  friend struct detail::kokkos_interop;
  static_assert(!std::is_const<T>::value, "array<const T> is not allowed; use array_view<const T>");
  static_assert(detail::element_type_check<T>::value, "");
  template <class V> using is_source_view = std::integral_constant<bool,
      std::is_same<V, array_view<const T, N>>::value || std::is_same<V, array_view<T, N>>::value>;

public:
  using value_type = T;
  static constexpr int rank = N;
  using base::extent;

  // ---- construction
  // Every form takes an optional accelerator_view followed by either a CPU
  // access type (access_type_auto: the accelerator's default_cpu_access_type)
  // or an associated accelerator_view (a staging array: its data live with the
  // first view, usually the cpu accelerator's, and are meant for transfers to
  // the second). The (e0[, e1[, e2]], ...) forms are the extent forms.
  explicit array(const Concurrency::extent<N>& e) : array(e, detail::default_accelerator_view()) {}
  array(const Concurrency::extent<N>& e, const accelerator_view& av, access_type cpu = access_type_auto) {
    allocate(e, av, av, cpu);
  }
  array(const Concurrency::extent<N>& e, const accelerator_view& av, const accelerator_view& associated) {
    allocate(e, av, associated, access_type_auto);
  }
  template <class... I, std::enable_if_t<sizeof...(I) == N && detail::all_ints<I...>::value, int> = 0>
  explicit array(I... e) : array(Concurrency::extent<N>(static_cast<int>(e)...)) {}

  template <class It, class = detail::iter_t<It>>
  array(const Concurrency::extent<N>& e, It first, It last) : array(e, first, last, detail::default_accelerator_view()) {}
  template <class It, class = detail::iter_t<It>>
  array(const Concurrency::extent<N>& e, It first) : array(e, first, detail::default_accelerator_view()) {}
  template <class It, class = detail::iter_t<It>>
  array(const Concurrency::extent<N>& e, It first, It last, const accelerator_view& av,
        access_type cpu = access_type_auto)
      : array(e, av, cpu) {
    fill(first, last);
  }
  template <class It, class = detail::iter_t<It>>
  array(const Concurrency::extent<N>& e, It first, const accelerator_view& av, access_type cpu = access_type_auto)
      : array(e, av, cpu) {
    fill_n(first);
  }
  template <class It, class = detail::iter_t<It>>
  array(const Concurrency::extent<N>& e, It first, It last, const accelerator_view& av,
        const accelerator_view& associated)
      : array(e, av, associated) {
    fill(first, last);
  }
  template <class It, class = detail::iter_t<It>>
  array(const Concurrency::extent<N>& e, It first, const accelerator_view& av, const accelerator_view& associated)
      : array(e, av, associated) {
    fill_n(first);
  }
  template <class... A, class = std::enable_if_t<detail::leading_ints<N, A...>::value>>
  array(A... a) : array(detail::split_tag{}, std::tuple<A...>(a...), std::make_index_sequence<sizeof...(A) - N>{}) {}

  // From a view (of T or const T): a copy of its elements. Explicit, as in
  // AMP: no view converts to an array on its own (with --windows-compat a
  // view can be made from a temporary array, and an implicit copy would
  // then let array_view<T> be made from array_view<const T>).
  template <class V, class = std::enable_if_t<is_source_view<V>::value>>
  explicit array(const V& src) : array(src, detail::default_accelerator_view()) {}
  template <class V, class = std::enable_if_t<is_source_view<V>::value>>
  array(const V& src, const accelerator_view& av, access_type cpu = access_type_auto) : array(src.extent, av, cpu) {
    copy_from_view(array_view<const T, N>(src));
  }
  template <class V, class = std::enable_if_t<is_source_view<V>::value>>
  array(const V& src, const accelerator_view& av, const accelerator_view& associated)
      : array(src.extent, av, associated) {
    copy_from_view(array_view<const T, N>(src));
  }

  // Deep copy, as AMP specifies: same views and CPU access type.
  array(const array& o) {
    allocate(o.extent, o.get_accelerator_view(), o.get_associated_accelerator_view(), o.get_cpu_access_type());
    detail::copy_buffer(*o.h_.buf, *h_.buf);
  }
  array(array&& o) noexcept {
    take(o);
    detail::array_registry::add(this, sizeof(*this));
  }
  array& operator=(const array& o) {
    if (this != &o) {
      array tmp(o);
      *this = std::move(tmp);
    }
    return *this;
  }
  array& operator=(array&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  // From a view of T or const T: copies its elements in (the extents must
  // match). One template for both, so that neither view type reaches the
  // converting constructors and operator=(array&&) as well (ambiguous).
  template <class V, class = std::enable_if_t<is_source_view<V>::value>> array& operator=(const V& src) {
    copy_to_self(array_view<const T, N>(src));
    return *this;
  }
  ~array() {
    static_assert(sizeof(array) <= detail::array_registry::max_object, "array object too large for its shadow");
    detail::array_registry::remove(this);
    release();
  }

  // ---- element access (host: implicit synchronisation; an array made with
  // access_type_none cannot be accessed on the CPU: runtime_exception)
  AMP_FN T& operator[](const index<N>& i) { return elem(i); }
  AMP_FN const T& operator[](const index<N>& i) const { return elem(i); }
  AMP_FN T& operator()(const index<N>& i) { return elem(i); }
  AMP_FN const T& operator()(const index<N>& i) const { return elem(i); }
  template <class... I, class = std::enable_if_t<sizeof...(I) == N && detail::all_ints<I...>::value>>
  AMP_FN T& operator()(I... i) { return elem(index<N>(static_cast<int>(i)...)); }
  template <class... I, class = std::enable_if_t<sizeof...(I) == N && detail::all_ints<I...>::value>>
  AMP_FN const T& operator()(I... i) const { return elem(index<N>(static_cast<int>(i)...)); }
  AMP_FN decltype(auto) operator[](int i) {
    if constexpr (N == 1) return elem(index<1>(i));
    else return view()[i];
  }
  AMP_FN decltype(auto) operator[](int i) const {
    if constexpr (N == 1) return static_cast<const T&>(elem(index<1>(i)));
    else return const_view()[i];
  }
  // Rank > 1: operator()(int) is the projection, as operator[](int) is.
  template <int K = N, class = std::enable_if_t<(K > 1)>> AMP_FN array_view<T, N - 1> operator()(int i) {
    return view()[i];
  }
  template <int K = N, class = std::enable_if_t<(K > 1)>> AMP_FN array_view<const T, N - 1> operator()(int i) const {
    return const_view()[i];
  }

  // Null on the CPU for an array without CPU access (AMP).
  AMP_FN T* data() { return cpu_accessible() ? this->template base_ptr<false>() : nullptr; }
  AMP_FN const T* data() const { return cpu_accessible() ? this->template base_ptr<false>() : nullptr; }

  // ---- views of the array
  AMP_FN array_view<T, N> section(const index<N>& o, const Concurrency::extent<N>& e) { return view().section(o, e); }
  AMP_FN array_view<const T, N> section(const index<N>& o, const Concurrency::extent<N>& e) const {
    return const_view().section(o, e);
  }
  AMP_FN array_view<T, N> section(const index<N>& o) { return view().section(o); }
  AMP_FN array_view<const T, N> section(const index<N>& o) const { return const_view().section(o); }
  AMP_FN array_view<T, N> section(const Concurrency::extent<N>& e) { return view().section(e); }
  AMP_FN array_view<const T, N> section(const Concurrency::extent<N>& e) const { return const_view().section(e); }
  template <class... I, class = std::enable_if_t<sizeof...(I) == 2 * N && detail::all_ints<I...>::value>>
  AMP_FN array_view<T, N> section(I... i) { return view().section(i...); }
  template <class... I, class = std::enable_if_t<sizeof...(I) == 2 * N && detail::all_ints<I...>::value>>
  AMP_FN array_view<const T, N> section(I... i) const { return const_view().section(i...); }
  template <int K> AMP_FN array_view<T, K> view_as(const Concurrency::extent<K>& e) { return view().reshape(e); }
  template <int K> AMP_FN array_view<const T, K> view_as(const Concurrency::extent<K>& e) const {
    return const_view().reshape(e);
  }
  template <class U> AMP_FN array_view<U, 1> reinterpret_as() { return view().template reinterpret_as<U>(); }
  template <class U> AMP_FN array_view<const U, 1> reinterpret_as() const {
    return const_view().template reinterpret_as<const U>();
  }

  // ---- copies and conversions (host)
  void copy_to(array& dest) const {
    if (dest.extent != this->extent)
      throw runtime_exception("array::copy_to: extents differ", detail::e_invalidarg);
    detail::copy_buffer(*h_.buf, *dest.h_.buf);
  }
  void copy_to(const array_view<T, N>& dest) const;
  operator std::vector<T>() const {
    std::vector<T> v(static_cast<std::size_t>(this->extent.size_64()));
    detail::log_host_read(*h_.buf);
    detail::read_buffer(*h_.buf, 0, v.data(), h_.buf->bytes);
    return v;
  }

  // Where the data live; for a staging array, the view it was associated with.
  accelerator_view get_accelerator_view() const { return *storage().source_view; }
  accelerator_view get_associated_accelerator_view() const { return *storage().associated_view; }
  access_type get_cpu_access_type() const { return storage().cpu_access; }

  // (The accelerator_view, associated_accelerator_view and cpu_access_type
  // properties are the getters above: data members would not fit the array
  // object's device shadow. With __declspec(property), --msvc, they are also
  // properties: end of the class.)

private:
  template <class Tup, std::size_t... K>
  array(detail::split_tag, const Tup& t, std::index_sequence<K...>)
      : array(detail::head_extent<N>(t, std::make_index_sequence<N>{}), std::get<N + K>(t)...) {}

  AMP_FN array_view<T, N> view() const {
    array_view<T, N> v(nullptr);
    v.extent = this->extent;
    v.set_dense_strides(this->extent);
    this->share_into(v, 0);
    return v;
  }
  AMP_FN array_view<const T, N> const_view() const { return array_view<const T, N>(view()); }

  AMP_FN bool cpu_accessible() const {
    if constexpr (!detail::device_pass) return !h_.buf || h_.buf->cpu_access != access_type_none;
    return true;
  }
  AMP_FN T& elem(const index<N>& i) const {
    if constexpr (!detail::device_pass) {
      if (!cpu_accessible())
        throw runtime_exception("array: this array was made with access_type_none and cannot be accessed on the CPU "
                                "(copy it, or use an array_view of it)", detail::e_invalidarg);
    }
    return this->template at<false>(i);
  }
  const detail::buffer& storage() const {
    if (!h_.buf) throw runtime_exception("array: the array was moved from", detail::e_invalidarg);
    return *h_.buf;
  }

  void allocate(const Concurrency::extent<N>& e, const accelerator_view& av, const accelerator_view& associated,
                access_type cpu) {
    detail::check_extent_positive(e, sizeof(T), "array");
    this->extent = e;
    this->set_dense_strides(e);
    const auto info = detail::info_of(av);
    const auto kind = info->kind;
    // The cpu accelerator's memory is the host's: always CPU-accessible.
    cpu = kind == detail::device_kind::cpu ? access_type_read_write : info->resolve_cpu_access(cpu);
    h_.tag = detail::array_tag;
    h_.buf = detail::buffer::make_owned(static_cast<std::size_t>(e.size_64()) * sizeof(T), info->loc());
    h_.buf->fp_width = detail::fp_width_of<T>();
    h_.buf->owner = kind;
    h_.buf->source_view = std::make_shared<const Concurrency::accelerator_view>(av);
    // Only an array on the cpu accelerator stages for another view; any
    // other array is associated with its own (Microsoft's
    // associated_accvl_view/Test.03).
    h_.buf->associated_view =
        std::make_shared<const Concurrency::accelerator_view>(kind == detail::device_kind::cpu ? associated : av);
    h_.buf->cpu_access = cpu;
    h_.buf->home_queue = detail::queue_of(av);
    h_.off = 0;
    h_.ptr = nullptr;
    this->point_at_host();
    detail::array_registry::add(this, sizeof(*this));
  }
  template <class It> void fill(It first, It last) {
    const std::size_t n = detail::range_size(first, last, this->extent.size_64(), "array");
    if (n == 0) return;
    detail::with_elements<T>(first, n, [&](const T* p) AMP_HOST_ONLY { detail::write_buffer(*h_.buf, 0, p, n * sizeof(T)); });
  }
  template <class It> void fill_n(It first) {
    detail::with_elements<T>(first, static_cast<std::size_t>(this->extent.size_64()), [&](const T* p) AMP_HOST_ONLY {
      detail::write_buffer(*h_.buf, 0, p, h_.buf->bytes);
    });
  }
  void copy_from_view(const array_view<const T, N>& src);
  void copy_to_self(const array_view<const T, N>& src) {
    if (src.extent != this->extent) throw runtime_exception("array: extents differ", detail::e_invalidarg);
    copy_from_view(src);
  }
  void take(array& o) noexcept {
    this->extent = o.extent;
    for (int d = 0; d < N; ++d) this->stride_[d] = o.stride_[d];
    h_ = o.h_;
    o.h_.buf = nullptr;
    o.h_.ptr = nullptr;
  }
  void release() noexcept {
    if (h_.buf) h_.buf->release();
    h_.buf = nullptr;
  }

#if AMP_MS_EXTENSIONS
public:
  // MSVC's property syntax (a.accelerator_view, a.cpu_access_type ...) where
  // the compiler has __declspec(property) (--msvc): no storage, so the
  // array's device shadow is unchanged. Last in the class, and every later
  // use of the type names is qualified: inside the class these names now
  // denote the properties.
  __declspec(property(get = get_accelerator_view)) Concurrency::accelerator_view accelerator_view;
  __declspec(property(get = get_associated_accelerator_view)) Concurrency::accelerator_view associated_accelerator_view;
  __declspec(property(get = get_cpu_access_type)) Concurrency::access_type cpu_access_type;
#endif
};

} // namespace Concurrency
