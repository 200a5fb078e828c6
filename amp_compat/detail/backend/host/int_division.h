// Integer division by zero in a kernel on the host accelerators.
//
// Direct3D defines it: an unsigned division by zero gives all bits set for the
// quotient and the remainder (D3D11_INTEGER_DIVIDE_BY_ZERO_QUOTIENT and
// _REMAINDER, 0xFFFFFFFF), so a kernel that divides by zero runs to its end
// on every Microsoft accelerator, REF and WARP included (code relies on it
// without knowing: Microsoft's conformance test ComputeDomainTiled/Grouped.01
// computes b / (-a + b + a) with b == 0 and multiplies the result by 0). An
// x86-64 CPU traps instead (SIGFPE), which ends the program.
//
// While a host thread runs a kernel's work-items (target::host_in_kernel),
// the trap of a DIV or IDIV instruction is answered the way Direct3D computes
// the division, and the work-item goes on:
//  - unsigned: quotient and remainder all bits set;
//  - signed: all bits set too (-1) for x / 0 and x % 0, whatever x's sign:
//    what amp_compat's GPU path gives (CUDA, measured on the H200), so that
//    host and GPU agree. (HLSL divides magnitudes unsigned and may give a
//    negative x's results the other sign on Direct3D; not documented, not
//    followed.) The width is the instruction's: a compiler that divides
//    64-bit values with a 32-bit DIV when they fit gives 32 bits set;
//  - the other trap of IDIV, MIN / -1 (an overflow), gives MIN and 0 (the
//    wrap-around of that same computation).
// Every other SIGFPE (outside a kernel, or an instruction not decoded here:
// 8-bit DIV, a segment override) goes to the handler installed before, the
// default one ending the program as it would without amp_compat.
// Other targets (AArch64 gives 0 and does not trap): nothing is installed.
// A GPU build's device pass has no host threads: nothing there either.
#pragma once
#include "../../config.h"
#include "../../restrict_pair.h"

#if defined(__x86_64__) && defined(__linux__) && !AMP_DEVICE_PASS
#include <csignal>
#include <cstdint>
#include <cstring>
#include <ucontext.h>

