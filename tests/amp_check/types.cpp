// amp_check: reject C3581
// Types restrict(amp) code cannot use (AMP spec 2.4.1): char, short, long long,
// long double, pointers to pointers, bit-fields, virtual functions, enums on a
// char, arrays of bool, a class with a reference to an array_view or a pointer
// to an array or array_view as a member (a reference to an array is allowed).
#include <amp.h>
struct Bits { int a : 3; };
struct Virt { virtual int f() const restrict(amp) { return 1; } };  // error: C3581
enum class Small : char { a };
int chars() restrict(amp) { char c = 1; return c; }  // error: C3581
int shorts() restrict(amp) { short s = 1; return s; }  // error: C3581
int longlongs() restrict(amp) { long long l = 1; return int(l); }  // error: C3581
int longdoubles() restrict(amp) { long double d = 1; return int(d); }  // error: C3581
int pointer_to_pointer(int* p) restrict(amp) { int** pp = &p; return **pp; }  // error: C3581
int bitfield() restrict(amp) { Bits b{1}; return b.a; }  // error: C3581
int enum_on_char() restrict(amp) { Small s = Small::a; return int(s); }  // error: C3581
int bool_array() restrict(amp) { bool b[2] = {true, false}; return b[0]; }  // error: C3581
int volatile_local() restrict(amp) { volatile int v = 1; return v; }  // error: C3581
struct ViewRef { ViewRef(concurrency::array_view<int> a) restrict(amp, cpu) : m(a) {} concurrency::array_view<int>& m; };  // error: C3581
struct ViewPtr { ViewPtr(concurrency::array_view<int> a) restrict(amp, cpu) : m(&a) {} concurrency::array_view<int>* m; };  // error: C3581
struct ArrayPtr { ArrayPtr(concurrency::array<int>& a) restrict(amp, cpu) : m(&a) {} concurrency::array<int>* m; };  // error: C3581
struct ArrayRef { ArrayRef(concurrency::array<int>& a) restrict(amp, cpu) : m(a) {} concurrency::array<int>& m; };
int main() { return 0; }
