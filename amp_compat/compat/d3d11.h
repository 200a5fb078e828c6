// amp_compat/compat/d3d11.h -- the Direct3D 11 declarations C++ AMP interop
// code uses (--windows-compat): resource descriptions, buffers, textures,
// views, the device and its context, D3D11CreateDevice.
// There is no Direct3D here (Unknwn.h): code that only names these compiles;
// D3D11CreateDevice returns DXGI_ERROR_UNSUPPORTED with null outputs, and
// concurrency::direct3d::get_device & co. throw runtime_exception, so no
// method of these interfaces is ever reached.
#ifndef AMP_COMPAT_COMPAT_D3D11_H
#define AMP_COMPAT_COMPAT_D3D11_H

#include "Unknwn.h"
#include "d3dcommon.h"
#include "dxgi.h"

#define D3D11_SDK_VERSION 7
#define D3D11_PS_CS_UAV_REGISTER_COUNT 8
#define D3D11_1_UAV_SLOT_COUNT 64
#define D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT 128
#define D3D11_CS_THREAD_GROUP_MAX_THREADS_PER_GROUP 1024
#define D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION 65535

typedef enum D3D11_USAGE {
  D3D11_USAGE_DEFAULT = 0,
  D3D11_USAGE_IMMUTABLE = 1,
  D3D11_USAGE_DYNAMIC = 2,
  D3D11_USAGE_STAGING = 3
} D3D11_USAGE;

typedef enum D3D11_BIND_FLAG {
  D3D11_BIND_VERTEX_BUFFER = 0x1,
  D3D11_BIND_INDEX_BUFFER = 0x2,
  D3D11_BIND_CONSTANT_BUFFER = 0x4,
  D3D11_BIND_SHADER_RESOURCE = 0x8,
  D3D11_BIND_STREAM_OUTPUT = 0x10,
  D3D11_BIND_RENDER_TARGET = 0x20,
  D3D11_BIND_DEPTH_STENCIL = 0x40,
  D3D11_BIND_UNORDERED_ACCESS = 0x80
} D3D11_BIND_FLAG;

typedef enum D3D11_CPU_ACCESS_FLAG { D3D11_CPU_ACCESS_WRITE = 0x10000, D3D11_CPU_ACCESS_READ = 0x20000 } D3D11_CPU_ACCESS_FLAG;

typedef enum D3D11_RESOURCE_MISC_FLAG {
  D3D11_RESOURCE_MISC_GENERATE_MIPS = 0x1,
  D3D11_RESOURCE_MISC_SHARED = 0x2,
  D3D11_RESOURCE_MISC_TEXTURECUBE = 0x4,
  D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS = 0x10,
  D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS = 0x20,
  D3D11_RESOURCE_MISC_BUFFER_STRUCTURED = 0x40
} D3D11_RESOURCE_MISC_FLAG;

typedef enum D3D11_CREATE_DEVICE_FLAG {
  D3D11_CREATE_DEVICE_SINGLETHREADED = 0x1,
  D3D11_CREATE_DEVICE_DEBUG = 0x2,
  D3D11_CREATE_DEVICE_SWITCH_TO_REF = 0x4,
  D3D11_CREATE_DEVICE_PREVENT_INTERNAL_THREADING_OPTIMIZATIONS = 0x8,
  D3D11_CREATE_DEVICE_BGRA_SUPPORT = 0x20,
  D3D11_CREATE_DEVICE_DISABLE_GPU_TIMEOUT = 0x100
} D3D11_CREATE_DEVICE_FLAG;

typedef enum D3D11_MAP {
  D3D11_MAP_READ = 1,
  D3D11_MAP_WRITE = 2,
  D3D11_MAP_READ_WRITE = 3,
  D3D11_MAP_WRITE_DISCARD = 4,
  D3D11_MAP_WRITE_NO_OVERWRITE = 5
} D3D11_MAP;