namespace Concurrency {
namespace detail {
namespace int_division {

// The gregs slot of each register number of the x86-64 encoding.
inline constexpr int greg_of[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                    REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};

struct div_insn {
  bool is_signed = false;
  int bits = 32;              // operand width: 16, 32 or 64
  std::uint64_t divisor = 0;  // zero-extended from `bits`
  int length = 0;             // bytes of the instruction
};

inline std::int64_t disp32(const unsigned char*& p) {
  std::int32_t v;
  std::memcpy(&v, p, 4);
  p += 4;
  return v;
}

// The memory operand's address of a ModRM byte (mod != 3); p is past it.
inline std::uint64_t address(unsigned mod, unsigned rm, unsigned rex, const unsigned char*& p, const greg_t* g) {
  std::uint64_t ea = 0;
  bool rip_relative = false;
  if (rm == 4) {
    const unsigned sib = *p++, index = ((sib >> 3) & 7) | ((rex & 2) << 2);
    if (index != 4) ea += static_cast<std::uint64_t>(g[greg_of[index]]) << (sib >> 6);
    if ((sib & 7) == 5 && mod == 0) ea += static_cast<std::uint64_t>(disp32(p));
    else ea += static_cast<std::uint64_t>(g[greg_of[(sib & 7) | ((rex & 1) << 3)]]);
  } else if (rm == 5 && mod == 0) {
    ea = static_cast<std::uint64_t>(disp32(p));
    rip_relative = true;
  } else {
    ea = static_cast<std::uint64_t>(g[greg_of[rm | ((rex & 1) << 3)]]);
  }
  if (mod == 1) ea += static_cast<std::uint64_t>(static_cast<std::int8_t>(*p++));
  if (mod == 2) ea += static_cast<std::uint64_t>(disp32(p));
  if (rip_relative) ea += reinterpret_cast<std::uint64_t>(p); // relative to the next instruction
  return ea;
}

// Decodes DIV / IDIV r/m16/32/64 (F7 /6, F7 /7) at pc; false for anything else.
inline bool decode(const unsigned char* pc, const greg_t* g, div_insn& d) {
  const unsigned char* p = pc;
  bool addr32 = false;
  for (;; ++p) {
    if (*p == 0x66) d.bits = 16;
    else if (*p == 0x67) addr32 = true;
    else if (*p != 0xF2 && *p != 0xF3) break;
  }
  const unsigned rex = (*p & 0xF0) == 0x40 ? *p++ : 0;
  if (rex & 8) d.bits = 64;
  if (*p++ != 0xF7) return false;
  const unsigned modrm = *p++, mod = modrm >> 6, op = (modrm >> 3) & 7, rm = modrm & 7;
  if (op != 6 && op != 7) return false;
  d.is_signed = op == 7;
  std::uint64_t v = 0;
  if (mod == 3) {
    v = static_cast<std::uint64_t>(g[greg_of[rm | ((rex & 1) << 3)]]);
  } else {
    std::uint64_t ea = address(mod, rm, rex, p, g);
    if (addr32) ea &= 0xFFFFFFFFu;
    std::memcpy(&v, reinterpret_cast<const void*>(ea), static_cast<std::size_t>(d.bits / 8));
  }
  d.divisor = d.bits == 64 ? v : v & ((std::uint64_t(1) << d.bits) - 1);
  d.length = static_cast<int>(p - pc);
  return true;
}

// Writes a result register as the instruction would: 16-bit keeps the upper
// bits, 32-bit zero-extends.
inline void set_reg(greg_t& r, std::uint64_t v, int bits) {
  r = static_cast<greg_t>(bits == 16 ? (static_cast<std::uint64_t>(r) & ~std::uint64_t(0xFFFF)) | v : v);
}

// Direct3D's quotient and remainder for the trapping division at the
// context's instruction pointer; false when it is not one (see the top).
inline bool answer(ucontext_t* uc) {
  greg_t* g = uc->uc_mcontext.gregs;
  div_insn d;
  if (!decode(reinterpret_cast<const unsigned char*>(g[REG_RIP]), g, d)) return false;
  const std::uint64_t mask = d.bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << d.bits) - 1;
  const std::uint64_t low = static_cast<std::uint64_t>(g[REG_RAX]) & mask, min = std::uint64_t(1) << (d.bits - 1);
  std::uint64_t q, r;
  if (d.divisor == 0) {
    q = r = mask;
  } else if (d.is_signed && d.divisor == mask && low == min) {
    q = min, r = 0;
  } else {
    return false;
  }
  set_reg(g[REG_RAX], q, d.bits);
  set_reg(g[REG_RDX], r, d.bits);
  g[REG_RIP] += d.length;
  return true;
}

inline struct sigaction& previous() {
  static struct sigaction a;
  return a;
}

inline void on_fpe(int sig, siginfo_t* info, void* ctx) {
  if (target::host_in_kernel && (info->si_code == FPE_INTDIV || info->si_code == FPE_INTOVF) &&
      answer(static_cast<ucontext_t*>(ctx)))
    return;
  const struct sigaction& old = previous();
  if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) return old.sa_sigaction(sig, info, ctx);
  if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)
    return old.sa_handler(sig);
  sigaction(SIGFPE, &old, nullptr); // the instruction runs again, under the default action
}

// Installs the handler, once per process (at the first host launch).
inline void arm() {
  static const bool armed = [] {
    struct sigaction a;
    std::memset(&a, 0, sizeof a);
    a.sa_sigaction = &on_fpe;
    a.sa_flags = SA_SIGINFO;
    sigemptyset(&a.sa_mask);
    return sigaction(SIGFPE, &a, &previous()) == 0;
  }();
  (void)armed;
}

} // namespace int_division
} // namespace detail
} // namespace Concurrency
#else
namespace Concurrency {
namespace detail {
namespace int_division {
inline void arm() {}
} // namespace int_division
} // namespace detail
} // namespace Concurrency
#endif
