// amp_compat/compat/d3dcsx.h -- the Direct3D 11 compute-shader library
// (D3DCSX: scan, segmented scan, FFT) as C++ AMP code declares it
// (--windows-compat). There is no Direct3D here (Unknwn.h): the creation
// functions return DXGI_ERROR_UNSUPPORTED and a null interface; nothing else
// is reachable.
#ifndef AMP_COMPAT_COMPAT_D3DCSX_H
#define AMP_COMPAT_COMPAT_D3DCSX_H

#include "d3d11.h"

typedef enum D3DX11_SCAN_DATA_TYPE {
  D3DX11_SCAN_DATA_TYPE_FLOAT = 1,
  D3DX11_SCAN_DATA_TYPE_INT,
  D3DX11_SCAN_DATA_TYPE_UINT
} D3DX11_SCAN_DATA_TYPE;

typedef enum D3DX11_SCAN_OPCODE {
  D3DX11_SCAN_OPCODE_ADD = 1,
  D3DX11_SCAN_OPCODE_MIN,
  D3DX11_SCAN_OPCODE_MAX,
  D3DX11_SCAN_OPCODE_MUL,
  D3DX11_SCAN_OPCODE_AND,
  D3DX11_SCAN_OPCODE_OR,
  D3DX11_SCAN_OPCODE_XOR
} D3DX11_SCAN_OPCODE;

typedef enum D3DX11_SCAN_DIRECTION {
  D3DX11_SCAN_DIRECTION_FORWARD = 1,
  D3DX11_SCAN_DIRECTION_BACKWARD
} D3DX11_SCAN_DIRECTION;

AMP_COMPAT_COM_INTERFACE(ID3DX11Scan, "5089b68f-e71d-4d38-be8e-f363b95a9405") : public IUnknown {
  virtual HRESULT STDMETHODCALLTYPE SetScanDirection(D3DX11_SCAN_DIRECTION Direction) = 0;
  virtual HRESULT STDMETHODCALLTYPE Scan(D3DX11_SCAN_DATA_TYPE ElementType, D3DX11_SCAN_OPCODE OpCode, UINT ElementScanSize,
                                         ID3D11UnorderedAccessView* pSrc, ID3D11UnorderedAccessView* pDst) = 0;
  virtual HRESULT STDMETHODCALLTYPE Multiscan(D3DX11_SCAN_DATA_TYPE ElementType, D3DX11_SCAN_OPCODE OpCode, UINT ElementScanSize,
                                              UINT ElementScanPitch, UINT ScanCount, ID3D11UnorderedAccessView* pSrc,
                                              ID3D11UnorderedAccessView* pDst) = 0;
};

AMP_COMPAT_COM_INTERFACE(ID3DX11SegmentedScan, "a915128c-d954-4c79-bfe1-64db923194d6") : public IUnknown {
  virtual HRESULT STDMETHODCALLTYPE SetScanDirection(D3DX11_SCAN_DIRECTION Direction) = 0;
  virtual HRESULT STDMETHODCALLTYPE SegScan(D3DX11_SCAN_DATA_TYPE ElementType, D3DX11_SCAN_OPCODE OpCode, UINT ElementScanSize,
                                            ID3D11UnorderedAccessView* pSrc, ID3D11UnorderedAccessView* pSrcElementFlags,
                                            ID3D11UnorderedAccessView* pDst) = 0;
};

// No Direct3D: no scan objects. *ppScan is set to null.
inline HRESULT D3DX11CreateScan(ID3D11DeviceContext* /*pDeviceContext*/, UINT /*MaxElementScanSize*/, UINT /*MaxScanCount*/,
                                ID3DX11Scan** ppScan) {
  if (ppScan == nullptr) return E_POINTER;
  *ppScan = nullptr;
  return DXGI_ERROR_UNSUPPORTED;
}
inline HRESULT D3DX11CreateSegmentedScan(ID3D11DeviceContext* /*pDeviceContext*/, UINT /*MaxElementScanSize*/,
                                         ID3DX11SegmentedScan** ppScan) {
  if (ppScan == nullptr) return E_POINTER;
  *ppScan = nullptr;
  return DXGI_ERROR_UNSUPPORTED;
}

#endif
