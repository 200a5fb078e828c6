// The Windows SDK companions (<d3d11.h>, <dxgi.h>, <d3dcommon.h>,
// <d3dcsx.h>, <wrl/client.h>, <atlbase.h>, <Unknwn.h>), the Direct3D interop
// functions of <amp.h> under --windows-compat, and stdext's array iterators.
// Built twice: with GCC (compat_windows_tests) and with --msvc (Clang's
// Microsoft mode, where __uuidof is the compiler's own), by tests/compat.
#include <amp.h>
#include <atlbase.h>
#include <D3Dcommon.h>
#include <d3d11.h>
#include <d3dcsx.h>
#include <dxgi.h>
#include <wrl/client.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

static_assert(IID_ID3D11Device.Data1 == 0xdb6f6ddbu && IID_ID3D11Device.Data2 == 0xac77 &&
                  IID_ID3D11Device.Data4[7] == 0x40,
              "IIDs are parsed from their Windows spelling");

// The context's methods that interop code calls, with Direct3D's signatures
// (a staging buffer copied into a region of a default buffer, as Microsoft's
// conformance suite's helpers do).
static_assert(std::is_same<decltype(&ID3D11DeviceContext::CopySubresourceRegion),
                           void (STDMETHODCALLTYPE ID3D11DeviceContext::*)(ID3D11Resource*, UINT, UINT, UINT, UINT,
                                                                          ID3D11Resource*, UINT, const D3D11_BOX*)>::value,
              "ID3D11DeviceContext::CopySubresourceRegion as Direct3D declares it");

TEST(Sdk, UuidofGivesTheInterfaceId) {
  EXPECT_TRUE(__uuidof(ID3D11Device) == IID_ID3D11Device);
  EXPECT_TRUE(__uuidof(IUnknown) == IID_IUnknown);
  EXPECT_FALSE(__uuidof(ID3D11Buffer) == IID_ID3D11Device);
  EXPECT_EQ(IID_IUnknown.Data4[0], 0xc0);
  EXPECT_EQ(IID_ID3DX11Scan.Data1, 0x5089b68fu);
}

TEST(Sdk, DeviceCreationFailsWithNullOutputs) {
  ID3D11Device* device = reinterpret_cast<ID3D11Device*>(0x1);
  ID3D11DeviceContext* context = reinterpret_cast<ID3D11DeviceContext*>(0x1);
  D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_0;
  const D3D_FEATURE_LEVEL wanted[] = {D3D_FEATURE_LEVEL_11_0};
  HRESULT hr = D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, D3D11_CREATE_DEVICE_SINGLETHREADED, wanted, 1,
                                 D3D11_SDK_VERSION, &device, &level, &context);
  EXPECT_TRUE(FAILED(hr));
  EXPECT_EQ(hr, DXGI_ERROR_UNSUPPORTED);
  EXPECT_EQ(device, nullptr);
  EXPECT_EQ(context, nullptr);

  Microsoft::WRL::ComPtr<IDXGIFactory> factory;
  EXPECT_EQ(CreateDXGIFactory(__uuidof(IDXGIFactory), reinterpret_cast<void**>(factory.GetAddressOf())), DXGI_ERROR_UNSUPPORTED);
  EXPECT_FALSE(factory);

  ID3DX11Scan* scan = reinterpret_cast<ID3DX11Scan*>(0x1);
  EXPECT_TRUE(FAILED(D3DX11CreateScan(nullptr, 16, 1, &scan)));
  EXPECT_EQ(scan, nullptr);
  ID3DX11SegmentedScan* seg = reinterpret_cast<ID3DX11SegmentedScan*>(0x1);
  EXPECT_TRUE(FAILED(D3DX11CreateSegmentedScan(nullptr, 16, &seg)));
  EXPECT_EQ(seg, nullptr);
}

