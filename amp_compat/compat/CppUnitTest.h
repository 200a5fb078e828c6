// amp_compat/compat/CppUnitTest.h -- Microsoft's native unit-test framework
// (namespace Microsoft::VisualStudio::CppUnitTestFramework) over GoogleTest, so
// that the test projects of AMP code bases become test executables CTest runs.
// Link the amp_compat_cppunittest CMake target (GoogleTest and its main; the
// test project has no main of its own, as in Visual Studio).
//
// Contract:
//   TEST_CLASS(C) { public: TEST_METHOD(M) {...} };  each method is a
//     GoogleTest test C.M; as in Visual Studio, every method runs on a new
//     instance of C (constructor, TEST_METHOD_INITIALIZE, the method,
//     TEST_METHOD_CLEANUP, destructor).
//   TEST_CLASS_INITIALIZE(f) / TEST_CLASS_CLEANUP(f): static, once before the
//     first / after the last method of the class (GoogleTest's suite set-up).
//   TEST_METHOD_INITIALIZE(f) / TEST_METHOD_CLEANUP(f): around each method.
//   TEST_MODULE_INITIALIZE(f) / TEST_MODULE_CLEANUP(f): once per program,
//     before / after all tests (a GoogleTest environment).
//   BEGIN_TEST_METHOD_ATTRIBUTE(M) ... END_TEST_METHOD_ATTRIBUTE(): TEST_OWNER,
//     TEST_PRIORITY, TEST_DESCRIPTION, TEST_WORKITEM, TEST_METHOD_ATTRIBUTE are
//     accepted and ignored; TEST_IGNORE() skips M (reported as skipped). The
//     same for BEGIN_TEST_CLASS_ATTRIBUTE / BEGIN_TEST_MODULE_ATTRIBUTE (all
//     ignored).
//   Assert::AreEqual(expected, actual[, message]) with operator==;
//     (double|float expected, actual, tolerance[, message]): |e - a| <= tol;
//     C strings and std::(w)string compare contents ([, ignoreCase]);
//     AreNotEqual likewise; AreSame/AreNotSame (same object); IsTrue,
//     IsFalse, IsNull, IsNotNull, Fail; ExpectException<E>(functor[, message])
//     fails unless the functor throws an E. Messages are wchar_t strings, as
//     in Visual Studio. A failing Assert stops the method (an exception, as in
//     Visual Studio) and fails the test with the values (ToString) and the
//     message; the program's exit status is then non-zero.
//   Logger::WriteMessage(const char* | const wchar_t*): one line on stdout.
//   ToString(value) -> std::wstring: for arithmetic types, pointers, strings
//     and types with an operator<<; other types need a specialization, as in
//     Visual Studio (the error says so).
// Not provided: the __LineInfo/LINE_INFO() argument is accepted and used for
// the failure's location; test categories and data-driven tests are not.
#ifndef AMP_COMPAT_COMPAT_CPPUNITTEST_H
#define AMP_COMPAT_COMPAT_CPPUNITTEST_H

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cwchar>
#include <cwctype>
#include <exception>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

#include "detail/utf8.h"

