// MSVC-dialect code that Clang's Microsoft mode rejects and the --msvc
// launcher rewrites (scripts/amp_driver/passes/msvc.py): one instance of each rule.
// Built with ./amp c++ --windows-compat --msvc by tests/compat; prints
// "msvc rewrites: N checks failed" and returns 0 only when all hold.
#include <amp.h>
#include <assert.h>
#include <array>
#include <cstdio>
#include <vector>

using namespace concurrency;
static int failed = 0;
#define CHECK(c) do { if (!(c)) { std::printf("failed: %s (line %d)\n", #c, __LINE__); ++failed; } } while (0)

// _MSC_VER: the project's files see MSVC 19.40.
#if _MSC_VER >= 1800
static const bool msc_ver_seen = true;
#else
static const bool msc_ver_seen = false;
#endif

// A class template naming constants and templates declared later.
template <unsigned N> struct is_pow2 { enum { value = (count_bits_of<N, top_bit>::value == 1) }; };
static const unsigned top_bit = 0x80000000u;
template <unsigned N, unsigned B = top_bit> struct count_bits_of {
  enum { value = ((N & B) ? 1 : 0) + count_bits_of<N, (B >> 1)>::value };
};
template <unsigned N> struct count_bits_of<N, 0> { enum { value = 0 }; };

// Default template arguments repeated on an out-of-class member definition.
template <typename T, int P = 0> struct holder { static const int size = P + 3; };
template <typename T, int P = 0> const int holder<T, P>::size;

// An unsigned template parameter deduced from AMP's int one, and an int one
// from std::array's size_t.
template <unsigned int TileSize> unsigned tile_of(tiled_index<TileSize> t) { return TileSize + 0 * t.local[0]; }
template <typename T, int N> int array_size(const std::array<T, N>&) { return N; }

// A missing `template` and a missing `typename` in an expression.
template <typename V> int tiles_of(const V& v) { return v.extent.tile<4>().pad()[0] / 4; }
template <typename P> int made(P) { return P::type().size(); }
struct maker { typedef std::vector<int> type; };

// A temporary bound to a non-const reference parameter.
template <typename View> void fill_view(View& v, int x) { for (int i = 0; i < v.extent[0]; ++i) v[i] = x; }

// std::array's iterator is a pointer here, a class in MSVC's library.
template <typename It> int first_plus_one(It first) { It::value_type v = *first; return v + 1; }

void main() {
  CHECK(msc_ver_seen);
  CHECK(is_pow2<64>::value && !is_pow2<65>::value);
  CHECK(holder<int>::size == 3);
  std::array<int, 5> a{{4, 5, 6, 7, 8}};
  CHECK(array_size(a) == 5);
  CHECK(first_plus_one(a.begin()) == 5);
  std::vector<int> data(12, 1);
  array_view<int, 1> v(12, data);
  CHECK(tiles_of(v) == 3);
  CHECK(made(maker()) == 0);
  std::vector<const int> consts(3);
  CHECK(consts.size() == 3);
  fill_view(v.section(4, 4), 9);
  v.synchronize();
  CHECK(data[3] == 1 && data[4] == 9 && data[7] == 9 && data[8] == 1);
  std::vector<int> out(4, 0);
  array_view<int, 1> o(4, out);
  parallel_for_each(o.extent.tile<4>(), [=](tiled_index<4> t) restrict(amp) { o[t.global] = static_cast<int>(tile_of(t)); });
  o.synchronize();
  CHECK(out[0] == 4 && out[3] == 4);
  assert(failed == 0, "assert with a message: MSVC drops the extra argument");
  std::printf("msvc rewrites: %d checks failed\n", failed);
  if (failed == 0) return;
  std::exit(1);
}
