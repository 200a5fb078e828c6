// texture<T, N>, texture_view<T, N>, texture_view<const T, N> and
// writeonly_texture_view<T, N> (AMP spec 10.1, 10.2, 10.4).
//
// A texture is an array-like owner of one coherence buffer (runtime.h) holding
// its texels in their storage format (format.h): every mip level, most
// detailed first, each row-major with the width (extent[N-1]) innermost. The
// objects start with a data_header, so kernel launches treat them as they
// treat arrays and array_views (capture.h): a texture captured by reference is
// redirected to a shadow copy on the accelerator, a view captured by value gets
// its pointer patched. In kernels the texels are read and written in plain
// device memory by the same code as on the host (see bench/b_texture.cpp for
// the comparison with CUDA texture objects), so results are identical.
#pragma once
#include "sampler.h"
#include "../copy.h"

namespace Concurrency {
namespace graphics {
template <class T, int N> class texture;
template <class T, int N> class texture_view;
template <class T, int N> class writeonly_texture_view;
} // namespace graphics

namespace detail {
struct texture_access;
// True when the first N of A... are integers (texture(e0, e1, rest...)).
template <int N, class... A> constexpr bool first_ints() {
  constexpr bool ints[] = {false, std::is_integral<A>::value...};
  if (static_cast<int>(sizeof...(A)) < N) return false;
  for (int d = 1; d <= N; ++d)
    if (!ints[d]) return false;
  return true;
}

template <class T, int N> class texture_base {
  static_assert(N >= 1 && N <= 3, "textures have rank 1, 2 or 3");
  static_assert(texel_traits<T>::valid,
                "invalid texture element type: int, uint, float, norm, unorm (scalars, _2 and _4), double, double_2");

protected:
  mutable data_header h_; // first: launches find it at offset 0

public:
  using value_type = T;
  using scalar_type = typename texel_traits<T>::scalar;
  static constexpr int rank = N;

  // Property (AMP): the extent of the most detailed level of this object.
  Concurrency::extent<N> extent;

  AMP_FN Concurrency::extent<N> get_extent() const { return extent; }
  AMP_FN Concurrency::extent<N> get_extent(unsigned int mip_level) const { return level_extent(level0_ + mip_level); }
  AMP_FN unsigned int get_bits_per_scalar_element() const { return bits_; }
  AMP_FN unsigned int get_mipmap_levels() const { return levels_; }
  // Bytes of all levels of this object in their storage format.
  unsigned int get_data_length() const { return static_cast<unsigned int>(bytes_of_levels(level0_, levels_)); }

protected:
  friend struct texture_access;
  template <class, int> friend class texture_base;
  template <class, int> friend class graphics::texture;
  template <class, int> friend class graphics::texture_view;
  template <class, int> friend class graphics::writeonly_texture_view;
  static constexpr unsigned channels = texel_traits<T>::channels;

  AMP_FN texture_base() : h_{}, extent(), full_(), bits_(0), level0_(0), levels_(1) {}

  AMP_FN unsigned texel_bytes() const { return channels * bits_ / 8; }
  AMP_FN Concurrency::extent<N> level_extent(unsigned level) const {
    Concurrency::extent<N> e;
    for (int d = 0; d < N; ++d) {
      const int s = full_[d] >> level;
      e[d] = s > 0 ? s : 1;
    }
    return e;
  }
  AMP_FN std::size_t bytes_of_levels(unsigned first, unsigned count) const {
    std::size_t n = 0;
    for (unsigned l = first; l < first + count; ++l) n += static_cast<std::size_t>(level_extent(l).size()) * texel_bytes();
    return n;
  }
  // Address of texel i of storage level `level`, on the accelerator running the code.
  AMP_FN unsigned char* texel(const index<N>& i, unsigned level, bool write) const {
    const Concurrency::extent<N> e = level_extent(level);
    long long lin = i[0];
    for (int d = 1; d < N; ++d) lin = lin * e[d] + i[d];
    return storage(write) + bytes_of_levels(0, level) + static_cast<std::size_t>(lin) * texel_bytes();
  }
  AMP_FN unsigned char* storage(bool write) const {
    if constexpr (!device_pass && has_device_memory) {
      if (h_.buf) {
        h_.buf->prepare(location::host, write ? buffer::access::write : buffer::access::read);
        h_.ptr = static_cast<char*>(h_.buf->host) + h_.off;
      }
    }
    return static_cast<unsigned char*>(h_.ptr);
  }
  AMP_FN T read(const index<N>& i, unsigned mip = 0) const { return load_texel<T>(texel(i, level0_ + mip, false), bits_); }
  AMP_FN void write(const index<N>& i, const T& v) const { store_texel<T>(texel(i, level0_, true), bits_, v); }

  // Views share the storage (reference counted on the host; no counting in kernels).
  template <class V> AMP_FN void share_into(V& v, unsigned first, unsigned count, bool read_only) const {
    v.h_ = h_;
    v.h_.tag = view_tag | (read_only ? 1u : 0u);
    v.full_ = full_;
    v.bits_ = bits_;
    v.level0_ = first;
    v.levels_ = count;
    v.extent = level_extent(first);
    if constexpr (!device_pass) {
      if (v.h_.buf) v.h_.buf->retain();
    }
  }
  AMP_FN void release_view() {
    if constexpr (!device_pass) {
      if (h_.buf) h_.buf->release();
      h_.buf = nullptr;
    }
  }
  AMP_FN void copy_view(const texture_base& o) {
    if (this == &o) return;
    release_view();
    h_ = o.h_;
    extent = o.extent;
    full_ = o.full_;
    bits_ = o.bits_;
    level0_ = o.level0_;
    levels_ = o.levels_;
    if constexpr (!device_pass) {
      if (h_.buf) h_.buf->retain();
    }
  }
  void check_mips(unsigned first, unsigned count, const char* what) const {
    if (count == 0 || first + count > levels_ || first >= levels_)
      throw runtime_exception((std::string(what) + ": mipmap levels out of range").c_str(), e_invalidarg);
  }
  void check_index_host(const index<N>& i) const {
    for (int d = 0; d < N; ++d)
      if (i[d] < 0 || i[d] >= extent[d]) throw runtime_exception("texture: index out of range", e_invalidarg);
  }

  Concurrency::extent<N> full_; // storage level 0
  unsigned bits_;               // bits per scalar element
  unsigned level0_;             // first storage level this object sees
  unsigned levels_;             // levels this object sees

#if AMP_MS_EXTENSIONS
public:
  // MSVC's property syntax (tex.bits_per_scalar_element, tex.data_length,
  // tex.mipmap_levels) where the compiler has __declspec(property) (--msvc):
  // the getters above, no storage, so the device shadow is unchanged. A GCC
  // build names the getters (get_data_length() ...) and amp++ says --msvc.
  __declspec(property(get = get_bits_per_scalar_element)) unsigned int bits_per_scalar_element;
  __declspec(property(get = get_mipmap_levels)) unsigned int mipmap_levels;
  __declspec(property(get = get_data_length)) unsigned int data_length;
#endif
};

// Element access of texture and texture_view<T> (read and write; in kernels,
// and on the host with implicit synchronisation).
template <class T, int N> class read_write_texture_base : public texture_base<T, N> {
public:
  using typename texture_base<T, N>::value_type;
  AMP_FN value_type get(const index<N>& i) const { return this->read(i); }
  AMP_FN void set(const index<N>& i, const value_type& v) const { this->write(i, v); }
  AMP_FN value_type operator[](const index<N>& i) const { return this->read(i); }
  AMP_FN value_type operator()(const index<N>& i) const { return this->read(i); }
  template <int K = N, class = std::enable_if_t<K == 1>> AMP_FN value_type operator[](int i0) const {
    return this->read(index<1>(i0));
  }
  template <class... I, class = std::enable_if_t<sizeof...(I) == N && all_ints<I...>::value>>
  AMP_FN value_type operator()(I... i) const { return this->read(index<N>(static_cast<int>(i)...)); }
};

} // namespace detail

namespace graphics {

template <class T, int N> class texture : public detail::read_write_texture_base<T, N> {
  using base = detail::texture_base<T, N>;
  using base::h_;
  template <class, int> friend class texture_view;
  template <class, int> friend class writeonly_texture_view;
  friend struct detail::texture_access;
  friend struct detail::closure_patcher;
  using tr = detail::texel_traits<T>;

public:
  using typename base::scalar_type;
  using typename base::value_type;

  // ---- construction (host). Every form also takes the extent as N ints first:
  // texture(e0, e1, rest...) is texture(extent<2>(e0, e1), rest...).
  explicit texture(const Concurrency::extent<N>& e) : texture(e, tr::default_bits, 1u, detail::default_accelerator_view()) {}
  texture(const Concurrency::extent<N>& e, const Concurrency::accelerator_view& av) : texture(e, tr::default_bits, 1u, av) {}
  texture(const Concurrency::extent<N>& e, const Concurrency::accelerator_view& av, const Concurrency::accelerator_view&)
      : texture(e, av) {} // staging texture: the data live with av's host copy here anyway
  texture(const Concurrency::extent<N>& e, unsigned int bits)
      : texture(e, bits, 1u, detail::default_accelerator_view()) {}
  texture(const Concurrency::extent<N>& e, unsigned int bits, const Concurrency::accelerator_view& av)
      : texture(e, bits, 1u, av) {}
  texture(const Concurrency::extent<N>& e, unsigned int bits, const Concurrency::accelerator_view& av,
          const Concurrency::accelerator_view&)
      : texture(e, bits, 1u, av) {}
  texture(const Concurrency::extent<N>& e, unsigned int bits, unsigned int mipmap_levels,
          const Concurrency::accelerator_view& av)
  {
    allocate(e, bits, mipmap_levels, av);
  }
  template <class It, class = detail::iter_t<It>>
  texture(const Concurrency::extent<N>& e, It first, It last) : texture(e, first, last, detail::default_accelerator_view()) {}
  template <class It, class = detail::iter_t<It>>
  texture(const Concurrency::extent<N>& e, It first, It last, const Concurrency::accelerator_view& av) : texture(e, av) {
    fill(first, last);
  }
  template <class It, class = detail::iter_t<It>>
  texture(const Concurrency::extent<N>& e, It first, It last, const Concurrency::accelerator_view& av,
          const Concurrency::accelerator_view&)
      : texture(e, first, last, av) {}
  texture(const Concurrency::extent<N>& e, const void* src, unsigned int src_byte_size, unsigned int bits)
      : texture(e, src, src_byte_size, bits, detail::default_accelerator_view()) {}
  texture(const Concurrency::extent<N>& e, const void* src, unsigned int src_byte_size, unsigned int bits,
          const Concurrency::accelerator_view& av)
      : texture(e, bits, av) {
    copy_from_bytes(src, src_byte_size);
  }
  texture(const Concurrency::extent<N>& e, const void* src, unsigned int src_byte_size, unsigned int bits,
          const Concurrency::accelerator_view& av, const Concurrency::accelerator_view&)
      : texture(e, src, src_byte_size, bits, av) {}
  // The int-extent forms.
  template <class... I, std::enable_if_t<sizeof...(I) == N && detail::all_ints<I...>::value, int> = 0>
  explicit texture(I... e) : texture(Concurrency::extent<N>(static_cast<int>(e)...)) {}
  template <class... A, std::enable_if_t<(sizeof...(A) > N) && detail::first_ints<N, A...>(), int> = 0>
  texture(A... a) : texture(detail::split_tag{}, std::tuple<A...>(a...), std::make_index_sequence<sizeof...(A) - N>{}) {}

  // Deep copies, as AMP specifies.
  texture(const texture& o) : texture(o, o.get_accelerator_view()) {}
  texture(const texture& o, const Concurrency::accelerator_view& av) {
    allocate(o.full_, o.bits_, o.levels_, av);
    detail::copy_buffer(*o.h_.buf, *h_.buf);
  }
  texture(texture&& o) noexcept {
    take(o);
    detail::array_registry::add(this, sizeof(*this));
  }
  texture& operator=(const texture& o) {
    if (this != &o) {
      texture tmp(o);
      *this = std::move(tmp);
    }
    return *this;
  }
  texture& operator=(texture&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~texture() {
    static_assert(sizeof(texture) <= detail::array_registry::max_object, "texture object too large for its shadow");
    detail::array_registry::remove(this);
    release();
  }


  // ---- copies and host data
  void copy_to(texture& dest) const;
  void copy_to(const writeonly_texture_view<T, N>& dest) const;
  // Host pointer to the texels (staging textures on Windows; every texture here).
  void* data() { return this->storage(true); }
  const void* data() const { return this->storage(false); }
  unsigned int get_row_pitch() const { return static_cast<unsigned int>(this->extent[N - 1] * this->texel_bytes()); }
  unsigned int get_depth_pitch() const {
    return N < 3 ? 0u : static_cast<unsigned int>(this->extent[N - 1] * this->extent[N - 2] * this->texel_bytes());
  }
  // (Kept with the data, not in the object: a texture must stay small enough
  // for its device shadow, see capture.h.)
  Concurrency::accelerator_view get_accelerator_view() const { return *h_.buf->source_view; }
  Concurrency::accelerator_view get_associated_accelerator_view() const { return *h_.buf->associated_view; }

private:
  template <class Tup, std::size_t... K>
  texture(detail::split_tag, const Tup& t, std::index_sequence<K...>)
      : texture(detail::head_extent<N>(t, std::make_index_sequence<N>{}), std::get<N + K>(t)...) {}

  void allocate(const Concurrency::extent<N>& e, unsigned bits, unsigned levels, const Concurrency::accelerator_view& av) {
    for (int d = 0; d < N; ++d)
      if (e[d] <= 0) throw runtime_exception("texture: every extent dimension must be positive", detail::e_invalidarg);
    if (!detail::texel_bits_ok<scalar_type>(bits))
      throw runtime_exception("texture: bits_per_scalar_element not supported for this element type",
                              detail::e_invalidarg);
    int largest = 0;
    for (int d = 0; d < N; ++d) largest = e[d] > largest ? e[d] : largest;
    int max_levels = 1;
    while ((largest >> max_levels) > 0) ++max_levels;
    if (levels == 0 || static_cast<int>(levels) > max_levels)
      throw runtime_exception("texture: invalid number of mipmap levels for this extent", detail::e_invalidarg);
    this->extent = e;
    this->full_ = e;
    this->bits_ = bits;
    this->level0_ = 0;
    this->levels_ = levels;
    const auto info = detail::info_of(av);
    h_.tag = detail::array_tag;
    h_.buf = detail::buffer::make_owned(this->bytes_of_levels(0, levels), info->loc());
    h_.buf->owner = info->kind;
    h_.buf->source_view = std::make_shared<const Concurrency::accelerator_view>(av);
    h_.buf->associated_view = h_.buf->source_view;
    h_.buf->home_queue = detail::queue_of(av);
    h_.off = 0;
    h_.ptr = h_.buf->host;
    detail::array_registry::add(this, sizeof(*this));
  }
  template <class It> void fill(It first, It last);
  void copy_from_bytes(const void* src, unsigned int n);
  void take(texture& o) noexcept {
    this->extent = o.extent;
    this->full_ = o.full_;
    this->bits_ = o.bits_;
    this->level0_ = o.level0_;
    this->levels_ = o.levels_;
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
  // The rest of MSVC's texture properties (tex.accelerator_view.accelerator,
  // tex.row_pitch ...), as array's: last in the class, and every use of the
  // type name above is qualified (inside the class the name now denotes the
  // property).
  __declspec(property(get = get_row_pitch)) unsigned int row_pitch;
  __declspec(property(get = get_depth_pitch)) unsigned int depth_pitch;
  __declspec(property(get = get_accelerator_view)) Concurrency::accelerator_view accelerator_view;
  __declspec(property(get = get_associated_accelerator_view)) Concurrency::accelerator_view associated_accelerator_view;
#endif
};

// A writable view of one mip level (read and write, no sampling).
template <class T, int N> class texture_view : public detail::read_write_texture_base<T, N> {
  using base = detail::texture_base<T, N>;
  template <class, int> friend class texture_view;
  friend struct detail::texture_access;

public:
  using typename base::scalar_type;
  using typename base::value_type;

  AMP_FN texture_view(texture<T, N>& src, unsigned int mipmap_level = 0) {
    if constexpr (!detail::device_pass) src.check_mips(mipmap_level, 1, "texture_view");
    src.share_into(*this, mipmap_level, 1, false);
  }
  AMP_FN texture_view(const texture_view& o) : detail::read_write_texture_base<T, N>() { this->copy_view(o); }
  AMP_FN texture_view& operator=(const texture_view& o) {
    this->copy_view(o);
    return *this;
  }
  AMP_FN ~texture_view() { this->release_view(); }
};

// A read-only view of a range of mip levels: reads, sampling and gathers.
template <class T, int N> class texture_view<const T, N> : public detail::texture_base<T, N> {
  using base = detail::texture_base<T, N>;
  template <class, int> friend class texture_view;
  friend struct detail::texture_access;
  using S = typename detail::texel_traits<T>::scalar;

public:
  using value_type = const T;
  using scalar_type = S;
  using coordinates_type = typename short_vector<float, N>::type;
  using gather_return_type = typename short_vector<S, 4>::type;

  AMP_FN texture_view(const texture<T, N>& src) { src.share_into(*this, 0, src.levels_, true); }
  texture_view(const texture<T, N>& src, unsigned int most_detailed_mip, unsigned int mip_levels) {
    src.check_mips(most_detailed_mip, mip_levels, "texture_view");
    src.share_into(*this, most_detailed_mip, mip_levels, true);
  }
  AMP_FN texture_view(const texture_view<T, N>& o) { o.share_into(*this, o.level0_, 1, true); }
  texture_view(const texture_view<const T, N>& o, unsigned int most_detailed_mip, unsigned int mip_levels) {
    o.check_mips(most_detailed_mip, mip_levels, "texture_view");
    o.share_into(*this, o.level0_ + most_detailed_mip, mip_levels, true);
  }
  AMP_FN texture_view(const texture_view& o) : base() { this->copy_view(o); }
  AMP_FN texture_view& operator=(const texture_view& o) {
    this->copy_view(o);
    return *this;
  }
  AMP_FN ~texture_view() { this->release_view(); }

  AMP_FN T get(const index<N>& i, unsigned int mip_level = 0) const { return this->read(i, mip_level); }
  AMP_FN T operator[](const index<N>& i) const { return this->read(i); }
  AMP_FN T operator()(const index<N>& i) const { return this->read(i); }
  template <int K = N, class = std::enable_if_t<K == 1>> AMP_FN T operator[](int i0) const {
    return this->read(index<1>(i0));
  }
  template <class... I, class = std::enable_if_t<sizeof...(I) == N && detail::all_ints<I...>::value>>
  AMP_FN T operator()(I... i) const { return this->read(index<N>(static_cast<int>(i)...)); }

  // Filtered read at normalised coordinates; level_of_detail selects (point)
  // or blends (linear) mip levels, relative to this view's most detailed one.
  AMP_FN T sample(const sampler& s, const coordinates_type& coord, float level_of_detail = 0.0f) const {
    AMP_FP_EXACT
    static_assert(detail::texel_is_float<S> && !std::is_same<S, double>::value,
                  "sample needs a float, norm or unorm based texture");
    const float* c = reinterpret_cast<const float*>(&coord);
    const float top = static_cast<float>(this->levels_ - 1);
    const float lod = level_of_detail < 0.0f ? 0.0f : level_of_detail > top ? top : level_of_detail;
    if (s.get_filter_mode() != filter_linear || this->levels_ == 1)
      return sample_at(s, c, static_cast<unsigned>(detail::floor_to_int(lod + 0.5f)));
    const unsigned l0 = static_cast<unsigned>(detail::floor_to_int(lod));
    const float f = lod - static_cast<float>(l0);
    if (f == 0.0f) return sample_at(s, c, l0);
    float a[4], b[4];
    detail::texel_to_floats(sample_at(s, c, l0), a);
    detail::texel_to_floats(sample_at(s, c, l0 + 1), b);
    for (unsigned k = 0; k < base::channels; ++k) a[k] = a[k] * (1.0f - f) + b[k] * f;
    return detail::floats_to_texel<T>(a);
  }
  template <filter_mode F = filter_linear, address_mode A = address_clamp>
  AMP_FN T sample(const coordinates_type& coord, float level_of_detail = 0.0f) const {
    return sample(sampler(F, A), coord, level_of_detail);
  }

  // The four texels a bilinear sample at coord would blend, one channel each:
  // (x, y, z, w) = (left-lower, right-lower, right-upper, left-upper) as in
  // Direct3D's Gather, where "upper" is the smaller row index.
  AMP_FN gather_return_type gather_red(const sampler& s, const coordinates_type& coord) const { return gather(s, coord, 0); }
  AMP_FN gather_return_type gather_green(const sampler& s, const coordinates_type& coord) const {
    static_assert(base::channels >= 2, "gather_green needs at least 2 channels");
    return gather(s, coord, 1);
  }
  AMP_FN gather_return_type gather_blue(const sampler& s, const coordinates_type& coord) const {
    static_assert(base::channels >= 3, "gather_blue needs at least 3 channels");
    return gather(s, coord, 2);
  }
  AMP_FN gather_return_type gather_alpha(const sampler& s, const coordinates_type& coord) const {
    static_assert(base::channels >= 4, "gather_alpha needs 4 channels");
    return gather(s, coord, 3);
  }
  template <address_mode A = address_clamp> AMP_FN gather_return_type gather_red(const coordinates_type& c) const {
    return gather_red(sampler(filter_point, A), c);
  }
  template <address_mode A = address_clamp> AMP_FN gather_return_type gather_green(const coordinates_type& c) const {
    return gather_green(sampler(filter_point, A), c);
  }
  template <address_mode A = address_clamp> AMP_FN gather_return_type gather_blue(const coordinates_type& c) const {
    return gather_blue(sampler(filter_point, A), c);
  }
  template <address_mode A = address_clamp> AMP_FN gather_return_type gather_alpha(const coordinates_type& c) const {
    return gather_alpha(sampler(filter_point, A), c);
  }

private:
  AMP_FN T sample_at(const sampler& s, const float* c, unsigned mip) const {
    const unsigned level = this->level0_ + mip;
    return detail::sample_level<T, N>(s, c, this->level_extent(level),
                                      [&](const index<N>& i) AMP_HD { return this->read(i, mip); });
  }
  AMP_FN gather_return_type gather(const sampler& s, const coordinates_type& coord, int channel) const {
    static_assert(N == 2, "gather is only available for rank 2 textures");
    const Concurrency::extent<N> size = this->extent;
    const detail::texel_cell<N> cell = detail::locate<N>(reinterpret_cast<const float*>(&coord), size, true);
    const float_4 border = s.get_border_color();
    constexpr int order[4] = {2, 3, 1, 0}; // corners (bit 0: x+1, bit 1: y+1) in Gather's order
    S out[4];
    for (int k = 0; k < 4; ++k) {
      bool outside;
      const index<N> i = detail::corner_index<N>(cell, order[k], size, s.get_address_mode(), outside);
      if (outside) out[k] = S(reinterpret_cast<const float*>(&border)[channel]);
      else {
        const T v = this->read(i);
        out[k] = reinterpret_cast<const S*>(&v)[channel];
      }
    }
    return gather_return_type(out[0], out[1], out[2], out[3]);
  }
};

// Write-only view of a texture's most detailed level (AMP 1.0; deprecated in
// favour of texture_view, kept for old code).
template <class T, int N> class writeonly_texture_view : public detail::texture_base<T, N> {
  using base = detail::texture_base<T, N>;
  friend struct detail::texture_access;

public:
  using typename base::value_type;
  using typename base::scalar_type;

  AMP_FN writeonly_texture_view(texture<T, N>& src) { src.share_into(*this, 0, 1, false); }
  AMP_FN writeonly_texture_view(const writeonly_texture_view& o) : base() { this->copy_view(o); }
  AMP_FN writeonly_texture_view& operator=(const writeonly_texture_view& o) {
    this->copy_view(o);
    return *this;
  }
  AMP_FN ~writeonly_texture_view() { this->release_view(); }

  AMP_FN void set(const index<N>& i, const value_type& v) const { this->write(i, v); }
};

} // namespace graphics
} // namespace Concurrency