namespace Microsoft {
namespace VisualStudio {
namespace CppUnitTestFramework {

struct __LineInfo {
    const wchar_t* pszFileName;
    const char* pszFuncName;
    int lineNumber;
    __LineInfo(const wchar_t* file, const char* func, int line) : pszFileName(file), pszFuncName(func), lineNumber(line) {}
};
#define AMP_CUT_WIDEN2(s) L##s
#define AMP_CUT_WIDEN(s) AMP_CUT_WIDEN2(s)
#define LINE_INFO() (&static_cast<const ::Microsoft::VisualStudio::CppUnitTestFramework::__LineInfo&>( \
    ::Microsoft::VisualStudio::CppUnitTestFramework::__LineInfo(AMP_CUT_WIDEN(__FILE__), __func__, __LINE__)))

namespace detail {
// What a failing Assert throws; the method's runner turns it into a failure.
struct AssertFailed {
    std::string message;
    std::string file;
    int line;
};

template <class T, class = void>
struct streamable : std::false_type {};
template <class T>
struct streamable<T, std::void_t<decltype(std::declval<std::wostream&>() << std::declval<const T&>())>>
    : std::true_type {};
template <class T>
struct always_false : std::false_type {};

inline std::string narrow(const std::wstring& w) { return ::amp_compat_crt::to_utf8(w.c_str()); }
}  // namespace detail

// ---- ToString ------------------------------------------------------------------
template <typename Q>
std::wstring ToString(const Q& q) {
    if constexpr (std::is_same<Q, bool>::value) {
        return q ? L"true" : L"false";
    } else if constexpr (std::is_same<Q, std::string>::value) {
        return std::wstring(q.begin(), q.end());
    } else if constexpr (detail::streamable<Q>::value) {
        std::wostringstream s;
        s << q;
        return s.str();
    } else {
        static_assert(detail::always_false<Q>::value,
                      "Test writer must define specialization of ToString<const Q& q> for your class "
                      "(namespace Microsoft::VisualStudio::CppUnitTestFramework)");
        return L"";
    }
}
template <typename Q>
std::wstring ToString(const Q* q) {
    std::wostringstream s;
    s << static_cast<const void*>(q);
    return s.str();
}
template <typename Q>
std::wstring ToString(Q* q) {
    return ToString(static_cast<const Q*>(q));
}
inline std::wstring ToString(const char* s) { return s ? std::wstring(s, s + std::char_traits<char>::length(s)) : L"(null)"; }
inline std::wstring ToString(char* s) { return ToString(static_cast<const char*>(s)); }
inline std::wstring ToString(const wchar_t* s) { return s ? std::wstring(s) : L"(null)"; }
inline std::wstring ToString(wchar_t* s) { return ToString(static_cast<const wchar_t*>(s)); }

// ---- Logger --------------------------------------------------------------------
class Logger {
public:
    static void WriteMessage(const char* message) {
        std::printf("%s\n", message ? message : "");
        std::fflush(stdout);
    }
    static void WriteMessage(const wchar_t* message) {
        WriteMessage(::amp_compat_crt::to_utf8(message ? message : L"").c_str());
    }
};

// ---- Assert --------------------------------------------------------------------
class Assert {
    [[noreturn]] static void fail(const std::wstring& what, const wchar_t* message, const __LineInfo* where) {
        std::wstring text = what;
        if (message && *message) text += (text.empty() ? L"" : L" ") + std::wstring(message);
        detail::AssertFailed f{detail::narrow(text), "", 0};
        if (where) {
            f.file = ::amp_compat_crt::to_utf8(where->pszFileName);
            f.line = where->lineNumber;
        }
        throw f;
    }
    static bool equal_text(const wchar_t* a, const wchar_t* b, bool ignore_case) {
        if (!a || !b) return a == b;
        if (!ignore_case) return std::wcscmp(a, b) == 0;
        for (; *a && *b; ++a, ++b)
            if (std::towlower(static_cast<std::wint_t>(*a)) != std::towlower(static_cast<std::wint_t>(*b))) return false;
        return *a == *b;
    }
    static std::wstring widen(const char* s) { return ToString(s); }

public:
    template <typename T>
    static void AreEqual(const T& expected, const T& actual, const wchar_t* message = nullptr,
                         const __LineInfo* pLineInfo = nullptr) {
        if (!(expected == actual))
            fail(L"Assert failed. Expected:<" + ToString(expected) + L"> Actual:<" + ToString(actual) + L">", message,
                 pLineInfo);
    }
    static void AreEqual(double expected, double actual, double tolerance, const wchar_t* message = nullptr,
                         const __LineInfo* pLineInfo = nullptr) {
        if (!(std::fabs(expected - actual) <= std::fabs(tolerance)))
            fail(L"Assert failed. Expected:<" + ToString(expected) + L"> Actual:<" + ToString(actual) +
                     L"> Tolerance:<" + ToString(tolerance) + L">",
                 message, pLineInfo);
    }
    static void AreEqual(float expected, float actual, float tolerance, const wchar_t* message = nullptr,
                         const __LineInfo* pLineInfo = nullptr) {
        AreEqual(static_cast<double>(expected), static_cast<double>(actual), static_cast<double>(tolerance), message,
                 pLineInfo);
    }
    static void AreEqual(const wchar_t* expected, const wchar_t* actual, bool ignoreCase = false,
                         const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        if (!equal_text(expected, actual, ignoreCase))
            fail(L"Assert failed. Expected:<" + ToString(expected) + L"> Actual:<" + ToString(actual) + L">", message,
                 pLineInfo);
    }
    static void AreEqual(const wchar_t* expected, const wchar_t* actual, const wchar_t* message,
                         const __LineInfo* pLineInfo = nullptr) {
        AreEqual(expected, actual, false, message, pLineInfo);
    }
    static void AreEqual(const char* expected, const char* actual, bool ignoreCase = false,
                         const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        AreEqual(expected ? widen(expected).c_str() : nullptr, actual ? widen(actual).c_str() : nullptr, ignoreCase,
                 message, pLineInfo);
    }
    static void AreEqual(const char* expected, const char* actual, const wchar_t* message,
                         const __LineInfo* pLineInfo = nullptr) {
        AreEqual(expected, actual, false, message, pLineInfo);
    }
    static void AreEqual(const std::wstring& expected, const std::wstring& actual, bool ignoreCase = false,
                         const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        AreEqual(expected.c_str(), actual.c_str(), ignoreCase, message, pLineInfo);
    }
    static void AreEqual(const std::string& expected, const std::string& actual, bool ignoreCase = false,
                         const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        AreEqual(expected.c_str(), actual.c_str(), ignoreCase, message, pLineInfo);
    }

