#!/usr/bin/env python3
"""Chart the amp/kokkos and amp/cuda time ratios of one bench.json as a PNG.

Standard library only (the benchmark machines have neither matplotlib nor PIL):
an RGB bytearray framebuffer, a built-in 5x8 bitmap font and a minimal PNG
encoder.

Input: the array bench.cpp writes (see bench/README.md), records
    {"name", "version", "median_ms", "gbps" | "gflops" (optional), "n"}.
Ratios are per kernel name, both time ratios (> 1: AMP slower):
    amp/kokkos = amp median_ms / min(median_ms of "kokkos", "kokkos-team")
    amp/cuda   = amp median_ms / cuda median_ms
Every other version (amp-ptr, kokkos-lb256,1, roofs, serial, openmp, ...) is
ignored; a name without "amp" or without anything to compare against (roofs)
gets no row. Rows keep the order of first appearance in the file.

Usage: python3 bench/plot.py bench.json -o ratios.png [--title T]
Prints the ratio table to stdout ("-" where a ratio is absent); on malformed
input prints "plot.py: error: ..." to stderr and exits 1.
"""
import argparse
import json
import math
import os
import struct
import sys
import zlib

# (label, versions whose fastest median is the denominator, target, colour).
# A series appears in the chart (legend, bars, target line) only if at least
# one kernel has it; the text table always has both columns.
SERIES = [
    ("amp/kokkos", ("kokkos", "kokkos-team"), 1.03, (31, 119, 180)),
    ("amp/cuda", ("cuda",), 1.10, (230, 115, 0)),
]
CLIP = 4.0  # ratios above this are drawn to the axis end, broken, with the value

# 5x8 font for ASCII 32..126: 8 base-32 digits per glyph, one per row (top
# first), bit 4 = leftmost pixel. Caps and digits use rows 0-6, row 7 is for
# descenders. Generated from hand-drawn '#'/'.' art.
_FONT_DATA = (
    "0000000044444040AA000000AAVAVAA04FKE5U40OP248J30CIK8LID044000000"
    "248884208422248004LEL400044V440000000C48000E000000000CC011248GG0"
    "EHJLPHE04C4444E0EH1248V0V2421HE026AIV220VGU11HE068GUHHE0V1248880"
    "EHHEHHE0EHHF12C00CC0CC000CC0C480248G842000V0V00084212480EH124040"
    "EHNLNGE0EHHVHHH0UHHUHHU0EHGGGHE0UHHHHHU0VGGUGGV0VGGUGGG0EHGNHHF0"
    "HHHVHHH0E44444E072222IC0HIKOKIH0GGGGGGV0HRLLHHH0HHPLJHH0EHHHHHE0"
    "UHHUGGG0EHHHLID0UHHUKIH0FGGE11U0V4444440HHHHHHE0HHHHHA40HHHLLLA0"
    "HHA4AHH0HHA44440V1248GV0E88888E0GG842110E22222E04AH000000000000V"
    "8400000000E1FHF0GGMPHHU000EGGHE011DJHHF000EHVGE0698S888000FHHF1E"
    "GGMPHHH040C444E0206222ICGGIKOKI0C44444E000QLLLL000MPHHH000EHHHE0"
    "00UHHUGG00FHHF1100MPGGG000FGE1U088S8896000HHHJD000HHHA4000HHLLA0"
    "00HA4AH000HHHF1E00V248V03448443044444444O44244O0008L2000"
)
FONT = {chr(32 + i): [int(c, 32) for c in _FONT_DATA[8 * i:8 * i + 8]]
        for i in range(len(_FONT_DATA) // 8)}
SCALE = 2                 # font pixels per glyph pixel
CW, CH = 6 * SCALE, 8 * SCALE  # character advance and cell height

WHITE, BLACK = (255, 255, 255), (0, 0, 0)
GREY, GRID, SHADE = (110, 110, 110), (215, 215, 215), (244, 244, 246)


class InputError(Exception):
    pass


def _number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def load(path):
    """Reads and validates bench.json; returns {(name, version): median_ms}
    plus the kernel names in order of first appearance."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise InputError("cannot read %s: %s" % (path, e.strerror or e))
    except (ValueError, UnicodeDecodeError) as e:
        raise InputError("%s: not valid JSON: %s" % (path, e))
    if not isinstance(data, list):
        raise InputError("%s: top level must be an array of records" % path)
    if not data:
        raise InputError("%s: no records" % path)
    times, names = {}, []
    for i, r in enumerate(data):
        where = "%s: record %d" % (path, i)
        if not isinstance(r, dict):
            raise InputError("%s: not an object" % where)
        for key in ("name", "version"):
            if not isinstance(r.get(key), str) or not r[key]:
                raise InputError("%s: '%s' must be a non-empty string" % (where, key))
        where += " (%s/%s)" % (r["name"], r["version"])
        ms = r.get("median_ms")
        if not _number(ms) or ms <= 0:
            raise InputError("%s: 'median_ms' must be a positive number, got %r" % (where, ms))
        for key in ("gbps", "gflops", "n"):
            if key in r and not _number(r[key]):
                raise InputError("%s: '%s' must be a number, got %r" % (where, key, r[key]))
        k = (r["name"], r["version"])
        if k in times:
            raise InputError("%s: duplicate record for this name and version" % where)
        times[k] = float(ms)
        if r["name"] not in names:
            names.append(r["name"])
    return times, names


def ratios(times, names):
    """[(kernel, [ratio or None per SERIES])] for kernels with an amp record
    and at least one ratio."""
    rows = []
    for name in names:
        amp = times.get((name, "amp"))
        if amp is None:
            continue
        vals = []
        for _, versions, _, _ in SERIES:
            den = [times[(name, v)] for v in versions if (name, v) in times]
            vals.append(amp / min(den) if den else None)
        if any(v is not None for v in vals):
            rows.append((name, vals))
    return rows


class Canvas:
    """RGB framebuffer; all rectangles are half-open [x0, x1) x [y0, y1) and
    clipped to the image."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.buf = bytearray(b"\xff" * (w * h * 3))

    def rect(self, x0, y0, x1, y1, c):
        x0, x1 = max(0, int(x0)), min(self.w, int(x1))
        y0, y1 = max(0, int(y0)), min(self.h, int(y1))
        if x0 >= x1:
            return
        span = bytes(c) * (x1 - x0)
        for y in range(y0, y1):
            o = (y * self.w + x0) * 3
            self.buf[o:o + len(span)] = span

    def vdash(self, x, y0, y1, c, on=6, off=4):
        for y in range(y0, y1, on + off):
            self.rect(x, y, x + 2, min(y + on, y1), c)

    def text(self, x, y, s, c, bg=None):
        """Draws s with its cell's top-left at (x, y); bg fills the cells first."""
        if bg is not None:
            self.rect(x - 2, y - 2, x + text_width(s) + 2, y + CH, bg)
        for i, ch in enumerate(s):
            rows = FONT.get(ch, FONT["?"])
            for r, bits in enumerate(rows):
                for col in range(5):
                    if bits & (16 >> col):
                        px, py = x + i * CW + col * SCALE, y + r * SCALE
                        self.rect(px, py, px + SCALE, py + SCALE, c)

    def png(self):
        """PNG bytes: 8-bit RGB, no interlace, filter type 0 on every row."""
        stride = self.w * 3
        raw = b"".join(b"\x00" + bytes(self.buf[y * stride:(y + 1) * stride])
                       for y in range(self.h))

        def chunk(tag, body):
            return (struct.pack(">I", len(body)) + tag + body
                    + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF))
        return (b"\x89PNG\r\n\x1a\n"
                + chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9))
                + chunk(b"IEND", b""))