typedef enum D3D11_UAV_DIMENSION {
  D3D11_UAV_DIMENSION_UNKNOWN = 0,
  D3D11_UAV_DIMENSION_BUFFER = 1,
  D3D11_UAV_DIMENSION_TEXTURE1D = 2,
  D3D11_UAV_DIMENSION_TEXTURE1DARRAY = 3,
  D3D11_UAV_DIMENSION_TEXTURE2D = 4,
  D3D11_UAV_DIMENSION_TEXTURE2DARRAY = 5,
  D3D11_UAV_DIMENSION_TEXTURE3D = 8
} D3D11_UAV_DIMENSION;

typedef enum D3D11_BUFFER_UAV_FLAG {
  D3D11_BUFFER_UAV_FLAG_RAW = 0x1,
  D3D11_BUFFER_UAV_FLAG_APPEND = 0x2,
  D3D11_BUFFER_UAV_FLAG_COUNTER = 0x4
} D3D11_BUFFER_UAV_FLAG;

typedef struct D3D11_BUFFER_DESC {
  UINT ByteWidth;
  D3D11_USAGE Usage;
  UINT BindFlags;
  UINT CPUAccessFlags;
  UINT MiscFlags;
  UINT StructureByteStride;
} D3D11_BUFFER_DESC;

typedef struct D3D11_TEXTURE1D_DESC {
  UINT Width, MipLevels, ArraySize;
  DXGI_FORMAT Format;
  D3D11_USAGE Usage;
  UINT BindFlags, CPUAccessFlags, MiscFlags;
} D3D11_TEXTURE1D_DESC;

typedef struct D3D11_TEXTURE2D_DESC {
  UINT Width, Height, MipLevels, ArraySize;
  DXGI_FORMAT Format;
  DXGI_SAMPLE_DESC SampleDesc;
  D3D11_USAGE Usage;
  UINT BindFlags, CPUAccessFlags, MiscFlags;
} D3D11_TEXTURE2D_DESC;

typedef struct D3D11_TEXTURE3D_DESC {
  UINT Width, Height, Depth, MipLevels;
  DXGI_FORMAT Format;
  D3D11_USAGE Usage;
  UINT BindFlags, CPUAccessFlags, MiscFlags;
} D3D11_TEXTURE3D_DESC;

typedef struct D3D11_SUBRESOURCE_DATA {
  const void* pSysMem;
  UINT SysMemPitch;
  UINT SysMemSlicePitch;
} D3D11_SUBRESOURCE_DATA;

typedef struct D3D11_MAPPED_SUBRESOURCE {
  void* pData;
  UINT RowPitch;
  UINT DepthPitch;
} D3D11_MAPPED_SUBRESOURCE;

typedef struct D3D11_BOX {
  UINT left, top, front, right, bottom, back;
} D3D11_BOX;

typedef struct D3D11_BUFFER_UAV {
  UINT FirstElement;
  UINT NumElements;
  UINT Flags;
} D3D11_BUFFER_UAV;
typedef struct D3D11_TEX1D_UAV { UINT MipSlice; } D3D11_TEX1D_UAV;
typedef struct D3D11_TEX2D_UAV { UINT MipSlice; } D3D11_TEX2D_UAV;
typedef struct D3D11_TEX3D_UAV { UINT MipSlice, FirstWSlice, WSize; } D3D11_TEX3D_UAV;

typedef struct D3D11_UNORDERED_ACCESS_VIEW_DESC {
  DXGI_FORMAT Format;
  D3D11_UAV_DIMENSION ViewDimension;
  union {
    D3D11_BUFFER_UAV Buffer;
    D3D11_TEX1D_UAV Texture1D;
    D3D11_TEX2D_UAV Texture2D;
    D3D11_TEX3D_UAV Texture3D;
  };
} D3D11_UNORDERED_ACCESS_VIEW_DESC;

typedef struct D3D11_BUFFER_SRV {
  UINT FirstElement;
  UINT NumElements;
} D3D11_BUFFER_SRV;
typedef struct D3D11_TEX2D_SRV { UINT MostDetailedMip, MipLevels; } D3D11_TEX2D_SRV;

typedef enum D3D11_SRV_DIMENSION {
  D3D11_SRV_DIMENSION_UNKNOWN = 0,
  D3D11_SRV_DIMENSION_BUFFER = 1,
  D3D11_SRV_DIMENSION_TEXTURE2D = 4
} D3D11_SRV_DIMENSION;

