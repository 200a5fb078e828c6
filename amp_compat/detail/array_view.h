// array_view<T,N> and array_view<const T,N> (AMP spec 5.2).
//
// A view shares one coherence buffer with every copy, section and projection
// of it. Host data is copied to the GPU when a kernel captures the view (unless
// discard_data was called), back on host access, synchronize(), or when the
// last view of the data goes away. Read-only views never copy back.
#pragma once
#include "accelerator.h"
#include "data.h"
#include "element_type.h"
#include "target.h"

#include <cstdint>
#include <iterator>
#include <string>
#include <type_traits>

namespace Concurrency {

namespace detail {
template <class C, class = void> struct is_container : std::false_type {};
template <class C>
struct is_container<C, std::void_t<decltype(std::data(std::declval<C&>())), decltype(std::size(std::declval<C&>()))>>
    : std::true_type {};

template <int N, class... I> AMP_FN Concurrency::extent<N> make_extent(I... i) {
  return Concurrency::extent<N>(static_cast<int>(i)...);
}

// The extent of new storage (or of a view over a host range) must have
// positive dimensions whose product, in bytes of `elem_bytes`, is addressable;
// each dimension is checked before multiplying, so overflowing extents (as a
// pad() past INT_MAX gives) are refused rather than wrapped.
template <int N> void check_extent_positive(const Concurrency::extent<N>& e, std::size_t elem_bytes, const char* what) {
  for (int d = 0; d < N; ++d)
    if (e[d] <= 0)
      throw runtime_exception((std::string(what) + ": every extent dimension must be positive (extent[" +
                               std::to_string(d) + "] is " + std::to_string(e[d]) + ")")
                                  .c_str(),
                              e_invalidarg);
  const unsigned long long limit = static_cast<unsigned long long>(PTRDIFF_MAX) / (elem_bytes ? elem_bytes : 1);
  unsigned long long n = 1;
  for (int d = 0; d < N; ++d) {
    if (n > limit / static_cast<unsigned long long>(e[d]))
      throw runtime_exception((std::string(what) + ": the extent holds more elements than can be addressed").c_str(),
                              e_invalidarg);
    n *= static_cast<unsigned long long>(e[d]);
  }
}
// A source range [first, last) of at most `size` elements: the number it
// holds. More have nowhere to go (runtime_exception, as Microsoft's runtime
// refuses them); fewer fill the destination's first elements, in row-major
// order, the others keeping their values (Microsoft's copy does the same:
// only "_Src size exceeds total size of the _Dest" is an error; its
// conformance suite's copy_to/Test.02 builds an array from a shorter range).
// `what` names the operation in the message.
template <class It> std::size_t range_size(It first, It last, long long size, const char* what) {
  const long long n = static_cast<long long>(std::distance(first, last));
  if (n < 0)
    throw runtime_exception((std::string(what) + ": the source range ends before it begins").c_str(), e_invalidarg);
  if (n > size)
    throw runtime_exception((std::string(what) + ": the source range holds more elements than the destination").c_str(),
                            e_invalidarg);
  return static_cast<std::size_t>(n);
}
} // namespace detail

template <class T, int N = 1> class array_view : public detail::data_base<T, N> {
  using base = detail::data_base<T, N>;
  using elem = typename base::elem;
  using base::h_;
  using base::stride_;
  template <class, int> friend class array_view;
  template <class, int> friend class array;
  template <class, int> friend class detail::data_base;
  friend struct detail::copy_access;
  friend struct detail::closure_patcher;
  friend struct detail::kokkos_interop;
  static_assert(detail::element_type_check<T>::value, "");

public:
  using value_type = T;
  static constexpr int rank = N;
  using base::extent;

  // ---- construction from an array: restrict(cpu, amp) in AMP. Inside a
  // kernel the array is its device image (no coherence buffer), so the view
  // is made as array::view() makes one, which works on both sides.
  AMP_FN array_view(array<elem, N>& src) : array_view(src.view()) {}
#if AMP_MS_EXTENSIONS || defined(AMP_COMPAT_WINDOWS)
  // MSVC binds a temporary to array& (a language extension Clang's Microsoft
  // mode lacks): `array_view<T> v(array<T>(n, av));` and
  // `views.push_back(array<T, N>(e, av));` are common in MSVC code (the AMP
  // book's multi-GPU chapter among it). The view shares the array's
  // reference-counted buffer, which outlives the temporary, as in Microsoft's
  // runtime. Offered with --msvc and with --windows-compat (crt_compat.h
  // defines AMP_COMPAT_WINDOWS); a plain build keeps AMP's signature.
  array_view(array<elem, N>&& src) : array_view(src.view()) {}
#endif
  template <class U = T, class = std::enable_if_t<std::is_const<U>::value>>
  AMP_FN array_view(const array<elem, N>& src) : array_view(src.view()) {}

  // ---- construction (host only)

  template <class C, class = std::enable_if_t<detail::is_container<C>::value>>
  array_view(const Concurrency::extent<N>& e, C& src) { from_host(e, std::data(src), std::size(src)); }
  template <class C, class = std::enable_if_t<detail::is_container<C>::value>>
  array_view(const Concurrency::extent<N>& e, const C& src) { from_host(e, std::data(src), std::size(src)); }
  // AMP declares the pointer constructors restrict(cpu, amp): a kernel may
  // view its own local or tile_static array. On the host the view is made as
  // any other; in GPU code it points at the memory directly (inside a kernel
  // there is no copy to keep coherent).
  AMP_FN array_view(const Concurrency::extent<N>& e, T* src) {
    if constexpr (detail::device_pass) {
      this->extent = e;
      this->set_dense_strides(e);
      h_.buf = nullptr;
      h_.ptr = const_cast<std::remove_const_t<T>*>(src);
      h_.off = 0;
    } else {
      from_host(e, src, static_cast<std::size_t>(-1));
    }
  }
  explicit array_view(const Concurrency::extent<N>& e) { from_nothing(e); }
  // Visual Studio 2013's rank-1 forms: a whole container (its size is the
  // extent), and a C array, which a kernel may view too (restrict(cpu, amp)).
  template <class C, class = std::enable_if_t<detail::is_container<C>::value && !std::is_array<C>::value && N == 1>>
  explicit array_view(C& src) : array_view(Concurrency::extent<N>(static_cast<int>(std::size(src))), src) {}
  template <class C, class = std::enable_if_t<detail::is_container<C>::value && !std::is_array<C>::value && N == 1>>
  explicit array_view(const C& src) : array_view(Concurrency::extent<N>(static_cast<int>(std::size(src))), src) {}
  template <class A, int S, class = std::enable_if_t<N == 1 && std::is_convertible<A*, T*>::value>>
  AMP_FN explicit array_view(A (&src)[S]) : array_view(Concurrency::extent<N>(S), static_cast<T*>(src)) {}

  template <class C, class = std::enable_if_t<detail::is_container<C>::value && N == 1>>
  array_view(int e0, C& src) : array_view(Concurrency::extent<N>(e0), src) {}
  template <class C, class = std::enable_if_t<detail::is_container<C>::value && N == 1>>
  array_view(int e0, const C& src) : array_view(Concurrency::extent<N>(e0), src) {}
  template <class C, class = std::enable_if_t<detail::is_container<C>::value && N == 2>>
  array_view(int e0, int e1, C& src) : array_view(Concurrency::extent<N>(e0, e1), src) {}
  template <class C, class = std::enable_if_t<detail::is_container<C>::value && N == 2>>
  array_view(int e0, int e1, const C& src) : array_view(Concurrency::extent<N>(e0, e1), src) {}
  template <class C, class = std::enable_if_t<detail::is_container<C>::value && N == 3>>
  array_view(int e0, int e1, int e2, C& src) : array_view(Concurrency::extent<N>(e0, e1, e2), src) {}
  template <class C, class = std::enable_if_t<detail::is_container<C>::value && N == 3>>
  array_view(int e0, int e1, int e2, const C& src) : array_view(Concurrency::extent<N>(e0, e1, e2), src) {}
  template <int K = N, class = std::enable_if_t<K == 1>>
  AMP_FN array_view(int e0, T* src) : array_view(Concurrency::extent<N>(e0), src) {}
  template <int K = N, class = std::enable_if_t<K == 2>>
  AMP_FN array_view(int e0, int e1, T* src) : array_view(Concurrency::extent<N>(e0, e1), src) {}
  template <int K = N, class = std::enable_if_t<K == 3>>
  AMP_FN array_view(int e0, int e1, int e2, T* src) : array_view(Concurrency::extent<N>(e0, e1, e2), src) {}
  template <int K = N, class = std::enable_if_t<K == 1>>
  explicit array_view(int e0) : array_view(Concurrency::extent<N>(e0)) {}
  template <int K = N, class = std::enable_if_t<K == 2>>
  array_view(int e0, int e1) : array_view(Concurrency::extent<N>(e0, e1)) {}
  template <int K = N, class = std::enable_if_t<K == 3>>
  array_view(int e0, int e1, int e2) : array_view(Concurrency::extent<N>(e0, e1, e2)) {}

  // ---- copies share the data (kernel-side copies carry no coherence state)
  AMP_FN array_view(const array_view& o) : base(o) { retain(); }
  template <class U, class = std::enable_if_t<std::is_const<T>::value && std::is_same<const U, T>::value>>
  AMP_FN array_view(const array_view<U, N>& o) {
    this->extent = o.extent;
    for (int d = 0; d < N; ++d) stride_[d] = o.stride_[d];
    h_ = o.h_;
    h_.tag = detail::view_tag | 1;
    retain();
  }
  AMP_FN array_view& operator=(const array_view& o) {
    if (this != &o) {
      array_view tmp(o);
      swap_with(tmp);
    }
    return *this;
  }
  AMP_FN ~array_view() {
    if constexpr (!detail::device_pass) {
      if (h_.buf) h_.buf->release();
    }
  }

  // ---- element access
  AMP_FN T& operator[](const index<N>& i) const { return this->at(i); }
  AMP_FN T& operator()(const index<N>& i) const { return this->at(i); }
  template <class... I, class = std::enable_if_t<sizeof...(I) == N && N >= 2 && detail::all_ints<I...>::value>>
  AMP_FN T& operator()(I... i) const { return this->at(index<N>(static_cast<int>(i)...)); }
  // Rank 1: the element; rank > 1: the projection, a view of rank N-1.
  AMP_FN decltype(auto) operator[](int i) const {
    if constexpr (N == 1) return this->at(index<1>(i));
    else return project(i);
  }
  template <int K = N, class = std::enable_if_t<K == 1>> AMP_FN T& operator()(int i) const {
    return this->at(index<1>(i));
  }
  template <int K = N, class = std::enable_if_t<(K > 1)>> AMP_FN array_view<T, N - 1> operator()(int i) const {
    return project(i);
  }
  // AMP: data() and view_as() exist on views of rank 1 only (a view of higher
  // rank may be a non-contiguous section); array's have no such limit.
  AMP_FN T* data() const {
    static_assert(N == 1, "C++ AMP: array_view::data() is only permissible on array views of rank 1");
    return this->base_ptr();
  }

  // ---- sections and reshaping
  AMP_FN array_view section(const index<N>& origin, const Concurrency::extent<N>& e) const {
    if constexpr (!detail::device_pass) check_section(origin, e);
    array_view v(*this, nullptr);
    v.extent = e;
    for (int d = 0; d < N; ++d) v.stride_[d] = stride_[d];
    this->share_into(v, this->offset(origin));
    v.h_.tag = h_.tag;
    return v;
  }
  AMP_FN array_view section(const index<N>& origin) const { return section(origin, this->extent - origin); }
  AMP_FN array_view section(const Concurrency::extent<N>& e) const { return section(index<N>(), e); }
  template <int K = N, class = std::enable_if_t<K == 1>> AMP_FN array_view section(int i0, int e0) const {
    return section(index<1>(i0), Concurrency::extent<1>(e0));
  }
  template <int K = N, class = std::enable_if_t<K == 2>>
  AMP_FN array_view section(int i0, int i1, int e0, int e1) const {
    return section(index<2>(i0, i1), Concurrency::extent<2>(e0, e1));
  }
  template <int K = N, class = std::enable_if_t<K == 3>>
  AMP_FN array_view section(int i0, int i1, int i2, int e0, int e1, int e2) const {
    return section(index<3>(i0, i1, i2), Concurrency::extent<3>(e0, e1, e2));
  }
  template <int K> AMP_FN array_view<T, K> view_as(const Concurrency::extent<K>& e) const {
    static_assert(N == 1, "C++ AMP: array_view::view_as() is only permissible on array views of rank 1");
    return reshape(e);
  }

private:
  // view_as without the rank rule: array::view_as (any rank) comes here.
  template <int K> AMP_FN array_view<T, K> reshape(const Concurrency::extent<K>& e) const {
    if constexpr (!detail::device_pass) {
      if (!this->is_dense() || e.size_64() > this->extent.size_64())
        throw runtime_exception("array_view::view_as: the view is not contiguous or the new extent is larger",
                                detail::e_invalidarg);
    }
    array_view<T, K> v(nullptr);
    v.extent = e;
    v.set_dense_strides(e);
    this->share_into(v, 0);
    v.h_.tag = h_.tag;
    return v;
  }

public:
  // The view's bytes must be a whole number of U (AMP: runtime_exception on
  // the host otherwise); checked on the host only.
  template <class U> AMP_FN array_view<U, 1> reinterpret_as() const {
    if constexpr (!detail::device_pass) {
      if (!this->is_dense())
        throw runtime_exception("array_view::reinterpret_as: the view is not contiguous", detail::e_invalidarg);
      if (this->extent.size_64() * sizeof(T) % sizeof(U) != 0)
        throw runtime_exception(("reinterpret_as: the view's " + std::to_string(this->extent.size_64() * sizeof(T)) +
                                 " bytes are not a multiple of the new element size " + std::to_string(sizeof(U)))
                                    .c_str(),
                                detail::e_invalidarg);
    }
    array_view<U, 1> v(nullptr);
    v.extent = Concurrency::extent<1>(static_cast<int>(this->extent.size_64() * sizeof(T) / sizeof(U)));
    v.stride_[0] = 1;
    v.h_ = h_;
    v.h_.tag = std::is_const<U>::value ? (detail::view_tag | 1) : detail::view_tag;
    v.retain();
    return v;
  }

  // ---- coherence (host only)
  void synchronize() const {
    if (h_.buf) this->host_sync(detail::buffer::access::read);
  }
  // The asynchronous forms run on a worker thread (runtime/completion_future.h);
  // the view's data may be used once the future is ready.
  completion_future synchronize_async() const {
    array_view self(*this);
    return detail::launch_async({h_.buf}, [self]() AMP_HOST_ONLY { self.synchronize(); });
  }
  void synchronize_to(const accelerator_view& av) const {
    if (h_.buf) h_.buf->prepare(detail::info_of(av)->loc(), detail::buffer::access::read, detail::queue_of(av));
  }
  completion_future synchronize_to_async(const accelerator_view& av) const {
    array_view self(*this);
    return detail::launch_async({h_.buf}, [self, av]() AMP_HOST_ONLY { self.synchronize_to(av); });
  }
  // Copies the view's elements into dest (same extent), as copy(*this, dest).
  void copy_to(array<elem, N>& dest) const;
  void copy_to(const array_view<elem, N>& dest) const;
  // The element without implicit synchronisation: after a kernel or a copy
  // wrote the data elsewhere, call synchronize() first (AMP semantics).
  AMP_FN T& get_ref(const index<N>& i) const {
    if constexpr (!detail::device_pass) {
      if (h_.buf && !h_.ptr) this->host_sync(detail::buffer::access::read);
    }
    return static_cast<T*>(h_.ptr)[this->offset(i)];
  }
  // The host memory was changed behind the view's back: other copies are stale.
  void refresh() const {
    if (h_.buf && h_.buf->host) {
      h_.buf->valid = detail::buffer::bit(detail::location::host);
      h_.buf->priv_valid = false;
    }
  }
  // The current contents are not needed: the next kernel does not copy them in.
  // A section's: what kernels wrote there is not copied back (discard_section).
  void discard_data() const {
    if (!h_.buf) return;
    if (covers_buffer()) h_.buf->valid = 0, h_.buf->priv_valid = false;
    else discard_section();
  }
  // Where the data source lives: the array's view, the cpu accelerator for
  // host memory; a view made without a data source has none (AMP: throws).
  accelerator_view get_source_accelerator_view() const {
    if (h_.buf && h_.buf->source_view) return *static_cast<const accelerator_view*>(h_.buf->source_view.get());
    if (h_.buf && !h_.buf->host_owned) return accelerator(accelerator::cpu_accelerator).default_view;
    throw runtime_exception("array_view::get_source_accelerator_view: the view has no data source",
                            detail::e_invalidarg);
  }

private:
  explicit AMP_FN array_view(std::nullptr_t) {}
  AMP_FN array_view(const array_view&, std::nullptr_t) {}

  AMP_FN void retain() {
    if constexpr (!detail::device_pass) {
      if (h_.buf) h_.buf->retain();
    }
  }
  AMP_FN void swap_with(array_view& o) {
    auto h = h_;
    h_ = o.h_;
    o.h_ = h;
    auto e = this->extent;
    this->extent = o.extent;
    o.extent = e;
    for (int d = 0; d < N; ++d) {
      int s = stride_[d];
      stride_[d] = o.stride_[d];
      o.stride_[d] = s;
    }
  }
  // On the host a projection outside the view is a runtime_exception (AMP;
  // the GPU's pass compiles no check). In kernels under --windows-compat it
  // is Direct3D's: a view none of whose elements is inside it, so reads give
  // zero and writes are discarded as for an element outside the extent
  // (data_base::at): code written on Windows reads a row past its data from
  // kernels over a padded extent (the C++ AMP book's Cartoonizer,
  // `src[y][x]` with y one past the image), as it does with `src[index]`.
  AMP_FN array_view<T, N - 1> project(int i) const {
    const bool outside = i < 0 || i >= this->extent[0];
    if constexpr (detail::direct3d_out_of_range) {
      if (outside && detail::target::in_amp_context()) return outside_projection();
    }
    if constexpr (!detail::device_pass) {
      if (outside)
        throw runtime_exception(("projection [" + std::to_string(i) + "] is outside the extent [0, " +
                                 std::to_string(this->extent[0]) + ") of dimension 0")
                                    .c_str(),
                                detail::e_invalidarg);
    }
    return projected(i);
  }
  AMP_FN array_view<T, N - 1> outside_projection() const {
    array_view<T, N - 1> v = projected(0);
    v.extent[0] = 0;
    return v;
  }
  AMP_FN array_view<T, N - 1> projected(int i) const {
    array_view<T, N - 1> v(nullptr);
    for (int d = 1; d < N; ++d) {
      v.extent[d - 1] = this->extent[d];
      v.stride_[d - 1] = stride_[d];
    }
    this->share_into(v, static_cast<long long>(i) * stride_[0]);
    v.h_.tag = h_.tag;
    return v;
  }
  void check_section(const index<N>& o, const Concurrency::extent<N>& e) const {
    for (int d = 0; d < N; ++d)
      if (o[d] < 0 || e[d] <= 0 || o[d] + e[d] > this->extent[d])
        throw runtime_exception("array_view::section: the section is out of the view's bounds", detail::e_invalidarg);
  }
  // Each contiguous run of the section (a row of its innermost dimension).
  void discard_section() const {
    if (this->is_dense()) return h_.buf->discard_range(h_.off, static_cast<std::size_t>(this->extent.size_64()) * sizeof(T));
    Concurrency::extent<N> rows = this->extent;
    rows[N - 1] = 1;
    const std::size_t run = static_cast<std::size_t>(this->extent[N - 1]) * sizeof(T);
    for (long long r = 0; r < rows.size_64(); ++r)
      h_.buf->discard_range(h_.off + static_cast<std::size_t>(this->offset(detail::delinearize(r, rows))) * sizeof(T), run);
  }
  bool covers_buffer() const {
    return h_.off == 0 && static_cast<std::size_t>(this->extent.size_64()) * sizeof(T) == h_.buf->bytes;
  }
  void init_header(detail::buffer* b, std::size_t off) {
    h_.tag = std::is_const<T>::value ? (detail::view_tag | 1) : detail::view_tag;
    h_.buf = b;
    h_.off = off;
    h_.ptr = nullptr;
    this->point_at_host();
  }
  void from_host(const Concurrency::extent<N>& e, const void* p, std::size_t n) {
    // Inside a kernel (AMP's restrict(amp) pointer constructor) nothing is
    // checked, as in Microsoft's runtime: an empty view is valid there (code
    // makes one as a placeholder, e.g. a default-constructed iterator's).
    if (!(detail::target::in_amp_context() && n == static_cast<std::size_t>(-1) && e.size_64() == 0 && !has_negative(e)))
      detail::check_extent_positive(e, sizeof(T), "array_view");
    if (n != static_cast<std::size_t>(-1) && n < static_cast<std::size_t>(e.size_64()))
      throw runtime_exception("array_view: the source container is smaller than the extent", detail::e_invalidarg);
    this->extent = e;
    this->set_dense_strides(e);
    init_header(detail::buffer::make_view_of(const_cast<void*>(p), e.size_64() * sizeof(T)), 0);
    h_.buf->fp_width = detail::fp_width_of<T>();
  }
  static bool has_negative(const Concurrency::extent<N>& e) {
    for (int d = 0; d < N; ++d)
      if (e[d] < 0) return true;
    return false;
  }
  void from_nothing(const Concurrency::extent<N>& e) {
    detail::check_extent_positive(e, sizeof(T), "array_view");
    this->extent = e;
    this->set_dense_strides(e);
    init_header(detail::buffer::make_owned(e.size_64() * sizeof(T), detail::location::host), 0);
    h_.buf->fp_width = detail::fp_width_of<T>();
  }
};

// Deduction from an array (`array_view v = a;`, C++17 code): the
// constructors name the element type through data_base, which deduction
// does not see through (Visual C++'s implicit guide from array_view(array<T,
// N>&) deduces it).
template <class T, int N> array_view(array<T, N>&) -> array_view<T, N>;
template <class T, int N> array_view(const array<T, N>&) -> array_view<const T, N>;

} // namespace Concurrency
