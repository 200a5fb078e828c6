#!/usr/bin/env python3
"""atomics_ptx.py PTX [--require-kokkos]: compare the atomic instructions of
the entries of tests/fidelity/atomics_isa.cpp compiled to PTX
(atomics_isa.sh ... cuda).

For every operation (entry native_<space>_<op>_<type>), the signature of an
entry is the sequence of its atomic, fence, address-space test and branch
instructions (atom.*, red.*, fence.*, membar.*, isspacep.*, bra), operands
and predicate guards dropped, with PTX's defaults
written out: an atom/red without a memory order is .relaxed and without a
scope is .gpu (PTX ISA, "atom": "If no .sem qualifier is specified,
.relaxed is assumed ... If no scope is specified, the atomic operation is
performed with .gpu scope"), so `atom.global.add.u32` and
`atom.relaxed.gpu.global.add.u32` are one instruction. The type suffix is
kept but .s32/.u32/.b32 are one (the same bits for add/sub/and/or/xor/exch/
cas; max/min keep theirs, where the sign matters).

Prints one line per operation: the native signature, Kokkos' and AMP's, and
whether each is the native one. Exit status 1 when AMP's atomics differ
from CUDA's intrinsics anywhere (amp_compat must emit the native
instruction, whatever implements it), or with --require-kokkos when Kokkos'
differ.
"""
import re
import sys

ATOMIC = re.compile(r"^(atom|red|fence|membar|isspacep|bra)\b")


def entries(ptx):
    """entry name -> list of instruction opcodes of its body."""
    out, name, body = {}, None, []
    for line in ptx.splitlines():
        m = re.match(r"^\.(?:visible|weak)?\s*\.entry\s+(\w+)\(", line)
        if m:
            name, body = m.group(1), []
            continue
        if name is None:
            continue
        if line.startswith("}"):
            out[name] = body
            name = None
            continue
        s = line.split("//", 1)[0].strip()
        if not s or s.endswith(":") or s.startswith("."):
            continue
        s = re.sub(r"^@!?%?\w+\s+", "", s)  # predicate guard (@%p1, or @p in inline asm)
        body.append(s.split()[0].rstrip(";"))
    return out


SEMS = {"relaxed", "acquire", "release", "acq_rel", "sc"}
SCOPES = {"cta", "cluster", "gpu", "sys"}


def normalize(op):
    parts = op.split(".")
    head, rest = parts[0], parts[1:]
    if head in ("atom", "red"):
        sem = [p for p in rest if p in SEMS] or ["relaxed"]
        scope = [p for p in rest if p in SCOPES] or ["gpu"]
        rest = [p for p in rest if p not in SEMS and p not in SCOPES]
        is_minmax = any(p in ("max", "min") for p in rest)
        if not is_minmax:
            rest = ["b32" if p in ("s32", "u32") else p for p in rest]
        rest = sem + scope + rest
    elif head == "bra":
        rest = [p for p in rest if p != "uni"]
    return ".".join([head] + rest)


def signature(body):
    return [normalize(op) for op in body if ATOMIC.match(op)]


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    require_kokkos = "--require-kokkos" in sys.argv[2:]
    with open(sys.argv[1]) as f:
        ent = entries(f.read())
    ops = sorted(n[len("native_"):] for n in ent if n.startswith("native_"))
    if not ops:
        print("FAIL: no native_* entries in the PTX")
        return 1
    amp_bad, kokkos_bad = [], []
    for op in ops:
        sig = {k: signature(ent.get(k + "_" + op, ["<missing>"])) for k in ("native", "kokkos", "amp")}
        if not sig["native"]:
            print(f"FAIL: {op}: no atomic instruction in the native entry")
            return 1
        same_k = sig["kokkos"] == sig["native"]
        same_a = sig["amp"] == sig["native"]
        print(f"{op:22} native: {' '.join(sig['native'])}")
        print(f"{'':22} kokkos: {'same' if same_k else ' '.join(sig['kokkos']) + '   <-- differs'}")
        print(f"{'':22} amp:    {'same' if same_a else ' '.join(sig['amp']) + '   <-- differs'}")
        if not same_k:
            kokkos_bad.append(op)
        if not same_a:
            amp_bad.append(op)
    print(f"{len(ops)} operations; Kokkos differs from the native instruction in {len(kokkos_bad)}"
          + (f" ({', '.join(kokkos_bad)})" if kokkos_bad else "")
          + f"; AMP differs in {len(amp_bad)}" + (f" ({', '.join(amp_bad)})" if amp_bad else ""))
    fail = bool(amp_bad) or (require_kokkos and bool(kokkos_bad))
    print("FAIL" if fail else "ok")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