// An object the program implements itself (the only kind that exists here):
// counts references and answers QueryInterface for the two interfaces it has.
struct FakeBuffer : ID3D11Buffer {
  ULONG refs = 1;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** pp) override {
    if (riid == IID_IUnknown || riid == IID_ID3D11Buffer || riid == IID_ID3D11Resource) {
      AddRef();
      *pp = this;
      return S_OK;
    }
    *pp = nullptr;
    return E_NOINTERFACE;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return ++refs; }
  ULONG STDMETHODCALLTYPE Release() override { return --refs; }
  void STDMETHODCALLTYPE GetDevice(ID3D11Device** pp) override { *pp = nullptr; }
  void STDMETHODCALLTYPE GetDesc(D3D11_BUFFER_DESC* d) override { d->ByteWidth = 64; }
};

TEST(Sdk, ComPtrCountsReferences) {
  FakeBuffer b;
  {
    Microsoft::WRL::ComPtr<ID3D11Buffer> p(&b);
    EXPECT_EQ(b.refs, 2u);
    Microsoft::WRL::ComPtr<ID3D11Buffer> q = p;
    EXPECT_EQ(b.refs, 3u);
    Microsoft::WRL::ComPtr<ID3D11Buffer> r = std::move(q);
    EXPECT_EQ(b.refs, 3u);
    EXPECT_EQ(q.Get(), nullptr);
    EXPECT_TRUE(r == p);
    Microsoft::WRL::ComPtr<ID3D11Resource> res;
    EXPECT_EQ(p.As(&res), S_OK);
    EXPECT_EQ(b.refs, 4u);
    Microsoft::WRL::ComPtr<ID3D11Texture2D> tex;
    EXPECT_EQ(p.As(&tex), E_NOINTERFACE);
    EXPECT_FALSE(tex);
    D3D11_BUFFER_DESC desc{};
    p->GetDesc(&desc);
    EXPECT_EQ(desc.ByteWidth, 64u);
    r.Reset();
    EXPECT_EQ(b.refs, 3u);
  }
  EXPECT_EQ(b.refs, 1u);
}

TEST(Sdk, CComPtrCountsReferences) {
  FakeBuffer b;
  {
    CComPtr<ID3D11Buffer> p(&b);
    EXPECT_EQ(b.refs, 2u);
    CComPtr<ID3D11Buffer> q;
    q = p;
    EXPECT_EQ(b.refs, 3u);
    CComPtr<IUnknown> u;
    EXPECT_EQ(p.QueryInterface(&u), S_OK);
    EXPECT_EQ(b.refs, 4u);
    EXPECT_TRUE(p.IsEqualObject(u));
    q.Release();
    EXPECT_TRUE(!q);
    EXPECT_EQ(b.refs, 3u);
  }
  EXPECT_EQ(b.refs, 1u);
}

// Each interop function compiles and, called, throws runtime_exception with
// E_NOTIMPL and a message naming it.
template <class F> void expect_unavailable(F f, const char* name) {
  try {
    f();
    ADD_FAILURE() << name << " did not throw";
  } catch (const concurrency::runtime_exception& e) {
    EXPECT_EQ(e.get_error_code(), E_NOTIMPL) << name;
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Direct3D interop is not available"), std::string::npos) << e.what();
  }
}

