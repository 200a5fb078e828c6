// Reference for ports/texture_edges.cpp without AMP: the same image, Direct3D's
// sampling rules written out (bilinear taps at texel corners, clamped point
// reads), 8-bit UNORM storage (n / 255 on read, round(x * 255) on write).
#include <cassert>
#include <cstdio>
#include <vector>

static const int W = 64, H = 32;

static float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }
static unsigned char to_unorm8(float v) { return (unsigned char)(clamp01(v) * 255.0f + 0.5f); }
static float from_unorm8(unsigned char b) { return b / 255.0f; }
static int clampi(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

int main()
{
    std::vector<unsigned char> rgba(W * H * 4);
    for (int r = 0; r < H; ++r)
        for (int c = 0; c < W; ++c)
        {
            unsigned char* p = &rgba[(r * W + c) * 4];
            const int dx = c - 20, dy = r - 15;
            p[0] = (unsigned char)(c * 4);
            p[1] = (dx * dx + dy * dy < 100) ? 220 : 30;
            p[2] = (c >= 38 && c < 58 && r >= 6 && r < 26) ? 255 : 0;
            p[3] = 255;
        }
    // Bilinear sample at texel corner (x, y) (in texels): the four texels
    // around it, weights 1/2, blended along x then y, clamped to [0, 1].
    auto corner = [&](int x, int y, int ch) {
        const float f = 0.5f;
        float v[4];
        for (int k = 0; k < 4; ++k)
            v[k] = from_unorm8(rgba[(clampi(y - 1 + (k >> 1), H) * W + clampi(x - 1 + (k & 1), W)) * 4 + ch]);
        const float top = v[0] * (1.0f - f) + v[1] * f, bottom = v[2] * (1.0f - f) + v[3] * f;
        return clamp01(top * (1.0f - f) + bottom * f);
    };
    std::vector<unsigned char> grey(W * H), e(W * H);
    for (int r = 0; r < H; ++r)
        for (int c = 0; c < W; ++c)
        {
            float sum = 0.0f;
            for (int dy = 0; dy < 2; ++dy)
                for (int dx = 0; dx < 2; ++dx)
                    sum += (corner(c + dx, r + dy, 0) + 2.0f * corner(c + dx, r + dy, 1) + corner(c + dx, r + dy, 2)) * 0.25f;
            grey[r * W + c] = to_unorm8(sum * 0.25f);
        }
    for (int r = 0; r < H; ++r)
        for (int c = 0; c < W; ++c)
        {
            float p[3][3];
            for (int dr = -1; dr <= 1; ++dr)
                for (int dc = -1; dc <= 1; ++dc)
                    p[dr + 1][dc + 1] = from_unorm8(grey[clampi(r + dr, H) * W + clampi(c + dc, W)]);
            const float gx = (p[0][2] + 2.0f * p[1][2] + p[2][2]) - (p[0][0] + 2.0f * p[1][0] + p[2][0]);
            const float gy = (p[2][0] + 2.0f * p[2][1] + p[2][2]) - (p[0][0] + 2.0f * p[0][1] + p[0][2]);
            e[r * W + c] = to_unorm8(((gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy)) * 0.5f);
        }
    const char* shades = " .:-=+*#%@";
    for (int r = 0; r < H; ++r)
    {
        for (int c = 0; c < W; ++c) std::putchar(shades[e[r * W + c] * 10 / 256]);
        std::putchar('\n');
    }
    int hist[4] = {0, 0, 0, 0};
    unsigned long sum = 0, gsum = 0;
    for (int i = 0; i < W * H; ++i)
    {
        hist[e[i] / 64]++;
        sum += e[i] * (unsigned long)(i % 251 + 1);
        gsum += grey[i];
    }
    assert(grey[15 * W + 20] > grey[0]); // the disc is brighter than the corner
    std::printf("edge histogram (0-63, 64-127, 128-191, 192-255): %d %d %d %d\n", hist[0], hist[1], hist[2], hist[3]);
    std::printf("grey[15][20] = %d, grey[0][63] = %d, grey sum = %lu\n", grey[15 * W + 20], grey[63], gsum);
    std::printf("edge checksum = %lu\n", sum);
    return 0;
}
