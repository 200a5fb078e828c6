// What Microsoft's own C++ AMP test library takes from MSVC's environment,
// one use of each (built with ./amp c++ --windows-compat --msvc, and with
// --windows-compat alone). Prints MSVC's output (the expected lines are in
// CMakeLists.txt) and "0 failed".
#include <amprt.h>
#include <typeinfo.h>
#include <hash_map>
#include <hash_set>
#include <amp.h>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>

#if !defined(_MT) || !defined(_DLL)
#error cl.exe defines _MT, and _DLL with /MD (the default of Visual Studio projects)
#endif

static int failed = 0;
#define CHECK(c) do { if (!(c)) { std::printf("failed: %s (line %d)\n", #c, __LINE__); ++failed; } } while (0)

// MSVC's manipulator type, as Microsoft's documentation shows it.
static void put_hex(std::ios_base& s, int v) { dynamic_cast<std::ostream&>(s) << "0x" << std::hex << v << std::dec; }
static std::_Smanip<int> as_hex(int v) { return std::_Smanip<int>(put_hex, v); }

// The global type_info.
static std::string type_name(const type_info& ti) { return ti == typeid(int) ? "int" : ti.name(); }

// One scoped enumeration initialised from another's enumerators.
enum class flags : int { a = 1, b = 2 };
enum class legacy : int { A = flags::a, B = flags::b, AB = 3 };

// A va_list used twice (measure, then print), as MSVC x64 allows; MSVC's
// %ws (a wide string) and %I64d.
static std::string format(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int len = vsnprintf(nullptr, 0, fmt, args);
  std::unique_ptr<char[]> buf(new char[len + 1]);
  vsnprintf(buf.get(), len + 1, fmt, args);
  va_end(args);
  return buf.get();
}

static int unused(int x, int y) {
  UNREFERENCED_PARAMETER(y);
  return x;
}

int main() {
  std::ostringstream os;
  os << as_hex(255) << " " << 7;
  std::printf("%s\n", os.str().c_str());
  std::printf("%s\n", type_name(typeid(int)).c_str());
  std::printf("%d %d\n", static_cast<int>(legacy::A), static_cast<int>(legacy::B));
  std::printf("%s\n", format("%d-%s-%.1f-%ws-%I64d", 42, "x", 2.5, L"w", 1LL << 40).c_str());
  CHECK(unused(3, 4) == 3);

  // A file stream opened with a wide name.
  const std::wstring wpath = L"msvc_habits_wide_path.txt";
  { std::ofstream out; out.open(wpath); out << "wide"; }
  auto in = std::make_shared<std::ifstream>(wpath);
  std::string word;
  *in >> word;
  CHECK(word == "wide");
  std::remove("msvc_habits_wide_path.txt");

  // <hash_set> / <hash_map>: std:: names, bidirectional iterators.
  std::hash_set<int> hs;
  for (int v : {5, 3, 5, 9}) hs.insert(v);
  int sum = 0, n = 0;
  for (auto it = hs.rbegin(); it != hs.rend(); ++it) { sum += *it; ++n; }
  CHECK(hs.size() == 3 && n == 3 && sum == 17 && hs.count(3) == 1 && hs.count(4) == 0);
  stdext::hash_map<std::string, int> hm;
  hm["one"] = 1; hm["two"] = 2; hm["one"] += 10;
  CHECK(hm.size() == 2 && hm["one"] == 11 && hm.find("three") == hm.end());
  hm.erase("one");
  CHECK(hm.size() == 1 && hm.begin()->first == "two");

  // Rank 128, the most Microsoft's runtime allows.
  int dims[128];
  for (int& d : dims) d = 1;
  dims[0] = 3;
  concurrency::array<int, 128> a((concurrency::extent<128>(dims)));
  concurrency::parallel_for_each(a.extent, [&a](concurrency::index<128> i) restrict(amp) { a[i] = 10 + i[0]; });
  std::vector<int> got = a;
  std::printf("%d %d %d\n", got[0], got[1], got[2]);
  std::printf("%d failed\n", failed);
  return failed != 0;
}
