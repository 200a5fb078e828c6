// amp_compat/compat/intrin.h -- MSVC's <intrin.h> as console programs use it
// around AMP code: CPU-side bit counting in reference implementations, time
// stamps, CPU identification (--windows-compat only; host code only).
//
// Contract:
//   On x86-64 the compiler's <x86intrin.h> comes first, so the SSE/AVX
//   _mm_* intrinsics, __rdtsc and _mm_pause are the compiler's own (the
//   AVX ones still need the matching -m flags, as /arch: did).
//   __popcnt16, __popcnt, __popcnt64: population counts (any CPU: the
//     compiler picks the instruction or a fallback).
//   _BitScanForward/_BitScanReverse(unsigned long* index, unsigned long mask)
//     and the ...64 forms, also with an `unsigned int*` (DWORD) index: MSVC's
//     results -- 0 with *index unspecified (left unchanged here) for a zero
//     mask, else 1 and the bit position. The 32-bit forms read the low 32
//     bits of mask (MSVC's unsigned long is 32 bits). Under --msvc these and
//     the _Interlocked* functions are Clang's builtins, whose `long` is 32
//     bits: a DWORD / LONG argument works there, an `unsigned long` /
//     `long` one does not compile.
//   __cpuid(int info[4], int leaf), __cpuidex(int info[4], int leaf, int sub):
//     the CPUID instruction (x86-64 only; elsewhere a compile error).
//   _InterlockedIncrement/Decrement/ExchangeAdd/Exchange/CompareExchange
//     (long: MSVC's 32-bit long, here on `long volatile*`), sequentially
//     consistent, returning what MSVC's return; _ReadWriteBarrier (a compiler
//     barrier), __nop.
#ifndef AMP_COMPAT_COMPAT_INTRIN_H
#define AMP_COMPAT_COMPAT_INTRIN_H

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
// GCC's <ia32intrin.h> defines _rotl/_rotr/_lrotl/_lrotr as macros, and its
// _lrotl rotates 64 bits (Linux's long); MSVC's rotates 32 (its long): the
// CRT functions of crt_extras.h, which keep MSVC's widths, are used instead.
#undef _rotl
#undef _rotr
#undef _lrotl
#undef _lrotr
#endif
#include <cstdint>

// Clang's Microsoft mode (--msvc) has these as builtins: left to it
// (AMP_COMPAT_MS_BUILTIN, crt_extras.h).
#if !AMP_COMPAT_MS_BUILTIN(__popcnt)
inline unsigned short __popcnt16(unsigned short v) { return static_cast<unsigned short>(__builtin_popcount(v)); }
inline unsigned int __popcnt(unsigned int v) { return static_cast<unsigned int>(__builtin_popcount(v)); }
inline unsigned long long __popcnt64(unsigned long long v) { return static_cast<unsigned long long>(__builtin_popcountll(v)); }

inline unsigned char _BitScanForward(unsigned long* index, unsigned long mask) {
  const std::uint32_t m = static_cast<std::uint32_t>(mask);
  if (m == 0) return 0;
  *index = static_cast<unsigned long>(__builtin_ctz(m));
  return 1;
}
inline unsigned char _BitScanReverse(unsigned long* index, unsigned long mask) {
  const std::uint32_t m = static_cast<std::uint32_t>(mask);
  if (m == 0) return 0;
  *index = static_cast<unsigned long>(31 - __builtin_clz(m));
  return 1;
}
inline unsigned char _BitScanForward64(unsigned long* index, unsigned long long mask) {
  if (mask == 0) return 0;
  *index = static_cast<unsigned long>(__builtin_ctzll(mask));
  return 1;
}
inline unsigned char _BitScanReverse64(unsigned long* index, unsigned long long mask) {
  if (mask == 0) return 0;
  *index = static_cast<unsigned long>(63 - __builtin_clzll(mask));
  return 1;
}
// The same with a 32-bit index (a DWORD: MSVC's unsigned long is 32 bits).
// (A CUDA/HIP device pass knows the 64-bit forms and __cpuid(ex) as builtins
// of the host target with exactly these types, without __has_builtin saying
// so; there the builtins serve the host code it parses.)
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define AMP_COMPAT_DEVICE_PASS 1
#else
#define AMP_COMPAT_DEVICE_PASS 0
#endif
#define AMP_COMPAT_BITSCAN_U32(NAME, MASK)                                       \
  inline unsigned char NAME(unsigned int* index, MASK mask) {                    \
    unsigned long i = 0;                                                         \
    const unsigned char found = NAME(&i, mask);                                  \
    if (found) *index = static_cast<unsigned int>(i);                            \
    return found;                                                                \
  }
