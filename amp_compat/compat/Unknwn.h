// amp_compat/compat/Unknwn.h -- the COM basics that Direct3D interop code
// declares its variables with: GUID/IID, IUnknown, HRESULT codes.
// Declarations only (--windows-compat): there is no COM runtime and no
// Direct3D here, so no object implementing these interfaces ever exists;
// code that only names them compiles, and every function that would create
// one reports a failing HRESULT (d3d11.h, dxgi.h, d3dcsx.h) or throws
// concurrency::runtime_exception (amp.h's concurrency::direct3d interop).
//
// Contract:
//   GUID (struct _GUID: Data1 32 bits, as on Windows), IID, CLSID, REFGUID,
//     REFIID, REFCLSID, IsEqualGUID/IsEqualIID, operator== and !=.
//   IUnknown with QueryInterface(REFIID, void**), AddRef(), Release(), and
//     the template QueryInterface(Q**).
//   Interface identifiers without __uuidof: AMP_COMPAT_COM_INTERFACE(Name,
//     "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx") begins an interface's
//     definition and records its IID in amp_compat_com::iid_of<Name>() and
//     IID_Name. With Microsoft extensions (--msvc: Clang's -fms-extensions,
//     where __has_declspec_attribute(uuid))
//     the interface also carries __declspec(uuid(...)), so the compiler's own
//     __uuidof(Name) gives the same GUID; without them __uuidof(Type) is a
//     macro over iid_of (types only, not expressions).
//   HRESULT codes: S_OK, S_FALSE, E_FAIL (Windows.h), E_NOTIMPL,
//     E_NOINTERFACE, E_POINTER, E_ABORT, E_INVALIDARG, E_OUTOFMEMORY,
//     E_UNEXPECTED, E_ACCESSDENIED, E_HANDLE; STDMETHODCALLTYPE, STDMETHOD,
//     STDMETHOD_, STDMETHODIMP, PURE, THIS_, THIS (empty or as the SDK).
// The interfaces here and in the Direct3D headers are not ABI-compatible with
// Windows' (only the methods programs call are declared, in no fixed vtable
// order): nothing can implement them but the program itself.
#ifndef AMP_COMPAT_COMPAT_UNKNWN_H
#define AMP_COMPAT_COMPAT_UNKNWN_H

#include <cstdint>
#include <cstring>

#include "Windows.h"

// Module handles (D3D11CreateDevice's software rasteriser): never valid here.
typedef void* HMODULE;
typedef void* HINSTANCE;

// == and != are hidden friends, not global operators: a global operator!=
// in sight makes Clang 22 reject `a.prop != b.prop` on __declspec(property)
// members in templates (amp.h's array.accelerator_view under --msvc).
typedef struct _GUID {
  std::uint32_t Data1;
  std::uint16_t Data2;
  std::uint16_t Data3;
  std::uint8_t Data4[8];
  friend bool operator==(const _GUID& a, const _GUID& b) { return std::memcmp(&a, &b, sizeof(_GUID)) == 0; }
  friend bool operator!=(const _GUID& a, const _GUID& b) { return !(a == b); }
} GUID;
typedef GUID IID;
typedef GUID CLSID;
typedef const GUID& REFGUID;
typedef const IID& REFIID;
typedef const CLSID& REFCLSID;

inline BOOL IsEqualGUID(REFGUID a, REFGUID b) { return a == b ? TRUE : FALSE; }
#define IsEqualIID(a, b) IsEqualGUID(a, b)
#define IsEqualCLSID(a, b) IsEqualGUID(a, b)

// HRESULT codes: their 32-bit Windows values (FAILED() tests bit 31).
#ifndef E_NOTIMPL
#define E_NOTIMPL ((HRESULT)0x80004001L)
#define E_NOINTERFACE ((HRESULT)0x80004002L)
#define E_POINTER ((HRESULT)0x80004003L)
#define E_ABORT ((HRESULT)0x80004004L)
#define E_UNEXPECTED ((HRESULT)0x8000FFFFL)
#define E_ACCESSDENIED ((HRESULT)0x80070005L)
#define E_HANDLE ((HRESULT)0x80070006L)
#define E_OUTOFMEMORY ((HRESULT)0x8007000EL)
#define E_INVALIDARG ((HRESULT)0x80070057L)
#endif

