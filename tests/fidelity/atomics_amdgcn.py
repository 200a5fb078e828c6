#!/usr/bin/env python3
"""atomics_amdgcn.py ASM [--require-kokkos]: compare the entries of
tests/fidelity/atomics_isa.cpp compiled for an AMD GPU (the device pass's
AMDGCN assembly, `amp++ --gpu=hip --cuda-device-only -S`).

For every operation (entry native_<space>_<op>_<type>) the whole body of the
native entry (HIP's intrinsic), of the kokkos entry (Kokkos' function) and of
the amp entry (AMP's function) are compared as sequences of instruction
mnemonics (operands, registers and comments dropped): the strongest form of
"the same instructions" (the atomic one, global_atomic_* / ds_*_rtn_*, and
every wait and cache operation around it). Prints the atomic instruction of
each operation and whether the other two are the same; exit status 1 when
AMP's entry differs from the native one anywhere, or with --require-kokkos
when Kokkos' does.
"""
import re
import sys

ATOMIC = re.compile(r"atomic|^ds_\w+_rtn_|^buffer_wbl2|^buffer_inv|^s_waitcnt_vscnt")


def functions(asm):
    """function name -> list of instruction mnemonics of its body."""
    out, name = {}, None
    for line in asm.splitlines():
        m = re.match(r"^(\w+):\s*(;.*)?$", line)
        if m and not m.group(1).startswith(".") and (m.group(1).startswith(("native_", "kokkos_", "amp_"))):
            name = m.group(1)
            out[name] = []
            continue
        if name is None:
            continue
        s = line.split(";", 1)[0].strip()
        if not s or s.startswith(".") or s.endswith(":"):
            continue
        out[name].append(s.split()[0])
        if s.startswith("s_endpgm"):
            name = None
    return out


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    require_kokkos = "--require-kokkos" in sys.argv[2:]
    with open(sys.argv[1]) as f:
        fn = functions(f.read())
    ops = sorted(n[len("native_"):] for n in fn if n.startswith("native_"))
    if not ops:
        print("FAIL: no native_* functions in the assembly")
        return 1
    amp_bad, kokkos_bad = [], []
    for op in ops:
        native = fn["native_" + op]
        atom = [x for x in native if ATOMIC.search(x)]
        if not atom:
            print(f"FAIL: {op}: no atomic instruction in the native entry")
            return 1
        line = f"{op:22} native: {' '.join(atom)}"
        for who, bad in (("kokkos", kokkos_bad), ("amp", amp_bad)):
            body = fn.get(who + "_" + op)
            if body == native:
                line += f"; {who}: same"
            else:
                got = [x for x in body or ["<missing>"] if ATOMIC.search(x)]
                line += f"; {who}: {' '.join(got)} ({len(body or [])} instructions against {len(native)})  <-- differs"
                bad.append(op)
        print(line)
    print(f"{len(ops)} operations; Kokkos differs from the native code in {len(kokkos_bad)}"
          + (f" ({', '.join(kokkos_bad)})" if kokkos_bad else "")
          + f"; AMP differs in {len(amp_bad)}" + (f" ({', '.join(amp_bad)})" if amp_bad else ""))
    fail = bool(amp_bad) or (require_kokkos and bool(kokkos_bad))
    print("FAIL" if fail else "ok")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