#if !AMP_COMPAT_MS_BUILTIN(_BitScanForward)
AMP_COMPAT_BITSCAN_U32(_BitScanForward, unsigned long)
#endif
#if !AMP_COMPAT_MS_BUILTIN(_BitScanReverse)
AMP_COMPAT_BITSCAN_U32(_BitScanReverse, unsigned long)
#endif
#if !AMP_COMPAT_MS_BUILTIN(_BitScanForward64) && !AMP_COMPAT_DEVICE_PASS
AMP_COMPAT_BITSCAN_U32(_BitScanForward64, unsigned long long)
#endif
#if !AMP_COMPAT_MS_BUILTIN(_BitScanReverse64) && !AMP_COMPAT_DEVICE_PASS
AMP_COMPAT_BITSCAN_U32(_BitScanReverse64, unsigned long long)
#endif
#undef AMP_COMPAT_BITSCAN_U32
#else
// Clang's Microsoft mode (--msvc): its builtins, with the types Clang 22
// gives them on Linux. The bit scans take `unsigned int*` there (MSVC's
// 32-bit unsigned long, e.g. a DWORD); an `unsigned long` index does not
// compile under --msvc.
extern "C" {
unsigned short __popcnt16(unsigned short) noexcept;
unsigned int __popcnt(unsigned int) noexcept;
unsigned long __popcnt64(unsigned long) noexcept;
unsigned char _BitScanForward(unsigned int*, unsigned int) noexcept;
unsigned char _BitScanReverse(unsigned int*, unsigned int) noexcept;
unsigned char _BitScanForward64(unsigned int*, unsigned long long) noexcept;
unsigned char _BitScanReverse64(unsigned int*, unsigned long long) noexcept;
}
#endif

#if (defined(__x86_64__) || defined(__i386__)) && !AMP_COMPAT_MS_BUILTIN(__cpuid) && !AMP_COMPAT_DEVICE_PASS
inline void __cpuidex(int info[4], int leaf, int subleaf) {
  unsigned a, b, c, d;
  __asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(leaf), "c"(subleaf));
  info[0] = static_cast<int>(a);
  info[1] = static_cast<int>(b);
  info[2] = static_cast<int>(c);
  info[3] = static_cast<int>(d);
}
inline void __cpuid(int info[4], int leaf) { __cpuidex(info, leaf, 0); }
#elif AMP_COMPAT_MS_BUILTIN(__cpuid)
extern "C" {
void __cpuid(int*, int) noexcept;
void __cpuidex(int*, int, int) noexcept;
}
#endif

#if !AMP_COMPAT_MS_BUILTIN(_InterlockedIncrement)
// For `long` and for the 32-bit LONG of <windows.h> (int here).
#define AMP_COMPAT_INTRIN_INTERLOCKED(T)                                                                      \
  inline T _InterlockedIncrement(T volatile* p) { return __atomic_add_fetch(p, 1, __ATOMIC_SEQ_CST); }      \
  inline T _InterlockedDecrement(T volatile* p) { return __atomic_sub_fetch(p, 1, __ATOMIC_SEQ_CST); }      \
  inline T _InterlockedExchangeAdd(T volatile* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); } \
  inline T _InterlockedExchange(T volatile* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }   \
  inline T _InterlockedCompareExchange(T volatile* p, T exchange, T comparand) {                              \
    __atomic_compare_exchange_n(p, &comparand, exchange, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
    return comparand; /* the initial value of *p */                                                           \
  }
AMP_COMPAT_INTRIN_INTERLOCKED(long)
AMP_COMPAT_INTRIN_INTERLOCKED(int)
#undef AMP_COMPAT_INTRIN_INTERLOCKED
#else
extern "C" {  // Clang's Microsoft mode: on int (MSVC's 32-bit long, <windows.h>'s LONG)
int _InterlockedIncrement(int volatile*) noexcept;
int _InterlockedDecrement(int volatile*) noexcept;
int _InterlockedExchangeAdd(int volatile*, int) noexcept;
int _InterlockedExchange(int volatile*, int) noexcept;
int _InterlockedCompareExchange(int volatile*, int, int) noexcept;
}
#endif
#if !AMP_COMPAT_MS_BUILTIN(_ReadWriteBarrier)
#define _ReadWriteBarrier() __asm__ __volatile__("" ::: "memory")
#else
extern "C" void _ReadWriteBarrier(void) noexcept;
#endif
inline void __nop() { __asm__ __volatile__("nop"); }

#endif
