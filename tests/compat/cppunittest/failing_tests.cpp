// Asserts that must fail: compat.cppunittest_failing runs only these and
// demands a failed run with each message, and that a failed Assert stops its
// method (nothing after it runs).
#include "CppUnitTest.h"

#include <string>

using namespace Microsoft::VisualStudio::CppUnitTestFramework;

TEST_CLASS(MustFail) {
public:
    TEST_METHOD(AreEqualInts) {
        Assert::AreEqual(1, 2, L"one is not two");
        Logger::WriteMessage("reached after a failed Assert");
    }
    TEST_METHOD(AreEqualTolerance) { Assert::AreEqual(1.0, 1.5, 0.1); }
    TEST_METHOD(AreEqualStrings) { Assert::AreEqual(std::wstring(L"left"), std::wstring(L"right")); }
    TEST_METHOD(IsTrueWithLineInfo) { Assert::IsTrue(false, L"with line info", LINE_INFO()); }
    TEST_METHOD(NoException) { Assert::ExpectException<int>([] {}); }
    TEST_METHOD(UnhandledException) { throw std::runtime_error("escaped"); }
};
