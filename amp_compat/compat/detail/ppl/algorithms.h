// PPL parallel algorithms over oneTBB (private; <ppl.h>).
//
// Contracts (MSVC's):
//   parallel_for(first, last, [step,] f [, partitioner]): f(i) for i = first,
//     first+step, ... < last, in parallel; step <= 0 throws
//     std::invalid_argument; first >= last does nothing. One index type for
//     all bounds, as MSVC requires.
//   parallel_for_each(first, last, f [, partitioner]): f(*it) for every
//     element (forward iterators; random-access ones are split by index).
//   parallel_invoke(f1, ..., f10): runs 2 to 10 functions concurrently,
//     returns when all are done; the first exception is rethrown.
//   parallel_reduce(first, last, identity [, f [, combine]]): sum with +,
//     with a binary f, or MSVC's range form: f(first_of_chunk, last_of_chunk,
//     init) reduces one chunk and combine(a, b) joins chunk results.
//     The operations must be associative (chunks are joined in order).
//   parallel_transform(first, last, out, f) and (first1, last1, first2, out,
//     f): out[i] = f(first[i]) / f(first1[i], first2[i]); returns the end of out.
//   parallel_sort, parallel_buffered_sort (random-access, [comp]): unstable
//     sorts. parallel_radixsort(first, last [, key]): stable sort by the
//     unsigned integral key (the element itself by default).
//   Exceptions thrown by f propagate to the caller (the first one).
// Partitioners: auto_partitioner, simple_partitioner(chunk),
// static_partitioner, affinity_partitioner map to oneTBB's.
#ifndef AMP_COMPAT_COMPAT_DETAIL_PPL_ALGORITHMS_H
#define AMP_COMPAT_COMPAT_DETAIL_PPL_ALGORITHMS_H

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

// GPU builds of <amp.h> make parallel_for_each a function-like macro
// (detail/parallel_for_each.h); oneTBB's declarations and the calls below
// must not expand it. Restored at the end of this header.
#pragma push_macro("parallel_for_each")
#undef parallel_for_each
#include "../../../detail/foreign_begin.h"
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/parallel_for_each.h>
#include <oneapi/tbb/parallel_invoke.h>
#include <oneapi/tbb/parallel_reduce.h>
#include <oneapi/tbb/parallel_sort.h>
#include <oneapi/tbb/partitioner.h>
#include "../../../detail/foreign_end.h"

namespace Concurrency {

class auto_partitioner {
public:
  tbb::auto_partitioner tbb_partitioner() const { return {}; }
};
class simple_partitioner {
public:
  explicit simple_partitioner(std::size_t chunk_size = 1) : chunk_(chunk_size ? chunk_size : 1) {}
  std::size_t chunk() const { return chunk_; }
  tbb::simple_partitioner tbb_partitioner() const { return {}; }

private:
  std::size_t chunk_;
};
class static_partitioner {
public:
  tbb::static_partitioner tbb_partitioner() const { return {}; }
};
class affinity_partitioner {
public:
  tbb::affinity_partitioner& tbb_partitioner() { return p_; }

private:
  tbb::affinity_partitioner p_;
};

namespace details {

template <class P>
std::size_t grain_of(const P&) { return 1; }
inline std::size_t grain_of(const simple_partitioner& p) { return p.chunk(); }

// f(first + k * step) for k in [0, count), split over oneTBB's workers.
template <class Index, class F, class P>
void parallel_for_steps(Index first, std::size_t count, Index step, const F& f, P&& partitioner) {
  if (count == 0) return;
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, count, grain_of(partitioner)),
      [&](const tbb::blocked_range<std::size_t>& r) {
        for (std::size_t k = r.begin(); k != r.end(); ++k) f(static_cast<Index>(first + static_cast<Index>(k) * step));
      },
      partitioner.tbb_partitioner());
}

template <class Index>
std::size_t step_count(Index first, Index last, Index step) {
  static_assert(std::is_integral<Index>::value, "parallel_for: the index type must be integral");
  if (step <= Index(0)) throw std::invalid_argument("parallel_for: step must be positive");
  if (!(first < last)) return 0;
  using U = typename std::make_unsigned<Index>::type;
  const U span = static_cast<U>(static_cast<U>(last) - static_cast<U>(first));
  return static_cast<std::size_t>((span - 1) / static_cast<U>(step) + 1);
}

template <class P>
struct is_partitioner
    : std::integral_constant<bool, std::is_same<P, auto_partitioner>::value || std::is_same<P, simple_partitioner>::value ||
                                       std::is_same<P, static_partitioner>::value ||
                                       std::is_same<P, affinity_partitioner>::value> {};

template <class It>
using is_random_access =
    std::is_base_of<std::random_access_iterator_tag, typename std::iterator_traits<It>::iterator_category>;

}  // namespace details

// The names are parenthesised in the declarations: GPU builds of amp.h make
// parallel_for_each a function-like macro (see detail/parallel_for_each.h).
template <class Index, class F, class P>
void parallel_for(Index first, Index last, Index step, const F& f, P&& partitioner) {
  details::parallel_for_steps(first, details::step_count(first, last, step), step, f, partitioner);
}
template <class Index, class F>
void parallel_for(Index first, Index last, Index step, const F& f) {
  parallel_for(first, last, step, f, auto_partitioner());
}
template <class Index, class F, class P,
          class = typename std::enable_if<details::is_partitioner<typename std::decay<P>::type>::value>::type>
void parallel_for(Index first, Index last, const F& f, P&& partitioner) {
  parallel_for(first, last, Index(1), f, std::forward<P>(partitioner));
}
template <class Index, class F>
void parallel_for(Index first, Index last, const F& f) {
  parallel_for(first, last, Index(1), f, auto_partitioner());
}

