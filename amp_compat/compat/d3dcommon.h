// amp_compat/compat/d3dcommon.h -- Direct3D's shared declarations
// (--windows-compat): driver types, feature levels, ID3D10Blob/ID3DBlob.
// Declarations only: there is no Direct3D here (Unknwn.h says why and what
// happens instead).
#ifndef AMP_COMPAT_COMPAT_D3DCOMMON_H
#define AMP_COMPAT_COMPAT_D3DCOMMON_H

#include "Unknwn.h"

typedef enum D3D_DRIVER_TYPE {
  D3D_DRIVER_TYPE_UNKNOWN = 0,
  D3D_DRIVER_TYPE_HARDWARE = 1,
  D3D_DRIVER_TYPE_REFERENCE = 2,
  D3D_DRIVER_TYPE_NULL = 3,
  D3D_DRIVER_TYPE_SOFTWARE = 4,
  D3D_DRIVER_TYPE_WARP = 5
} D3D_DRIVER_TYPE;

typedef enum D3D_FEATURE_LEVEL {
  D3D_FEATURE_LEVEL_9_1 = 0x9100,
  D3D_FEATURE_LEVEL_9_2 = 0x9200,
  D3D_FEATURE_LEVEL_9_3 = 0x9300,
  D3D_FEATURE_LEVEL_10_0 = 0xa000,
  D3D_FEATURE_LEVEL_10_1 = 0xa100,
  D3D_FEATURE_LEVEL_11_0 = 0xb000,
  D3D_FEATURE_LEVEL_11_1 = 0xb100
} D3D_FEATURE_LEVEL;

AMP_COMPAT_COM_INTERFACE(ID3D10Blob, "8ba5fb08-5195-40e2-ac58-0d989c3a0102") : public IUnknown {
  virtual LPVOID STDMETHODCALLTYPE GetBufferPointer() = 0;
  virtual SIZE_T STDMETHODCALLTYPE GetBufferSize() = 0;
};
typedef ID3D10Blob ID3DBlob;
typedef ID3D10Blob* LPD3D10BLOB;

#endif