TEST(Sdk, Direct3DInteropThrowsRuntimeException) {
  using namespace concurrency;
  accelerator acc(accelerator::direct3d_ref);
  accelerator_view av = acc.default_view;
  array<int, 1> a(4, av);
  expect_unavailable([&] { direct3d::get_device(av); }, "get_device");
  expect_unavailable([&] { direct3d::get_buffer(a); }, "get_buffer");
  expect_unavailable([&] { direct3d::make_array<int, 1>(extent<1>(4), av, nullptr); }, "make_array");
  expect_unavailable([&] { direct3d::create_accelerator_view(static_cast<IUnknown*>(nullptr)); }, "create_accelerator_view");
  expect_unavailable([&] { direct3d::create_accelerator_view(acc, true); }, "create_accelerator_view");
  expect_unavailable([&] { direct3d::is_timeout_disabled(av); }, "is_timeout_disabled");
  expect_unavailable([&] { direct3d::d3d_access_lock(av); }, "d3d_access_lock");
  expect_unavailable([&] { direct3d::scoped_d3d_access_lock lock(av); }, "scoped_d3d_access_lock");
  // The view still works afterwards.
  parallel_for_each(av, a.extent, [&a](index<1> i) restrict(amp) { a[i] = i[0] * 3; });
  std::vector<int> out = a;
  EXPECT_EQ(out, (std::vector<int>{0, 3, 6, 9}));
}

TEST(Sdk, CheckedArrayIteratorIsAnIteratorAndChecks) {
  int buf[5] = {};
  std::vector<int> src{1, 2, 3, 4, 5};
  auto it = stdext::make_checked_array_iterator(buf, 5);
  auto end = std::copy(src.begin(), src.end(), it);
  EXPECT_EQ(end - it, 5);
  EXPECT_EQ(buf[4], 5);
  EXPECT_EQ(it[2], 3);
  EXPECT_EQ(*stdext::make_unchecked_array_iterator(buf + 1), 2);

  // An overrun reaches the invalid-parameter handler (here: one that throws,
  // so the test goes on; by default the program stops).
  struct overrun {};
  _set_invalid_parameter_handler([](const wchar_t*, const wchar_t*, const wchar_t*, unsigned, std::uintptr_t) { throw overrun{}; });
  EXPECT_THROW(*(it + 5), overrun);
  EXPECT_THROW(it + 6, overrun);
  EXPECT_THROW(std::copy(src.begin(), src.end(), stdext::make_checked_array_iterator(buf, 4)), overrun);
  _set_invalid_parameter_handler(nullptr);
}

// amp_algorithms-style use: concurrency::copy from a view into a checked
// iterator over a single element.
TEST(Sdk, AmpCopyIntoCheckedArrayIterator) {
  std::vector<int> v{7, 8, 9};
  concurrency::array_view<const int, 1> av(3, v);
  int last = 0;
  concurrency::copy(av.section(2, 1), stdext::make_checked_array_iterator(&last, 1));
  EXPECT_EQ(last, 9);
}

#if AMP_MS_EXTENSIONS
// --msvc: what MSVC code reaches through __declspec(property) and MSVC's
// binding of temporaries: array's properties (compared inside a template,
// with a global operator!= in sight: Unknwn.h keeps GUID's operators as
// hidden friends, since Clang 22 rejects the comparison otherwise) and a
// view of a temporary array, which keeps the array's data alive.
template <class T, int N>
bool same_view(const concurrency::array<T, N>& a, const concurrency::array<T, N>& b) {
  return !(a.accelerator_view != b.accelerator_view);
}

TEST(MsvcDialect, ArrayPropertiesAndViewOfTemporary) {
  using namespace concurrency;
  accelerator_view ref = accelerator(accelerator::direct3d_ref).default_view;
  accelerator_view other = accelerator(accelerator::direct3d_ref).create_view();
  array<int, 1> a(4, ref), b(4, ref), c(4, other);
  EXPECT_TRUE(same_view(a, b));
  EXPECT_FALSE(same_view(a, c));
  EXPECT_TRUE(a.accelerator_view == ref);
  EXPECT_EQ(a.cpu_access_type, a.get_cpu_access_type());
  array_view<int, 1> v(array<int, 1>(8, accelerator(accelerator::cpu_accelerator).default_view, ref));
  parallel_for_each(ref, v.extent, [=](index<1> i) restrict(amp) { v[i] = 2 * i[0]; });
  int sum = 0;
  for (int i = 0; i < 8; ++i) sum += v[i];
  EXPECT_EQ(sum, 56);
}
#endif