#define STDMETHODCALLTYPE
#define STDMETHOD(method) virtual HRESULT STDMETHODCALLTYPE method
#define STDMETHOD_(type, method) virtual type STDMETHODCALLTYPE method
#define STDMETHODIMP HRESULT STDMETHODCALLTYPE
#define STDMETHODIMP_(type) type STDMETHODCALLTYPE
#define PURE = 0
#define THIS_
#define THIS void

namespace amp_compat_com {
// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" -> GUID, at compile time. A string
// of another shape does not compile (a constant expression cannot throw).
constexpr std::uint32_t hex_digit(char c) {
  return c >= '0' && c <= '9'   ? static_cast<std::uint32_t>(c - '0')
         : c >= 'a' && c <= 'f' ? static_cast<std::uint32_t>(c - 'a' + 10)
         : c >= 'A' && c <= 'F' ? static_cast<std::uint32_t>(c - 'A' + 10)
                                : throw "AMP_COMPAT_COM_INTERFACE: not a hexadecimal digit in the GUID";
}
constexpr std::uint32_t hex_field(const char* s, int from, int digits) {
  return digits == 0 ? 0u : (hex_digit(s[from]) << (4 * (digits - 1))) | hex_field(s, from + 1, digits - 1);
}
template <std::size_t N> constexpr GUID parse_guid(const char (&s)[N]) {
  static_assert(N == 37, "AMP_COMPAT_COM_INTERFACE: a GUID is written xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx");
  return GUID{hex_field(s, 0, 8),
              static_cast<std::uint16_t>(hex_field(s, 9, 4)),
              static_cast<std::uint16_t>(hex_field(s, 14, 4)),
              {static_cast<std::uint8_t>(hex_field(s, 19, 2)), static_cast<std::uint8_t>(hex_field(s, 21, 2)),
               static_cast<std::uint8_t>(hex_field(s, 24, 2)), static_cast<std::uint8_t>(hex_field(s, 26, 2)),
               static_cast<std::uint8_t>(hex_field(s, 28, 2)), static_cast<std::uint8_t>(hex_field(s, 30, 2)),
               static_cast<std::uint8_t>(hex_field(s, 32, 2)), static_cast<std::uint8_t>(hex_field(s, 34, 2))}};
}
// The IID of interface I: specialised by AMP_COMPAT_COM_INTERFACE.
template <class I> struct iid_traits;
template <class I> constexpr const GUID& iid_of() { return iid_traits<I>::value; }
} // namespace amp_compat_com

// __declspec(uuid) only in the MSVC dialect (--msvc, whose flags define
// AMP_MSVC_VER): elsewhere Clang parses it (CUDA builds enable __declspec)
// but ignores it with a warning.
#if defined(__has_declspec_attribute) && defined(AMP_MSVC_VER)
#if __has_declspec_attribute(uuid)
#define AMP_COMPAT_DECLSPEC_UUID(s) __declspec(uuid(s))
#endif
#endif
#ifndef AMP_COMPAT_DECLSPEC_UUID
#define AMP_COMPAT_DECLSPEC_UUID(s)
// __uuidof(Type) of the interfaces declared here (Clang and MSVC have it as a
// keyword with Microsoft extensions; GCC has none).
#define __uuidof(Type) (::amp_compat_com::iid_of<Type>())
#endif

// AMP_COMPAT_COM_INTERFACE(Name, "guid") : public Base { ... };
#define AMP_COMPAT_COM_INTERFACE(Name, guid)                                   \
  struct AMP_COMPAT_DECLSPEC_UUID(guid) Name;                                  \
  template <> struct amp_compat_com::iid_traits<Name> {                        \
    static constexpr GUID value = ::amp_compat_com::parse_guid(guid);          \
  };                                                                           \
  inline constexpr const GUID& IID_##Name = ::amp_compat_com::iid_of<Name>(); \
  struct Name

AMP_COMPAT_COM_INTERFACE(IUnknown, "00000000-0000-0000-c000-000000000046") {
  virtual HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** ppvObject) = 0;
  virtual ULONG STDMETHODCALLTYPE AddRef() = 0;
  virtual ULONG STDMETHODCALLTYPE Release() = 0;
  template <class Q> HRESULT STDMETHODCALLTYPE QueryInterface(Q** pp) {
    return QueryInterface(::amp_compat_com::iid_of<Q>(), reinterpret_cast<void**>(pp));
  }
protected:
  ~IUnknown() = default; // released through Release(), never deleted
};
typedef IUnknown* LPUNKNOWN;

#endif
