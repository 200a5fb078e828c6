// A Visual Studio native test project's file, unchanged in style: no main,
// TEST_CLASS/TEST_METHOD, Assert::..., Logger. Built against
// compat/CppUnitTest.h (amp_compat_cppunittest) and run by CTest.
#include "CppUnitTest.h"

#include <amp.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace Microsoft::VisualStudio::CppUnitTestFramework;
using namespace concurrency;

namespace AmpUnitTests {

static int module_inits = 0;
static int class_inits = 0;
static int method_inits = 0;
static int instances = 0;

TEST_MODULE_INITIALIZE(ModuleInit) {
    ++module_inits;
    Logger::WriteMessage("module initialize");
}

struct Point {
    int x, y;
    bool operator==(const Point& o) const { return x == o.x && y == o.y; }
};

TEST_CLASS(VectorTests) {
    int member_ = 0;

public:
    VectorTests() { ++instances; }

    TEST_CLASS_INITIALIZE(ClassInit) { ++class_inits; }
    TEST_METHOD_INITIALIZE(MethodInit) {
        ++method_inits;
        member_ = 5;
    }

    TEST_METHOD(AddsOnTheAccelerator) {
        std::vector<int> a(64), b(64), c(64);
        for (int i = 0; i < 64; ++i) a[i] = i, b[i] = 2 * i;
        array_view<const int, 1> av(64, a), bv(64, b);
        array_view<int, 1> cv(64, c);
        parallel_for_each(cv.extent, [=](index<1> i) restrict(amp) { cv[i] = av[i] + bv[i]; });
        cv.synchronize();
        for (int i = 0; i < 64; ++i) Assert::AreEqual(3 * i, c[i], L"c = a + b");
        Logger::WriteMessage(L"AddsOnTheAccelerator: 64 elements checked");
    }

    TEST_METHOD(EveryMethodGetsAFreshInstance) {
        Assert::AreEqual(5, member_);  // set by MethodInit on this instance
        member_ = 99;
        Assert::AreEqual(1, module_inits);
        Assert::AreEqual(1, class_inits);
        Assert::IsTrue(instances >= 1 && method_inits == instances);
    }

    TEST_METHOD(AssertForms) {
        Assert::AreEqual(1.0, 1.0 + 1e-9, 1e-6, L"tolerance");
        Assert::AreEqual(2.0f, 2.05f, 0.1f);
        Assert::AreEqual("abc", "ABC", true);
        Assert::AreEqual(L"wide", L"wide");
        Assert::AreEqual(std::string("s"), std::string("s"));
        Assert::AreNotEqual(1, 2);
        Assert::AreNotEqual("a", "b");
        Point p{1, 2};
        Point& same = p;
        Assert::AreSame(p, same);
        Point q{1, 2};
        Assert::AreNotSame(p, q);
        Assert::AreEqual(p, q);  // a user type with == (ToString specialisation below)
        int v = 0;
        Assert::IsNull(static_cast<int*>(nullptr));
        Assert::IsNotNull(&v);
        Assert::IsFalse(v != 0);
        Assert::ExpectException<std::out_of_range>([] { std::vector<int>(1).at(5); });
        Assert::ExpectException<runtime_exception>([] { throw runtime_exception("x", E_FAIL); });
    }

    BEGIN_TEST_METHOD_ATTRIBUTE(Ignored)
        TEST_OWNER(L"someone")
        TEST_PRIORITY(2)
        TEST_IGNORE()
    END_TEST_METHOD_ATTRIBUTE()
    TEST_METHOD(Ignored) { Assert::Fail(L"an ignored method ran"); }
};

}  // namespace AmpUnitTests

namespace Microsoft {
namespace VisualStudio {
namespace CppUnitTestFramework {
template <>
inline std::wstring ToString<AmpUnitTests::Point>(const AmpUnitTests::Point& p) {
    return L"(" + std::to_wstring(p.x) + L"," + std::to_wstring(p.y) + L")";
}
}  // namespace CppUnitTestFramework
}  // namespace VisualStudio
}  // namespace Microsoft
