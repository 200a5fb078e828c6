// MSVC's std::exception(const char*) in a Visual Studio AMP program
// (--windows-compat: scripts/amp_driver/passes/windows.py exception_edits, then
// compat/detail/msvc_exception.h). Each check prints what it saw; the last
// line counts the failed checks.
#include <amp.h>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>
#include "exc/AmpErrors.h"

using namespace concurrency;
using namespace std;

static int failed = 0;
static void check(bool ok, const string& what) {
    cout << (ok ? "ok   " : "FAIL ") << what << endl;
    if (!ok) ++failed;
}

// with `using namespace std;` the unqualified spelling is MSVC's too
struct Unqualified : exception {
    Unqualified() : exception("unqualified base") {}
};

static void Transpose(int n)
{
    if (n % 4 != 0) throw std::exception("matrix is not a multiple of tile size.");
    vector<int> v(n * n, 1);
    array_view<int, 2> av(n, n, v);
    parallel_for_each(av.extent, [=](index<2> i) restrict(amp) { av[i] += i[0]; });
    av.synchronize();
}

int main()
{
    try { Transpose(8); Transpose(6); check(false, "no exception for 6"); }
    catch (std::exception& e) { check(string(e.what()) == "matrix is not a multiple of tile size.", string("throw std::exception(\"...\"): ") + e.what()); }

    try { throw SizeError("size 0"); }
    catch (const std::exception& e) { check(string(e.what()) == "size 0", string("derived class, mem-initializer: ") + e.what()); }

    try { throw PlainError(); }
    catch (std::exception& e) { check(string(e.what()) == "Unknown exception", string("derived, no message: ") + e.what()); }

    try { Require(false, "from a header"); }
    catch (std::exception& e) { check(string(e.what()) == "from a header", string("header function: ") + e.what()); }

    try { throw Unqualified(); }
    catch (exception& e) { check(string(e.what()) == "unqualified base", string("using namespace std: ") + e.what()); }

    std::exception local("a local");
    check(string(local.what()) == "a local", string("variable: ") + local.what());
    // caught by value: the handler's copy keeps the message, as MSVC's does
    try { throw std::exception("by value"); }
    catch (std::exception e) { check(string(e.what()) == "by value", string("catch by value: ") + e.what()); }
    try { throw std::logic_error("logic"); }
    catch (exception e) { check(string(e.what()) == "logic", string("catch by value, another class: ") + e.what()); }

    try { throw exception(std::string("built ").append("message").c_str()); }
    catch (exception& e) { check(string(e.what()) == "built message", string("c_str() argument: ") + e.what()); }

    // runtime_error and the others are libstdc++'s own and untouched
    try { throw std::runtime_error("rt"); }
    catch (std::exception& e) { check(string(e.what()) == "rt", string("runtime_error: ") + e.what()); }

    cout << failed << " failed checks" << endl;
    return failed;
}
