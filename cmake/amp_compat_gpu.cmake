# What a GPU build of amp_compat code needs beyond the GPU Kokkos' own flags
# (which already carry -x cuda / --offload-arch and the GPU runtime). Used by
# this project's build (AMP_CUDA=ON or AMP_HIP=ON) and by the installed package
# config when the Kokkos it finds has CUDA or HIP, so the two cannot drift
# apart. The backend is the Kokkos' (Kokkos_DEVICES).
function(amp_compat_gpu_options target)
  if("HIP" IN_LIST Kokkos_DEVICES)
    amp_compat_hip_options(${target})
    return()
  endif()
  # Self-contained GPU binaries: static C++ runtime, libomp found beside them.
  # What GCC and nvcc take with a warning and Clang refuses (GCC_LENIENCE of
  # scripts/amp_driver/options.py): `register` locals, narrowing in braces,
  # a macro right after a string literal.
  target_compile_options(${target} INTERFACE -Wno-unknown-cuda-version -Wno-cuda-compat -Wno-register
    -Wno-c++11-narrowing -Wno-reserved-user-defined-literal)
  # Floating-point contraction is set with the host's (amp_compat_fp.cmake):
  # off unless AMP_FAST_MATH. Denormals are kept on the GPU as on the host
  # (Clang's default; explicit, so that no later default can change it).
  # sqrtf is correctly rounded as on the host: libdevice's __nv_sqrtf takes
  # sqrt.approx.f32 unless __CUDA_PREC_SQRT is 1, which nvcc sets by default
  # and Clang does not.
  target_compile_options(${target} INTERFACE -fno-gpu-flush-denormals-to-zero
    "SHELL:-mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1")
  # Device code at -O2 whatever the host's level: at -O3 Clang unrolls the
  # simple matmul's loop 4x and, within the 32 registers of full occupancy,
  # ptxas no longer batches its loads: 49.8 ms against 24.0 ms at -O2 (H100,
  # bench/RESULTS.md). Tiled kernels ran the same at both levels. A target
  # with the property AMP_KEEP_DEVICE_OPT set keeps its own level.
  target_compile_options(${target} INTERFACE
    "$<$<AND:$<NOT:$<CONFIG:Debug>>,$<NOT:$<BOOL:$<TARGET_PROPERTY:AMP_KEEP_DEVICE_OPT>>>>:SHELL:-Xarch_device -O2>")
  target_link_options(${target} INTERFACE -static-libstdc++ -static-libgcc "LINKER:-rpath,\$ORIGIN")
endfunction()

# The AMD GPU build: hipcc (ROCm's clang) against a HIP Kokkos, which adds
# --offload-arch and -fno-gpu-rdc. The same results as the host: denormals
# kept (gfx9 and later keep float denormals by default; explicit, as for
# CUDA), float division and sqrt correctly rounded (the device library's
# correctly-rounded variants, hipcc's default, made explicit), contraction off
# unless AMP_FAST_MATH (amp_compat_fp.cmake; hipcc would contract otherwise).
# The HIP runtime (libamdhip64) is a shared library (Debian's ROCm has no static
# one): the system's, or the HIP bundle's copy (its run.sh sets the library
# path). $ORIGIN: libraries put beside a program are found there.
function(amp_compat_hip_options target)
  # -fgpu-exclude-wrong-side-overloads: unqualified math calls in kernels under
  # `using namespace precise_math` find AMP's functions in the host pass, not
  # HIP's device-only ones (scripts/amp++ says more).
  target_compile_options(${target} INTERFACE -Wno-cuda-compat -Wno-register -Wno-c++11-narrowing
    -Wno-reserved-user-defined-literal -fno-gpu-flush-denormals-to-zero
    -fhip-fp32-correctly-rounded-divide-sqrt -fgpu-exclude-wrong-side-overloads)
  target_link_options(${target} INTERFACE "LINKER:-rpath,\$ORIGIN")
endfunction()
