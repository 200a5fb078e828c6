// Image processing with textures (amp_graphics.h), in the style of the C++ AMP
// book's texture chapter: an RGBA image (8 bits per channel) is blurred into a
// grey-level texture with four bilinear samples per pixel (a 3x3 tent filter),
// then a Sobel edge filter reads that texture with point sampling and clamped
// addressing and writes an 8-bit edge texture through a writeonly view.
// Prints the edge image as ASCII art, a histogram and a checksum.
//
// All arithmetic is exact or identical on every accelerator: coordinates are
// multiples of 1/64 and 1/32, filter weights 1/2, and the kernels only add,
// subtract and scale by powers of two.
#include <amp.h>
#include <amp_graphics.h>
#include <cstdio>
#include <vector>

using namespace concurrency;
using namespace concurrency::graphics;

static const int W = 64, H = 32;

float Abs(float x) restrict(amp, cpu) { return x < 0.0f ? -x : x; }

int main()
{
    // A horizontal gradient in red, a green disc and a blue rectangle.
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

    texture<unorm_4, 2> image(extent<2>(H, W), rgba.data(), (unsigned int)rgba.size(), 8U);
    texture<unorm, 2> grey(H, W, 8U);
    texture<unorm, 2> edges(H, W, 8U);

    // Pass 1: grey = (r + 2g + b) / 4, blurred by sampling at the four texel corners.
    parallel_for_each(grey.extent, [=, &image, &grey](index<2> idx) restrict(amp)
    {
        texture_view<const unorm_4, 2> src(image);
        const sampler bilinear(filter_linear, address_clamp);
        float sum = 0.0f;
        for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx)
            {
                const float_4 p(src.sample(bilinear, float_2((idx[1] + dx) / float(W), (idx[0] + dy) / float(H))));
                sum += (p.r + 2.0f * p.g + p.b) * 0.25f;
            }
        grey.set(idx, unorm(sum * 0.25f));
    });

    // Pass 2: Sobel, (|gx| + |gy|) / 2.
    writeonly_texture_view<unorm, 2> out(edges);
    parallel_for_each(edges.extent, [=, &grey](index<2> idx) restrict(amp)
    {
        texture_view<const unorm, 2> g(grey);
        const sampler point(filter_point, address_clamp);
        float p[3][3];
        for (int dr = -1; dr <= 1; ++dr)
            for (int dc = -1; dc <= 1; ++dc)
                p[dr + 1][dc + 1] = g.sample(point, float_2((idx[1] + dc + 0.5f) / float(W), (idx[0] + dr + 0.5f) / float(H)));
        const float gx = (p[0][2] + 2.0f * p[1][2] + p[2][2]) - (p[0][0] + 2.0f * p[1][0] + p[2][0]);
        const float gy = (p[2][0] + 2.0f * p[2][1] + p[2][2]) - (p[0][0] + 2.0f * p[0][1] + p[0][2]);
        out.set(idx, unorm((Abs(gx) + Abs(gy)) * 0.5f));
    });

    std::vector<unsigned char> e(W * H), gr(W * H);
    copy(edges, e.data(), (unsigned int)e.size());
    copy(grey, gr.data(), (unsigned int)gr.size());

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
        gsum += gr[i];
    }
    std::printf("edge histogram (0-63, 64-127, 128-191, 192-255): %d %d %d %d\n", hist[0], hist[1], hist[2], hist[3]);
    std::printf("grey[15][20] = %d, grey[0][63] = %d, grey sum = %lu\n", gr[15 * W + 20], gr[63], gsum);
    std::printf("edge checksum = %lu\n", sum);
    return 0;
}
