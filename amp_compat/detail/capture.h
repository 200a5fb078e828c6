// What a kernel launch does with the user's closure before any work-item runs.
//
// The closure is copied byte for byte into a kernel_image, and that copy is
// patched for the accelerator that will run it:
//  * an array_view (found by its data_header tag, checked against the live
//    buffers) has its data made current there (copied in unless discarded),
//    its pointer set to that copy, and its buffer pointer cleared, so the
//    kernel carries no coherence state and no reference counting;
//  * an array captured by reference (a word equal to the host address of a
//    registered array) is redirected to the array's shadow: a copy of the
//    array object, in the accelerator's memory, whose pointer refers to the
//    data there. The shadow is re-uploaded only when the object changed.
// The image is plain bytes, so Kokkos copies it to the GPU without running
// any copy constructor there.
#pragma once
#include "array.h"
#include "runtime/result_log.h"

#include <cstring>
#include <type_traits>

namespace Concurrency {
namespace detail {

template <class F> struct kernel_image {
  alignas(F) unsigned char bytes[sizeof(F)];
  AMP_FN const F& fn() const { return *reinterpret_cast<const F*>(bytes); }
};

// Runs one work-item of kernel f. A `mutable` kernel (not callable as const)
// runs on a copy of the closure made for the work-item: in AMP every
// work-item has its own copy of the captured values, so changes to them stay
// with the work-item.
template <class F, class I> AMP_FN __attribute__((always_inline)) void invoke_kernel(const F& f, I&& i) {
  if constexpr (std::is_invocable<const F&, I&&>::value) {
    f(static_cast<I&&>(i));
  } else {
    F own(f);
    own(static_cast<I&&>(i));
  }
}

struct closure_patcher {
  // Patches `size` bytes at `p` for a kernel running in `loc`, queued on q
  // (a queue of that device; unused on the host).
  static void patch(unsigned char* p, std::size_t size, std::size_t align, location loc,
                    const std::shared_ptr<queue_state>& q) {
    if (align < alignof(std::uint64_t)) return; // no pointer or view can be inside
    std::unique_lock<std::mutex> reg(array_registry::mutex());
    for (std::size_t o = 0; o + sizeof(std::uint64_t) <= size; o += sizeof(std::uint64_t)) {
      std::uint64_t w;
      std::memcpy(&w, p + o, sizeof w);
      if ((w | 1) == (view_tag | 1) && o + sizeof(data_header) <= size) {
        data_header h;
        std::memcpy(&h, p + o, sizeof h);
        if (h.buf && buffer::is_live(h.buf)) {
          const bool read_only = (w & 1) != 0;
          if (!read_only) result_log::note_written(h.buf);
          const auto a = read_only ? buffer::access::read : buffer::access::write;
          if (loc == location::host && h.buf->kernels_use_private()) {
            h.buf->prepare_private(a); // AMP_HOST_VIEWS=copy
            h.ptr = static_cast<char*>(h.buf->priv) + h.off;
          } else {
            h.buf->prepare(loc, a, q);
            h.ptr = static_cast<char*>(h.buf->base(loc)) + h.off;
          }
          h.buf = nullptr;
          std::memcpy(p + o, &h, sizeof h);
          o += sizeof(data_header) - sizeof(std::uint64_t);
        }
        continue;
      }
      if (array_registry::entry* e = array_registry::find(reinterpret_cast<const void*>(w))) {
        void* shadow = make_shadow(reinterpret_cast<const unsigned char*>(w), *e, loc, q);
        std::memcpy(p + o, &shadow, sizeof shadow);
      }
    }
  }

private:
  static void* make_shadow(const unsigned char* obj, array_registry::entry& e, location loc,
                           const std::shared_ptr<queue_state>& q) {
    data_header h;
    std::memcpy(&h, obj, sizeof h);
    result_log::note_written(h.buf);
    h.buf->prepare(loc, buffer::access::write, q);
    unsigned char* s = e.host_shadow;
    std::memcpy(s, obj, e.size);
    h.ptr = h.buf->base(loc);
    h.buf = nullptr;
    std::memcpy(s, &h, sizeof h);
    if (loc == location::host) return s;
    const int d = device_of(loc);
    array_registry::device_shadow& ds = e.on(d);
    if (!ds.slot.p) ds.slot = shadow_slots::get(d).take();
    // Kernels on another queue may still read the slot (this array's earlier
    // launches, or its previous owner's): this one is ordered after them.
    if (ds.slot.last && ds.slot.last != q) q->wait_for(*ds.slot.last);
    ds.slot.last = q;
    if (!ds.uploaded_valid || std::memcmp(ds.uploaded, s, e.size) != 0) {
      // Queued, not waited for: the launch that needs it follows on the queue.
      device_memory::to_device_queued(*q, ds.slot.p, s, e.size);
      std::memcpy(ds.uploaded, s, e.size);
      ds.uploaded_valid = true;
    }
    return ds.slot.p;
  }
};

template <class F> kernel_image<F> capture(const F& f, location loc, const std::shared_ptr<queue_state>& q) {
  kernel_image<F> img;
  std::memcpy(img.bytes, static_cast<const void*>(&f), sizeof(F));
  closure_patcher::patch(img.bytes, sizeof(F), alignof(F), loc, q);
  return img;
}

} // namespace detail
} // namespace Concurrency
