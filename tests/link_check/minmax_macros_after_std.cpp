// Must compile AND link: a program that defines function-like min/max macros
// after its first standard header (as AMD's Bolt does in its sort kernels, and
// <windows.h> without NOMINMAX does) and then includes more standard headers
// (GoogleTest's <locale>, ...). libstdc++ cannot take that by itself (it #undefs
// the macros only in its first header); amp_compat's guarded standard headers
// (amp_compat/stdlib/, scripts/gen_minmax_guards.py) save and restore the
// macros around each, as libc++ and MSVC's library do. The headers below are
// those that failed after <amp.h>; the macros must still be the program's
// afterwards.
#include <amp.h>

#define max(a, b) (((a) > (b)) ? (a) : (b))
#define min(a, b) (((a) < (b)) ? (a) : (b))

#include <bitset>
#include <codecvt>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <locale>
#include <queue>
#include <random>
#include <regex>
#include <stack>
#include <valarray>

static_assert(min(3, 4) == 3 && max(3, 4) == 4, "the program's macros are back after the headers");

int main() {
  std::vector<int> v(8, 5);
  concurrency::array_view<int, 1> av(8, v);
  concurrency::parallel_for_each(av.extent, [=](concurrency::index<1> i) restrict(amp) {
    av[i] = min(av[i], i[0]) + max(0, 1);
  });
  av.synchronize();
  for (int i = 0; i < 8; ++i)
    if (v[i] != (i < 5 ? i : 5) + 1) { std::printf("wrong v[%d] = %d\n", i, v[i]); return 1; }
  std::ostringstream s;
  s.imbue(std::locale::classic());
  s << std::setw(3) << std::bitset<4>(5).to_string() << std::deque<int>(2).size();
  return s.str() == "01012" ? 0 : 1;
}
