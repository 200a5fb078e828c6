#!/usr/bin/env python3
"""Writes samples/legacy/NAME.expected for every legacy program, from an
independent computation in Python of what each program prints (the programs
compute on the accelerator; this script never runs them)."""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, text):
    with open(os.path.join(HERE, name + ".expected"), "w", encoding="utf-8") as f:
        f.write(text)


def vector_add():
    size = 100000
    return ("Adding %d elements on the accelerator\n"
            "sum[0] = %d, sum[99999] = %d\n"
            "Verification PASSED\n" % (size, 1, (size - 1) + 3 * (size - 1) + 1))


def matrix_multiply_tiled():
    M, N, W = 128, 96, 64
    a = [(i * 7) % 11 - 5 for i in range(M * W)]
    b = [(i * 5) % 13 - 6 for i in range(W * N)]
    c = [sum(a[r * W + k] * b[k * N + col] for k in range(W)) for r in range(M) for col in range(N)]
    chk = sum(c[i] * (i % 7 + 1) for i in range(M * N))
    return ("Matrix multiply: %dx%d times %dx%d, tile 16\n"
            "c[0][0] = %d, c[127][95] = %d, checksum = %d\n"
            "simple and tiled match the CPU: yes\n" % (M, W, W, N, c[0], c[-1], chk))


def secure_crt_report():
    vals = [i - 20 for i in range(64)]
    sq = [v * v for v in vals]
    cu = [v ** 3 for v in vals]
    line = "Report: powers of 64 values"
    return (line + "\n"
            + "squares: min %d max %d (0x%x) total %d\n" % (min(sq), max(sq), max(sq), sum(sq))
            + "cubes: min %d max %d total %d\n" % (min(cu), max(cu), sum(cu))
            + '3 lines read back; truncated title: "%s" (-1)\n' % line[:7])


def unicode_console():
    g = "Hello, C++ AMP \u2013 na\u00efve caf\u00e9, \u03c0 \u2248 3.14159"

    def shift(t, by):
        out = ""
        for ch in t:
            c = ord(ch)
            if 97 <= c <= 122:
                out += chr(97 + (c - 97 + by) % 26)
            elif 65 <= c <= 90:
                out += chr(65 + (c - 65 + by) % 26)
            else:
                out += ch
        return out

    s = shift(g, 3)
    return ("Original: %s\nShifted:  %s\nBack:     %s\n%d characters, 1 arguments\n"
            "narrow printf between wide lines\nwchar_t is 32 bits here\n" % (g, s, shift(s, 23), len(g)))


def cdiv_mod(x, m):
    """C++'s % (the sign follows the dividend)."""
    q = abs(x) // abs(m)
    r = abs(x) - q * abs(m)
    return -r if x < 0 else r


def ppl_vs_amp():
    size = 1 << 20
    total = 0
    for i in range(size):
        x = (i * 2654435761) & 0xFFFFFFFF
        x ^= x >> 13
        x = (x * 0x5bd1e995) & 0xFFFFFFFF
        x ^= x >> 15
        total += x % 1000
    return ("Elements:   %d\nSequential: %d\nPPL:        %d (matches)\nC++ AMP:    %d (matches)\n"
            % (size, total, total, total))


def invoke_reduce_sort():
    size = 50000
    r = [(i % 97) * ((i * 31) % 101) - (size - i) % 89 for i in range(size)]
    squares = sum(cdiv_mod(x, 100) ** 2 for x in r)
    s = sorted(r)
    return ("total = %d, largest = %d, sum of squares = %d\n" % (sum(r), max(r), squares)
            + "smallest five: " + " ".join(str(x) for x in s[:5]) + "\n"
            + "median = %d, sorted: yes\n" % s[size // 2])


def task_pipeline():
    size = 4096
    return ("sum of 3x+1 over 1..%d = %d\n" % (size, sum(3 * x + 1 for x in range(1, size + 1)))
            + "copy_async + to_task + kernel: %d\n" % (2 * 2 * size)
            + "when_all: 1 4 9 16\n"
            + "caught: sensor offline\n")


def producer_consumer():
    blocks, n = 12, 1024
    out = "%d blocks produced, %d consumed\n" % (blocks, blocks)
    for b in range(blocks):
        s = [(b * 7 + i * 13) % 50 for i in range(n)]
        total = sum(s[max(i - 1, 0)] + 2 * s[i] + s[min(i + 1, n - 1)] for i in range(n))
        out += "block %2d: %d\n" % (b, total)
    return out


def word_histogram():
    words = ["amp", "tile", "barrier", "kernel", "extent", "index", "view", "array", "accelerator", "restrict"]
    text = ""
    i = 0
    while len(text) < 64 * 256:
        text += words[(i * 7 + i // 3) % len(words)] + " "
        i += 1
    text = text[:64 * 256]
    counts = [text.count(chr(97 + l)) for l in range(26)]
    frequent = sorted([(c, chr(97 + l)) for l, c in enumerate(counts) if c >= 1000], reverse=True)
    lengths = {}
    for i in range(len(words) * 100):
        k = len(words[i % len(words)])
        lengths[k] = lengths.get(k, 0) + 1
    return ("letters counted: %d\n" % sum(counts)
            + "letters seen 1000 times or more:" + "".join(" %s=%d" % (ch, c) for c, ch in frequent) + "\n"
            + "word lengths:" + "".join(" %dx%d" % (k, lengths[k]) for k in sorted(lengths)) + "\n"
            + "longest word: %d letters\n" % max(lengths))



def msvc_templates():
    values = [i * 0.5 for i in range(1, 9)]
    squares = [v * v for v in values]
    counts = [i * i for i in range(5)]
    return ("count = %d\nmean of squares = %.4f\nspread = %.2f\nmean of a list = %.2f\n"
            % (len(values), sum(squares) / len(squares), max(values) - min(values), sum(counts) / len(counts)))


def _f32(x):
    """x rounded to the nearest IEEE single (what a C float holds)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def binomial_options(options=16, steps=512):
    # SetupOption in double, as the program does it; then the roll-back in
    # single precision, each product and sum rounded as C's float arithmetic.
    prices = []
    for o in range(options):
        S, X, R = 90.0 + (o % 21), 100.0, 0.03
        vol, T = 0.10 + 0.02 * (o % 5), 0.5 + 0.25 * (o % 3)
        dt = T / steps
        u = 1.0 + vol * math.sqrt(dt)
        d = 1.0 / u
        a = 1.0 + R * dt
        pu = (a - d) / (u - d)
        up, down = _f32(pu / a), _f32((1.0 - pu) / a)
        price = S
        for _ in range(steps):
            price *= d
        v = []
        for _ in range(steps + 1):
            payoff = price - X
            v.append(_f32(payoff if payoff > 0.0 else 0.0))
            price *= u * u
        for st in range(steps, 0, -1):
            v = [_f32(_f32(up * v[i + 1]) + _f32(down * v[i])) for i in range(st)]
        prices.append(v[0])
    out = "Binomial options: %d options, %d time steps, tiles of 256\n" % (options, steps)
    out += "".join("option %d: %.6f\n" % (o, prices[o]) for o in range(min(options, 8)))
    total = 0.0
    for x in prices:
        total += x
    return out + "sum of prices: %.6f\nprices equal to the CPU's: yes (0 of %d differ)\n" % (total, options)


def binomial_macro():
    """binomial_options.cpp's pricer in the ported-CUDA style: the same prices."""
    return binomial_options()


if __name__ == "__main__":
    for name, fn in list(globals().items()):
        if callable(fn) and os.path.exists(os.path.join(HERE, name + ".cpp")):
            write(name, fn())