def text_width(s):
    return len(s) * CW - SCALE  # no trailing inter-character gap


def axis_range(values, targets):
    """(xmax, step): xmin is 0 so bar lengths are proportional to the ratio;
    xmax covers 1.0, the targets and the (clipped) values with a little room."""
    # With a clipped value the axis ends exactly at CLIP (clipped bars run
    # off its end); otherwise leave 4% room past the largest value.
    hi = CLIP if any(v > CLIP for v in values) else max([1.0] + targets + values) * 1.04
    for step in (0.05, 0.1, 0.2, 0.25, 0.5, 1.0):
        if hi / step <= 8:
            break
    return step * math.ceil(hi / step - 1e-9), step


def fmt(v):
    return "%.3f" % v if v < 100 else "%.0f" % v


def draw(rows, title):
    used = [i for i in range(len(SERIES)) if any(v[i] is not None for _, v in rows)]
    values = [v[i] for _, v in rows for i in used if v[i] is not None]
    xmax, step = axis_range(values, [SERIES[i][2] for i in used])

    bar_h, bar_gap, row_pad = 16, 4, 14
    row_h = len(used) * (bar_h + bar_gap) - bar_gap + row_pad
    label_w = max(text_width(n) for n, _ in rows)
    px0 = 16 + label_w + 12
    right = text_width("99.999") + 24           # room for a value label at xmax
    width = max(1000, text_width(title) + 32, px0 + 480 + right)
    px1 = width - right
    py0 = 16 + CH + 14 + CH + 18                 # below title and legend
    py1 = py0 + len(rows) * row_h
    height = py1 + 12 + CH + 12 + CH + 14        # tick labels, axis caption

    cv = Canvas(width, height)
    X = lambda v: px0 + int(round(v / xmax * (px1 - px0)))

    cv.text(16, 16, title, BLACK)
    # Legend: a swatch per present series, then its dashed target line.
    lx, ly = 16, 16 + CH + 14
    for i in used:
        label, _, target, colour = SERIES[i]
        cv.rect(lx, ly + 1, lx + 24, ly + 13, colour)
        cv.text(lx + 32, ly, label, BLACK)
        lx += 32 + text_width(label) + 22
        for k in range(3):
            cv.rect(lx + k * 10, ly + 6, lx + k * 10 + 6, ly + 8, colour)
        s = "target %.2f" % target
        cv.text(lx + 36, ly, s, BLACK)
        lx += 36 + text_width(s) + 36

    # Row shading, vertical grid, ticks and their labels.
    for r in range(len(rows)):
        if r % 2:
            cv.rect(px0, py0 + r * row_h, px1, py0 + (r + 1) * row_h, SHADE)
    nticks = int(round(xmax / step))
    for t in range(nticks + 1):
        x = X(t * step)
        cv.rect(x, py0, x + 1, py1, GRID)
        cv.rect(x, py1, x + 1, py1 + 6, BLACK)
        s = "%g" % round(t * step, 3)
        cv.text(x - text_width(s) // 2, py1 + 12, s, BLACK)
    cv.rect(px0, py0, px0 + 1, py1 + 1, BLACK)   # y axis
    cv.rect(px0, py1, px1 + 1, py1 + 1, BLACK)   # x axis
    cap = "time ratio = AMP median / other median  (> 1: AMP slower)"
    cx = min(px0 + (px1 - px0 - text_width(cap)) // 2, width - 16 - text_width(cap))
    cv.text(max(16, cx), py1 + 12 + CH + 12, cap, GREY)

    # Bars; a clipped bar runs to the axis end, gets a break mark and an arrow.
    labels = []
    ref_xs = sorted([X(1.0)] + [X(SERIES[i][2]) for i in used])
    for r, (name, vals) in enumerate(rows):
        ytop = py0 + r * row_h + row_pad // 2
        cv.text(px0 - 12 - text_width(name), py0 + r * row_h + (row_h - 14) // 2, name, BLACK)
        for k, i in enumerate(used):
            y = ytop + k * (bar_h + bar_gap)
            v, colour = vals[i], SERIES[i][3]
            if v is None:
                labels.append((px0 + 6, y + 1, "n/a", GREY))
                continue
            end = X(min(v, xmax))
            cv.rect(px0 + 1, y, end, y + bar_h, colour)
            if v > CLIP:
                for dy in range(bar_h):   # white slanted gap: "axis broken"
                    cv.rect(end - 28 + dy // 2, y + dy, end - 24 + dy // 2, y + dy + 1, WHITE)
                for dx in range(bar_h // 2 + 1):   # arrowhead pointing right
                    cv.rect(end + dx, y + dx, end + dx + 1, y + bar_h - dx, colour)
                end += bar_h // 2 + 2
            # Keep the label (with its white background) off the reference
            # lines: start it after any line it would cover.
            x, tw = end + 6, text_width(fmt(v))
            for lx in ref_xs:
                if x - 4 <= lx + 2 and lx - 2 <= x + tw + 3:
                    x = lx + 8
            labels.append((x, y + 1, fmt(v), BLACK))

    # Reference lines above the bars, value labels above everything.
    cv.rect(X(1.0) - 1, py0, X(1.0) + 1, py1, BLACK)
    for i in used:
        cv.vdash(X(SERIES[i][2]), py0, py1, tuple(c * 3 // 4 for c in SERIES[i][3]))
    for x, y, s, c in labels:
        cv.text(x, y, s, c, bg=WHITE)
    return cv


def table(rows):
    w = max([len("kernel")] + [len(n) for n, _ in rows])
    out = ["%-*s" % (w, "kernel") + "".join("  %10s" % s[0] for s in SERIES)]
    for name, vals in rows:
        out.append("%-*s" % (w, name) + "".join(
            "  %10s" % ("-" if v is None else "%.3f" % v) for v in vals))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Draw the amp/kokkos and amp/cuda ratios of a bench.json as a PNG.")
    ap.add_argument("json", help="bench.json written by amp_bench_host / amp_bench_gpu")
    ap.add_argument("-o", "--output", required=True, help="PNG file to write")
    ap.add_argument("--title", help="chart title (default: derived from the input path)")
    args = ap.parse_args(argv)
    try:
        times, names = load(args.json)
        rows = ratios(times, names)
        if not rows:
            raise InputError("%s: no kernel has an 'amp' record together with "
                             "'kokkos'/'kokkos-team' or 'cuda'" % args.json)
        title = args.title
        if title is None:
            full = os.path.abspath(args.json)
            short = os.path.join(os.path.basename(os.path.dirname(full)), os.path.basename(full))
            title = "amp_compat benchmark time ratios: " + short
        print(table(rows))
        png = draw(rows, title).png()
        with open(args.output, "wb") as f:
            f.write(png)
    except InputError as e:
        sys.exit("plot.py: error: %s" % e)
    except OSError as e:
        sys.exit("plot.py: error: cannot write %s: %s" % (args.output, e.strerror or e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