    template <typename T>
    static void AreNotEqual(const T& notExpected, const T& actual, const wchar_t* message = nullptr,
                            const __LineInfo* pLineInfo = nullptr) {
        if (notExpected == actual)
            fail(L"Assert failed. Expected:<" + ToString(notExpected) + L"> to differ from Actual:<" +
                     ToString(actual) + L">",
                 message, pLineInfo);
    }
    static void AreNotEqual(double notExpected, double actual, double tolerance, const wchar_t* message = nullptr,
                            const __LineInfo* pLineInfo = nullptr) {
        if (std::fabs(notExpected - actual) <= std::fabs(tolerance))
            fail(L"Assert failed. Expected:<" + ToString(notExpected) + L"> to differ from Actual:<" +
                     ToString(actual) + L"> by more than <" + ToString(tolerance) + L">",
                 message, pLineInfo);
    }
    static void AreNotEqual(const wchar_t* notExpected, const wchar_t* actual, bool ignoreCase = false,
                            const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        if (equal_text(notExpected, actual, ignoreCase))
            fail(L"Assert failed. Expected:<" + ToString(notExpected) + L"> to differ from Actual:<" +
                     ToString(actual) + L">",
                 message, pLineInfo);
    }
    static void AreNotEqual(const char* notExpected, const char* actual, bool ignoreCase = false,
                            const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        AreNotEqual(notExpected ? widen(notExpected).c_str() : nullptr, actual ? widen(actual).c_str() : nullptr,
                    ignoreCase, message, pLineInfo);
    }

