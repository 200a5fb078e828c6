// amp_compat/compat/wrl/client.h -- Microsoft::WRL::ComPtr<T>, the COM smart
// pointer that Direct3D interop code holds its interfaces in
// (--windows-compat; `<wrl\client.h>` as Windows code spells it resolves here
// under --msvc, whose Microsoft mode reads `\` in an #include as `/`).
//
// Contract (WRL's, for any T with AddRef()/Release()/QueryInterface):
//   ComPtr(), ComPtr(nullptr), ComPtr(T*) (AddRef), copy (AddRef), move,
//   converting from ComPtr<U> / U* where U* converts to T*; destruction and
//   every replacement Release() the old pointer. operator=, Get(),
//   operator->, explicit bool, GetAddressOf(), ReleaseAndGetAddressOf(),
//   operator& (releases, then gives the address: T**, or void** / IUnknown**
//   through the returned helper), Attach, Detach, Reset, Swap, CopyTo(T**),
//   CopyTo(REFIID, void**), As(ComPtr<U>*) and AsIID(REFIID, ComPtr<IUnknown>*)
//   through QueryInterface with the interface's IID (amp_compat_com::iid_of,
//   no __uuidof needed), ==/!= with ComPtr and nullptr.
// No COM object exists here (Unknwn.h): in practice these pointers stay null.
#ifndef AMP_COMPAT_COMPAT_WRL_CLIENT_H
#define AMP_COMPAT_COMPAT_WRL_CLIENT_H

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../Unknwn.h"

namespace Microsoft {
namespace WRL {

template <class T> class ComPtr;

namespace Details {
// What &ptr returns: converts to the address forms COM functions take.
template <class P> class ComPtrRef {
public:
  explicit ComPtrRef(P* p) : p_(p) {}
  operator typename P::InterfaceType**() { return p_->ReleaseAndGetAddressOf(); }
  operator void**() { return reinterpret_cast<void**>(p_->ReleaseAndGetAddressOf()); }
  operator IUnknown**() {
    static_assert(std::is_base_of<IUnknown, typename P::InterfaceType>::value, "ComPtr<T>: &p as IUnknown** needs T derived from IUnknown");
    return reinterpret_cast<IUnknown**>(p_->ReleaseAndGetAddressOf());
  }
  typename P::InterfaceType* operator*() { return p_->Get(); }
  typename P::InterfaceType** GetAddressOf() { return p_->GetAddressOf(); }
  typename P::InterfaceType** ReleaseAndGetAddressOf() { return p_->ReleaseAndGetAddressOf(); }

private:
  P* p_;
};
} // namespace Details

template <class T> class ComPtr {
public:
  typedef T InterfaceType;

  ComPtr() noexcept = default;
  ComPtr(std::nullptr_t) noexcept {}
  template <class U, class = typename std::enable_if<std::is_convertible<U*, T*>::value>::type>
  ComPtr(U* p) noexcept : p_(p) { add_ref(); }
  ComPtr(const ComPtr& o) noexcept : p_(o.p_) { add_ref(); }
  template <class U, class = typename std::enable_if<std::is_convertible<U*, T*>::value>::type>
  ComPtr(const ComPtr<U>& o) noexcept : p_(o.Get()) { add_ref(); }
  ComPtr(ComPtr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  template <class U, class = typename std::enable_if<std::is_convertible<U*, T*>::value>::type>
  ComPtr(ComPtr<U>&& o) noexcept : p_(o.Detach()) {}
  ~ComPtr() { release(); }

  ComPtr& operator=(std::nullptr_t) noexcept { release(); return *this; }
  ComPtr& operator=(T* p) noexcept { ComPtr(p).Swap(*this); return *this; }
  template <class U> ComPtr& operator=(U* p) noexcept { ComPtr(p).Swap(*this); return *this; }
  ComPtr& operator=(const ComPtr& o) noexcept { ComPtr(o).Swap(*this); return *this; }
  template <class U> ComPtr& operator=(const ComPtr<U>& o) noexcept { ComPtr(o).Swap(*this); return *this; }
  ComPtr& operator=(ComPtr&& o) noexcept { ComPtr(std::move(o)).Swap(*this); return *this; }
  template <class U> ComPtr& operator=(ComPtr<U>&& o) noexcept { ComPtr(std::move(o)).Swap(*this); return *this; }

  T* Get() const noexcept { return p_; }
  T* operator->() const noexcept { return p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  Details::ComPtrRef<ComPtr> operator&() noexcept { return Details::ComPtrRef<ComPtr>(this); }
  T* const* GetAddressOf() const noexcept { return &p_; }
  T** GetAddressOf() noexcept { return &p_; }
  T** ReleaseAndGetAddressOf() noexcept { release(); return &p_; }

  void Attach(T* p) noexcept { release(); p_ = p; }
  T* Detach() noexcept { T* p = p_; p_ = nullptr; return p; }
  unsigned long Reset() noexcept { return release(); }
  void Swap(ComPtr& o) noexcept { std::swap(p_, o.p_); }
  void Swap(ComPtr&& o) noexcept { std::swap(p_, o.p_); }

  HRESULT CopyTo(T** pp) const noexcept {
    if (pp == nullptr) return E_POINTER;
    add_ref();
    *pp = p_;
    return S_OK;
  }
  HRESULT CopyTo(REFIID riid, void** pp) const noexcept {
    if (pp == nullptr) return E_POINTER;
    *pp = nullptr;
    return p_ ? p_->QueryInterface(riid, pp) : E_POINTER;
  }
  template <class U> HRESULT CopyTo(U** pp) const noexcept {
    return CopyTo(::amp_compat_com::iid_of<U>(), reinterpret_cast<void**>(pp));
  }
  template <class U> HRESULT As(ComPtr<U>* out) const noexcept {
    if (out == nullptr) return E_POINTER;
    return CopyTo(::amp_compat_com::iid_of<U>(), reinterpret_cast<void**>(out->ReleaseAndGetAddressOf()));
  }
  template <class U> HRESULT As(Details::ComPtrRef<ComPtr<U>> out) const noexcept {
    return CopyTo(::amp_compat_com::iid_of<U>(), reinterpret_cast<void**>(out.ReleaseAndGetAddressOf()));
  }
  HRESULT AsIID(REFIID riid, ComPtr<IUnknown>* out) const noexcept {
    if (out == nullptr) return E_POINTER;
    return CopyTo(riid, reinterpret_cast<void**>(out->ReleaseAndGetAddressOf()));
  }

private:
  void add_ref() const noexcept {
    if (p_) p_->AddRef();
  }
  unsigned long release() noexcept {
    unsigned long n = 0;
    if (T* p = p_) {
      p_ = nullptr;
      n = p->Release();
    }
    return n;
  }
  T* p_ = nullptr;
};

template <class T, class U> bool operator==(const ComPtr<T>& a, const ComPtr<U>& b) noexcept { return a.Get() == b.Get(); }
template <class T, class U> bool operator!=(const ComPtr<T>& a, const ComPtr<U>& b) noexcept { return a.Get() != b.Get(); }
template <class T> bool operator==(const ComPtr<T>& a, std::nullptr_t) noexcept { return a.Get() == nullptr; }
template <class T> bool operator==(std::nullptr_t, const ComPtr<T>& a) noexcept { return a.Get() == nullptr; }
template <class T> bool operator!=(const ComPtr<T>& a, std::nullptr_t) noexcept { return a.Get() != nullptr; }
template <class T> bool operator!=(std::nullptr_t, const ComPtr<T>& a) noexcept { return a.Get() != nullptr; }

} // namespace WRL
} // namespace Microsoft

#endif