template <class It, class F, class P>
void(parallel_for_each)(It first, It last, const F& f, P&& partitioner) {
  if constexpr (details::is_random_access<It>::value) {
    const auto n = static_cast<std::size_t>(std::distance(first, last));
    details::parallel_for_steps(std::size_t(0), n, std::size_t(1), [&](std::size_t i) { f(first[i]); },
                                partitioner);
  } else {
    tbb::parallel_for_each(first, last, f);
  }
}
template <class It, class F>
void(parallel_for_each)(It first, It last, const F& f) {
  (parallel_for_each)(first, last, f, auto_partitioner());
}

template <class F1, class F2, class... F>
void parallel_invoke(const F1& f1, const F2& f2, const F&... fs) {
  static_assert(sizeof...(F) <= 8, "parallel_invoke takes 2 to 10 functions");
  tbb::parallel_invoke(f1, f2, fs...);
}


// MSVC's range form: range_fun(chunk_first, chunk_last, init) -> T.
template <class It, class T, class RangeF, class CombineF>
T parallel_reduce(It first, It last, const T& identity, const RangeF& range_fun, const CombineF& combine) {
  if constexpr (details::is_random_access<It>::value) {
    const auto n = static_cast<std::size_t>(std::distance(first, last));
    return tbb::parallel_deterministic_reduce(
        tbb::blocked_range<std::size_t>(0, n, 1024), identity,
        [&](const tbb::blocked_range<std::size_t>& r, T init) {
          return range_fun(first + r.begin(), first + r.end(), init);
        },
        [&](const T& a, const T& b) { return combine(a, b); });
  } else {
    // Forward iterators: one chunk per element run, as MSVC would split them.
    std::vector<It> its;
    for (It i = first; i != last; ++i) its.push_back(i);
    its.push_back(last);
    return tbb::parallel_deterministic_reduce(
        tbb::blocked_range<std::size_t>(0, its.size() - 1, 1024), identity,
        [&](const tbb::blocked_range<std::size_t>& r, T init) {
          return range_fun(its[r.begin()], its[r.end()], init);
        },
        [&](const T& a, const T& b) { return combine(a, b); });
  }
}
template <class It, class T, class F>
T parallel_reduce(It first, It last, const T& identity, const F& f) {
  return parallel_reduce(
      first, last, identity,
      [&](It a, It b, T init) {
        for (; a != b; ++a) init = f(init, *a);
        return init;
      },
      f);
}
template <class It>
typename std::iterator_traits<It>::value_type parallel_reduce(It first, It last,
                                                               const typename std::iterator_traits<It>::value_type& identity) {
  using T = typename std::iterator_traits<It>::value_type;
  return parallel_reduce(first, last, identity, [](const T& a, const T& b) { return a + b; });
}

template <class InIt, class OutIt, class F>
OutIt parallel_transform(InIt first, InIt last, OutIt out, const F& f) {
  static_assert(details::is_random_access<InIt>::value && details::is_random_access<OutIt>::value,
                "parallel_transform: amp_compat needs random-access iterators");
  const auto n = static_cast<std::size_t>(std::distance(first, last));
  details::parallel_for_steps(std::size_t(0), n, std::size_t(1), [&](std::size_t i) { out[i] = f(first[i]); },
                              auto_partitioner());
  return out + n;
}
template <class InIt1, class InIt2, class OutIt, class F>
OutIt parallel_transform(InIt1 first1, InIt1 last1, InIt2 first2, OutIt out, const F& f) {
  static_assert(details::is_random_access<InIt1>::value && details::is_random_access<InIt2>::value &&
                    details::is_random_access<OutIt>::value,
                "parallel_transform: amp_compat needs random-access iterators");
  const auto n = static_cast<std::size_t>(std::distance(first1, last1));
  details::parallel_for_steps(std::size_t(0), n, std::size_t(1),
                              [&](std::size_t i) { out[i] = f(first1[i], first2[i]); }, auto_partitioner());
  return out + n;
}

template <class It>
void parallel_sort(It first, It last) {
  tbb::parallel_sort(first, last);
}
template <class It, class Compare>
void parallel_sort(It first, It last, const Compare& comp) {
  tbb::parallel_sort(first, last, comp);
}
template <class It>
void parallel_buffered_sort(It first, It last) {
  tbb::parallel_sort(first, last);
}
template <class It, class Compare>
void parallel_buffered_sort(It first, It last, const Compare& comp) {
  tbb::parallel_sort(first, last, comp);
}

// Stable, by an unsigned key: sorts (key, position) pairs in parallel, then
// permutes the elements.
template <class It, class Key>
void parallel_radixsort(It first, It last, const Key& key) {
  using V = typename std::iterator_traits<It>::value_type;
  const auto n = static_cast<std::size_t>(std::distance(first, last));
  std::vector<std::pair<std::size_t, std::size_t>> order(n);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) { order[i] = {static_cast<std::size_t>(key(first[i])), i}; });
  tbb::parallel_sort(order.begin(), order.end());
  std::vector<V> sorted(n);
  tbb::parallel_for(std::size_t(0), n, [&](std::size_t i) { sorted[i] = std::move(first[order[i].second]); });
  std::move(sorted.begin(), sorted.end(), first);
}
template <class It>
void parallel_radixsort(It first, It last) {
  using V = typename std::iterator_traits<It>::value_type;
  static_assert(std::is_integral<V>::value && std::is_unsigned<V>::value,
                "parallel_radixsort without a key function sorts unsigned integral elements");
  parallel_radixsort(first, last, [](const V& v) { return static_cast<std::size_t>(v); });
}

}  // namespace Concurrency
namespace concurrency = Concurrency;

#pragma pop_macro("parallel_for_each")

#endif
