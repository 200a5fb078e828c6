// Evidence for tests/corpora/README.md (not a CTest): AMD Bolt's radix-sort
// histogram shift (include/bolt/amp/detail/sort.inl, "may cause race
// condition"), `h[16 + l] = h[16 + l - 1]` with no barrier between the read
// and the neighbour's write, in hand-written CUDA, so that what it does on an
// NVIDIA GPU is seen without amp_compat. bolt_radix_race.cpp is the same in
// C++ AMP.
//  - "one warp": Bolt's layout, the 16 work-items are lanes 0-15 of one warp;
//    NVIDIA's warps usually run them in lockstep (every lane reads, then every
//    lane writes), as AMD's wavefronts do, so the result is usually right,
//    yet CUDA promises no such order since Volta (independent thread
//    scheduling) and `compute-sanitizer --tool racecheck` reports the hazard.
//  - "16 warps": the same statement with the 16 work-items in 16 warps of the
//    block (work-item l is thread 32 l): the warps run in any order, as a
//    host accelerator's work-items run one after another, and blocks come out
//    wrong.
//  - "barrier": the read and the write on either side of __syncthreads():
//    right everywhere.
// Build (no GPU needed):
//   clang++-22 -O2 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda bolt_radix_race.cu \
//     -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -pthread -o bolt_radix_race_cuda
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

constexpr int buckets = 16;
static int blocks = 4096; // argv[1] if given (fewer for compute-sanitizer)

template <int Stride, bool Barrier> __global__ void shift(unsigned* out) {
  __shared__ unsigned h[buckets * 2];
  const int t = threadIdx.x, l = t / Stride;
  const bool item = t % Stride == 0 && l < buckets;
  if (item) {
    h[l] = 0;
    h[buckets + l] = 100 * (blockIdx.x % 1000 + 1) + l; // each bucket's count
  }
  __syncthreads();
  if (Barrier) {
    unsigned left = 0;
    if (item) left = h[buckets + l - 1];
    __syncthreads();
    if (item) h[buckets + l] = left;
  } else if (item) {
    h[buckets + l] = h[buckets + l - 1]; // Bolt's statement
  }
  __syncthreads();
  if (item) out[blockIdx.x * buckets + l] = h[buckets + l];
}

// Blocks whose shifted histogram is wrong.
template <int Stride, bool Barrier> int wrong_blocks() {
  unsigned* d = nullptr;
  std::vector<unsigned> v(blocks * buckets);
  if (const cudaError_t e = cudaMalloc(&d, v.size() * sizeof(unsigned)); e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return -1;
  }
  shift<Stride, Barrier><<<blocks, Stride == 1 ? 64 : 32 * buckets>>>(d);
  const cudaError_t e = cudaMemcpy(v.data(), d, v.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaFree(d);
  if (e != cudaSuccess) {
    std::printf("CUDA error: %s\n", cudaGetErrorString(e));
    return -1;
  }
  int wrong = 0;
  for (int b = 0; b < blocks; ++b)
    for (int l = 0; l < buckets; ++l)
      if (v[b * buckets + l] != (l == 0 ? 0u : 100u * (b % 1000 + 1) + l - 1)) {
        ++wrong;
        break;
      }
  return wrong;
}

int main(int argc, char** argv) {
  if (argc > 1) blocks = std::atoi(argv[1]);
  const int warp = wrong_blocks<1, false>(), warps = wrong_blocks<32, false>(), barrier = wrong_blocks<1, true>(),
            barrier16 = wrong_blocks<32, true>();
  std::printf("racy, 16 lanes of one warp (Bolt's layout): %d of %d blocks wrong\n", warp, blocks);
  std::printf("racy, 16 work-items in 16 warps: %d of %d blocks wrong\n", warps, blocks);
  std::printf("barrier: %d and %d of %d blocks wrong\n", barrier, barrier16, blocks);
  return barrier == 0 && barrier16 == 0 ? 0 : 1;
}
