// amp_compat/compat/atlbase.h -- ATL's COM smart pointer, CComPtr<T>, as
// Direct3D interop code holds its interfaces in (--windows-compat). As in
// ATL, `using namespace ATL;` follows unless _ATL_NO_AUTOMATIC_NAMESPACE is
// defined. No COM object exists here (Unknwn.h): in practice these pointers
// stay null.
//
// Contract (ATL's): public member p; CComPtr(), CComPtr(T*) (AddRef), copy
// (AddRef), move; destruction, Release() and assignment Release() the old
// pointer; operator T*, operator->, operator! , operator& (the address of p,
// which must be null, as ATL asserts), Attach, Detach, CopyTo(T**),
// QueryInterface(Q**) through the interface's IID (amp_compat_com::iid_of),
// IsEqualObject, ==/!= with T* and nullptr through operator T*.
#ifndef AMP_COMPAT_COMPAT_ATLBASE_H
#define AMP_COMPAT_COMPAT_ATLBASE_H

#include <cassert>
#include <cstddef>
#include <utility>

#include "Unknwn.h"

namespace ATL {

template <class T> class CComPtr {
public:
  CComPtr() noexcept : p(nullptr) {}
  CComPtr(std::nullptr_t) noexcept : p(nullptr) {}
  CComPtr(T* lp) noexcept : p(lp) { if (p) p->AddRef(); }
  CComPtr(const CComPtr& o) noexcept : CComPtr(o.p) {}
  CComPtr(CComPtr&& o) noexcept : p(o.p) { o.p = nullptr; }
  ~CComPtr() { Release(); }

  CComPtr& operator=(T* lp) noexcept {
    if (lp) lp->AddRef();
    Release();
    p = lp;
    return *this;
  }
  CComPtr& operator=(const CComPtr& o) noexcept { return *this = o.p; }
  CComPtr& operator=(CComPtr&& o) noexcept {
    if (this != &o) {
      Release();
      p = o.p;
      o.p = nullptr;
    }
    return *this;
  }

  operator T*() const noexcept { return p; }
  T* operator->() const noexcept {
    assert(p != nullptr && "CComPtr: -> on a null pointer");
    return p;
  }
  bool operator!() const noexcept { return p == nullptr; }
  T** operator&() noexcept {
    assert(p == nullptr && "CComPtr: & of a pointer that holds an interface (it would leak)");
    return &p;
  }

  void Release() noexcept {
    if (T* q = p) {
      p = nullptr;
      q->Release();
    }
  }
  void Attach(T* lp) noexcept {
    Release();
    p = lp;
  }
  T* Detach() noexcept {
    T* q = p;
    p = nullptr;
    return q;
  }
  HRESULT CopyTo(T** pp) noexcept {
    if (pp == nullptr) return E_POINTER;
    *pp = p;
    if (p) p->AddRef();
    return S_OK;
  }
  template <class Q> HRESULT QueryInterface(Q** pp) const noexcept {
    if (pp == nullptr) return E_POINTER;
    *pp = nullptr;
    return p ? p->QueryInterface(::amp_compat_com::iid_of<Q>(), reinterpret_cast<void**>(pp)) : E_POINTER;
  }
  bool IsEqualObject(IUnknown* other) noexcept {
    if (p == nullptr || other == nullptr) return p == nullptr && other == nullptr;
    CComPtr<IUnknown> a, b;
    p->QueryInterface(::amp_compat_com::iid_of<IUnknown>(), reinterpret_cast<void**>(&a));
    other->QueryInterface(::amp_compat_com::iid_of<IUnknown>(), reinterpret_cast<void**>(&b));
    return a.p == b.p;
  }

  T* p;
};

} // namespace ATL

#ifndef _ATL_NO_AUTOMATIC_NAMESPACE
using namespace ATL;
#endif

#endif