    template <typename T>
    static void AreSame(const T& expected, const T& actual, const wchar_t* message = nullptr,
                        const __LineInfo* pLineInfo = nullptr) {
        if (&expected != &actual) fail(L"Assert failed. Not the same object.", message, pLineInfo);
    }
    template <typename T>
    static void AreNotSame(const T& notExpected, const T& actual, const wchar_t* message = nullptr,
                           const __LineInfo* pLineInfo = nullptr) {
        if (&notExpected == &actual) fail(L"Assert failed. The same object.", message, pLineInfo);
    }
    static void IsTrue(bool condition, const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        if (!condition) fail(L"Assert failed. Expected:<true> Actual:<false>", message, pLineInfo);
    }
    static void IsFalse(bool condition, const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        if (condition) fail(L"Assert failed. Expected:<false> Actual:<true>", message, pLineInfo);
    }
    template <typename T>
    static void IsNull(const T* ptr, const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        if (ptr != nullptr) fail(L"Assert failed. Expected a null pointer, got <" + ToString(ptr) + L">", message, pLineInfo);
    }
    template <typename T>
    static void IsNotNull(const T* ptr, const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        if (ptr == nullptr) fail(L"Assert failed. Expected a pointer that is not null", message, pLineInfo);
    }
    [[noreturn]] static void Fail(const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        fail(L"Assert failed.", message, pLineInfo);
    }
    template <typename E, typename F>
    static void ExpectException(F functor, const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        try {
            functor();
        } catch (const detail::AssertFailed&) {
            throw;
        } catch (const E&) {
            return;
        } catch (...) {
            fail(L"Assert failed. An exception of another type than expected was thrown.", message, pLineInfo);
        }
        fail(L"Assert failed. No exception was thrown.", message, pLineInfo);
    }
    template <typename E, typename R>
    static void ExpectException(R (*func)(), const wchar_t* message = nullptr, const __LineInfo* pLineInfo = nullptr) {
        ExpectException<E>([func] { func(); }, message, pLineInfo);
    }
};

namespace detail {
// The defaults TEST_CLASS_INITIALIZE & co. replace (a derived class's static
// or member function of the same name hides these).
struct TestClassBase {
    static void amp_cut_class_initialize() {}
    static void amp_cut_class_cleanup() {}
    void amp_cut_method_initialize() {}
    void amp_cut_method_cleanup() {}
};

// One GoogleTest test per TEST_METHOD: a fresh instance of C for each run.
template <class C>
class MethodTest : public ::testing::Test {
public:
    MethodTest(void (*method)(C&), bool ignored, const char* file, int line)
        : method_(method), ignored_(ignored), file_(file), line_(line) {}
    static void SetUpTestSuite() { run_guarded([] { C::amp_cut_class_initialize(); }, __FILE__, __LINE__); }
    static void TearDownTestSuite() { run_guarded([] { C::amp_cut_class_cleanup(); }, __FILE__, __LINE__); }
    void TestBody() override {
        if (ignored_) GTEST_SKIP() << "TEST_IGNORE()";
        run_guarded(
            [this] {
                C instance;
                instance.amp_cut_method_initialize();
                try {
                    method_(instance);
                } catch (...) {
                    try {
                        instance.amp_cut_method_cleanup();
                    } catch (...) {
                    }
                    throw;
                }
                instance.amp_cut_method_cleanup();
            },
            file_, line_);
    }

private:
    template <class F>
    static void run_guarded(F f, const char* file, int line) {
        try {
            f();
        } catch (const AssertFailed& e) {
            ADD_FAILURE_AT(e.file.empty() ? file : e.file.c_str(), e.line ? e.line : line) << e.message;
        } catch (const std::exception& e) {
            ADD_FAILURE_AT(file, line) << "unhandled exception: " << e.what();
        } catch (...) {
            ADD_FAILURE_AT(file, line) << "unhandled exception of an unknown type";
        }
    }
    void (*method_)(C&);
    bool ignored_;
    const char* file_;
    int line_;
};

struct Attributes {
    bool ignore = false;
};

template <class C>
bool register_method(const char* class_name, const char* method, void (*run)(C&), bool (*ignored)(), const char* file,
                     int line) {
    ::testing::RegisterTest(class_name, method, nullptr, nullptr, file, line,
                            [=]() -> MethodTest<C>* { return new MethodTest<C>(run, ignored(), file, line); });
    return true;
}

class ModuleHook : public ::testing::Environment {
public:
    ModuleHook(void (*init)(), void (*cleanup)()) : init_(init), cleanup_(cleanup) {}
    void SetUp() override {
        if (init_) guarded(init_);
    }
    void TearDown() override {
        if (cleanup_) guarded(cleanup_);
    }

private:
    static void guarded(void (*f)()) {
        try {
            f();
        } catch (const AssertFailed& e) {
            ADD_FAILURE() << e.message;
        } catch (const std::exception& e) {
            ADD_FAILURE() << "unhandled exception in TEST_MODULE_INITIALIZE/CLEANUP: " << e.what();
        }
    }
    void (*init_)();
    void (*cleanup_)();
};
inline bool register_module(void (*init)(), void (*cleanup)()) {
    ::testing::AddGlobalTestEnvironment(new ModuleHook(init, cleanup));
    return true;
}
}  // namespace detail

template <class C>
class TestClass : public detail::TestClassBase {
public:
    typedef C ThisClass;
};

}  // namespace CppUnitTestFramework
}  // namespace VisualStudio
}  // namespace Microsoft

#define AMP_CUT_CAT2(a, b) a##b
#define AMP_CUT_CAT(a, b) AMP_CUT_CAT2(a, b)