typedef struct D3D11_SHADER_RESOURCE_VIEW_DESC {
  DXGI_FORMAT Format;
  D3D11_SRV_DIMENSION ViewDimension;
  union {
    D3D11_BUFFER_SRV Buffer;
    D3D11_TEX2D_SRV Texture2D;
  };
} D3D11_SHADER_RESOURCE_VIEW_DESC;

struct ID3D11Device;

AMP_COMPAT_COM_INTERFACE(ID3D11DeviceChild, "1841e5c8-16b0-489b-bcc8-44cfb0d5deae") : public IUnknown {
  virtual void STDMETHODCALLTYPE GetDevice(ID3D11Device** ppDevice) = 0;
};
AMP_COMPAT_COM_INTERFACE(ID3D11Resource, "dc8e63f3-d12b-4952-b47b-5e45026a862d") : public ID3D11DeviceChild {};
AMP_COMPAT_COM_INTERFACE(ID3D11Buffer, "48570b85-d1ee-4fcd-a250-eb350722b037") : public ID3D11Resource {
  virtual void STDMETHODCALLTYPE GetDesc(D3D11_BUFFER_DESC* pDesc) = 0;
};
AMP_COMPAT_COM_INTERFACE(ID3D11Texture1D, "f8fb5c27-c6b3-4f75-a4c8-439af2ef564c") : public ID3D11Resource {
  virtual void STDMETHODCALLTYPE GetDesc(D3D11_TEXTURE1D_DESC* pDesc) = 0;
};
AMP_COMPAT_COM_INTERFACE(ID3D11Texture2D, "6f15aaf2-d208-4e89-9ab4-489535d34f9c") : public ID3D11Resource {
  virtual void STDMETHODCALLTYPE GetDesc(D3D11_TEXTURE2D_DESC* pDesc) = 0;
};
AMP_COMPAT_COM_INTERFACE(ID3D11Texture3D, "037e866e-f56d-4357-a8af-9dabbe6e250e") : public ID3D11Resource {
  virtual void STDMETHODCALLTYPE GetDesc(D3D11_TEXTURE3D_DESC* pDesc) = 0;
};
AMP_COMPAT_COM_INTERFACE(ID3D11View, "839d1216-bb2e-412b-b7f4-a9dbebe08ed1") : public ID3D11DeviceChild {
  virtual void STDMETHODCALLTYPE GetResource(ID3D11Resource** ppResource) = 0;
};
AMP_COMPAT_COM_INTERFACE(ID3D11UnorderedAccessView, "28acf509-7f5c-48f6-8611-f316010a6380") : public ID3D11View {
  virtual void STDMETHODCALLTYPE GetDesc(D3D11_UNORDERED_ACCESS_VIEW_DESC* pDesc) = 0;
};
AMP_COMPAT_COM_INTERFACE(ID3D11ShaderResourceView, "b0e06fe0-8192-4e1a-b1ca-36d7414710b2") : public ID3D11View {
  virtual void STDMETHODCALLTYPE GetDesc(D3D11_SHADER_RESOURCE_VIEW_DESC* pDesc) = 0;
};
AMP_COMPAT_COM_INTERFACE(ID3D11DeviceContext, "c0bfa96c-e089-44fb-8eaf-26f8796190da") : public ID3D11DeviceChild {
  virtual void STDMETHODCALLTYPE CSSetUnorderedAccessViews(UINT StartSlot, UINT NumUAVs,
                                                            ID3D11UnorderedAccessView* const* ppUnorderedAccessViews,
                                                            const UINT* pUAVInitialCounts) = 0;
  virtual void STDMETHODCALLTYPE CSGetUnorderedAccessViews(UINT StartSlot, UINT NumUAVs,
                                                            ID3D11UnorderedAccessView** ppUnorderedAccessViews) = 0;
  virtual void STDMETHODCALLTYPE CSSetShaderResources(UINT StartSlot, UINT NumViews,
                                                       ID3D11ShaderResourceView* const* ppShaderResourceViews) = 0;
  virtual void STDMETHODCALLTYPE Dispatch(UINT X, UINT Y, UINT Z) = 0;
  virtual HRESULT STDMETHODCALLTYPE Map(ID3D11Resource* pResource, UINT Subresource, D3D11_MAP MapType, UINT MapFlags,
                                        D3D11_MAPPED_SUBRESOURCE* pMappedResource) = 0;
  virtual void STDMETHODCALLTYPE Unmap(ID3D11Resource* pResource, UINT Subresource) = 0;
  virtual void STDMETHODCALLTYPE CopyResource(ID3D11Resource* pDstResource, ID3D11Resource* pSrcResource) = 0;
  virtual void STDMETHODCALLTYPE CopySubresourceRegion(ID3D11Resource* pDstResource, UINT DstSubresource, UINT DstX,
                                                       UINT DstY, UINT DstZ, ID3D11Resource* pSrcResource,
                                                       UINT SrcSubresource, const D3D11_BOX* pSrcBox) = 0;
  virtual void STDMETHODCALLTYPE UpdateSubresource(ID3D11Resource* pDstResource, UINT DstSubresource, const D3D11_BOX* pDstBox,
                                                   const void* pSrcData, UINT SrcRowPitch, UINT SrcDepthPitch) = 0;
  virtual void STDMETHODCALLTYPE Flush() = 0;
};
AMP_COMPAT_COM_INTERFACE(ID3D11Device, "db6f6ddb-ac77-4e88-8253-819df9bbf140") : public IUnknown {
  virtual HRESULT STDMETHODCALLTYPE CreateBuffer(const D3D11_BUFFER_DESC* pDesc, const D3D11_SUBRESOURCE_DATA* pInitialData,
                                                 ID3D11Buffer** ppBuffer) = 0;
  virtual HRESULT STDMETHODCALLTYPE CreateTexture2D(const D3D11_TEXTURE2D_DESC* pDesc, const D3D11_SUBRESOURCE_DATA* pInitialData,
                                                    ID3D11Texture2D** ppTexture2D) = 0;
  virtual HRESULT STDMETHODCALLTYPE CreateShaderResourceView(ID3D11Resource* pResource, const D3D11_SHADER_RESOURCE_VIEW_DESC* pDesc,
                                                             ID3D11ShaderResourceView** ppSRView) = 0;
  virtual HRESULT STDMETHODCALLTYPE CreateUnorderedAccessView(ID3D11Resource* pResource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* pDesc,
                                                              ID3D11UnorderedAccessView** ppUAView) = 0;
  virtual void STDMETHODCALLTYPE GetImmediateContext(ID3D11DeviceContext** ppImmediateContext) = 0;
  virtual D3D_FEATURE_LEVEL STDMETHODCALLTYPE GetFeatureLevel() = 0;
  virtual UINT STDMETHODCALLTYPE GetCreationFlags() = 0;
  virtual HRESULT STDMETHODCALLTYPE GetDeviceRemovedReason() = 0;
};

// No Direct3D: no device. The outputs are nulled (where given) and the result
// is DXGI_ERROR_UNSUPPORTED, as on a Windows machine without a Direct3D 11
// driver, so code that checks FAILED(hr) takes its error path.
inline HRESULT D3D11CreateDevice(IDXGIAdapter* /*pAdapter*/, D3D_DRIVER_TYPE /*DriverType*/, HMODULE /*Software*/, UINT /*Flags*/,
                                 const D3D_FEATURE_LEVEL* /*pFeatureLevels*/, UINT /*FeatureLevels*/, UINT /*SDKVersion*/,
                                 ID3D11Device** ppDevice, D3D_FEATURE_LEVEL* pFeatureLevel,
                                 ID3D11DeviceContext** ppImmediateContext) {
  if (ppDevice) *ppDevice = nullptr;
  if (pFeatureLevel) *pFeatureLevel = static_cast<D3D_FEATURE_LEVEL>(0);
  if (ppImmediateContext) *ppImmediateContext = nullptr;
  return DXGI_ERROR_UNSUPPORTED;
}

#endif