#define TEST_CLASS(className)                                                                                \
    class className;                                                                                         \
    inline const char* amp_cut_class_name_of(className*) { return #className; }                              \
    class className : public ::Microsoft::VisualStudio::CppUnitTestFramework::TestClass<className>

// A method, a static runner declared before it (so that its address can be
// taken in the registration, which is not a complete-class context), and the
// registration, an inline static member initialised before main. The runner's
// body is a complete-class context: it may call the method and look for the
// method's attributes (BEGIN_TEST_METHOD_ATTRIBUTE), which may come later.
#define TEST_METHOD(methodName)                                                                                 \
    static void AMP_CUT_CAT(amp_cut_run_, methodName)(ThisClass & self) { self.methodName(); }                   \
    template <class U>                                                                                          \
    static auto AMP_CUT_CAT(amp_cut_attrs_of_, methodName)(int)                                                 \
        ->decltype(U::AMP_CUT_CAT(amp_cut_attr_, methodName)(                                                  \
                       std::declval<::Microsoft::VisualStudio::CppUnitTestFramework::detail::Attributes&>()),   \
                   bool()) {                                                                                    \
        ::Microsoft::VisualStudio::CppUnitTestFramework::detail::Attributes a;                                  \
        U::AMP_CUT_CAT(amp_cut_attr_, methodName)(a);                                                           \
        return a.ignore;                                                                                        \
    }                                                                                                           \
    template <class U>                                                                                          \
    static bool AMP_CUT_CAT(amp_cut_attrs_of_, methodName)(...) {                                               \
        return false;                                                                                           \
    }                                                                                                           \
    static bool AMP_CUT_CAT(amp_cut_ignored_, methodName)() {                                                   \
        return AMP_CUT_CAT(amp_cut_attrs_of_, methodName)<ThisClass>(0);                                        \
    }                                                                                                           \
    static inline const bool AMP_CUT_CAT(amp_cut_registered_, methodName) =                                     \
        ::Microsoft::VisualStudio::CppUnitTestFramework::detail::register_method<ThisClass>(                    \
            amp_cut_class_name_of(static_cast<ThisClass*>(nullptr)), #methodName,                               \
            &AMP_CUT_CAT(amp_cut_run_, methodName), &AMP_CUT_CAT(amp_cut_ignored_, methodName), __FILE__,         \
            __LINE__);                                                                                          \
                                                                                                                \
public:                                                                                                         \
    void methodName()

#define TEST_CLASS_INITIALIZE(methodName)                       \
    static void amp_cut_class_initialize() { methodName(); }    \
    static void methodName()
#define TEST_CLASS_CLEANUP(methodName)                          \
    static void amp_cut_class_cleanup() { methodName(); }       \
    static void methodName()
#define TEST_METHOD_INITIALIZE(methodName)                      \
    void amp_cut_method_initialize() { methodName(); }          \
    void methodName()
#define TEST_METHOD_CLEANUP(methodName)                         \
    void amp_cut_method_cleanup() { methodName(); }             \
    void methodName()

#define TEST_MODULE_INITIALIZE(methodName)                                                                    \
    static void methodName();                                                                                 \
    static const bool AMP_CUT_CAT(amp_cut_module_init_, methodName) =                                         \
        ::Microsoft::VisualStudio::CppUnitTestFramework::detail::register_module(&methodName, nullptr);       \
    static void methodName()
#define TEST_MODULE_CLEANUP(methodName)                                                                       \
    static void methodName();                                                                                 \
    static const bool AMP_CUT_CAT(amp_cut_module_cleanup_, methodName) =                                      \
        ::Microsoft::VisualStudio::CppUnitTestFramework::detail::register_module(nullptr, &methodName);       \
    static void methodName()

#define BEGIN_TEST_METHOD_ATTRIBUTE(methodName) \
    static void AMP_CUT_CAT(amp_cut_attr_, methodName)(                                                        \
        ::Microsoft::VisualStudio::CppUnitTestFramework::detail::Attributes & amp_cut_attributes) {           \
        (void)amp_cut_attributes;
#define END_TEST_METHOD_ATTRIBUTE() }
#define TEST_METHOD_ATTRIBUTE(name, value) (void)(name), (void)(value);
#define TEST_OWNER(value) (void)(value);
#define TEST_PRIORITY(value) (void)(value);
#define TEST_DESCRIPTION(value) (void)(value);
#define TEST_WORKITEM(value) (void)(value);
#define TEST_IGNORE() amp_cut_attributes.ignore = true;
#define BEGIN_TEST_CLASS_ATTRIBUTE()                                                                           \
    static void amp_cut_class_attributes(                                                                      \
        ::Microsoft::VisualStudio::CppUnitTestFramework::detail::Attributes & amp_cut_attributes) {           \
        (void)amp_cut_attributes;
#define END_TEST_CLASS_ATTRIBUTE() }
#define BEGIN_TEST_MODULE_ATTRIBUTE()                                                                          \
    static void amp_cut_module_attributes(                                                                     \
        ::Microsoft::VisualStudio::CppUnitTestFramework::detail::Attributes & amp_cut_attributes) {           \
        (void)amp_cut_attributes;
#define END_TEST_MODULE_ATTRIBUTE() }

#endif  // AMP_COMPAT_COMPAT_CPPUNITTEST_H
