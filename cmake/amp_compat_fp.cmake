# Floating-point contraction of amp_compat code, host and GPU alike (the same
# rule as scripts/amp++). By default -ffp-contract=off: a*b+c stays a multiply
# and an add on every accelerator, so kernels give the same bits on the GPU
# (Clang's CUDA compiles contract by default) and on the host (GCC contracts
# under GNU dialects and wherever -march enables FMA; x86-64 without -march
# does not). A target with the property AMP_FAST_MATH set (or every target of
# this project's build with -DAMP_FAST_MATH=ON) is compiled with contraction
# on, as `./amp c++ --fast-math` is: GCC -ffp-contract=fast, Clang
# fast-honor-pragmas, which keeps `#pragma clang fp contract(off)` regions
# (the texture arithmetic, graphics/format.h) unfused.
function(amp_compat_fp_options target)
  # Clang before 16 (hipcc's clang-15, the HIP build) has no driver spelling of
  # fast-honor-pragmas: `on` (fused within an expression) keeps the pragmas too.
  set(fast "$<IF:$<CXX_COMPILER_ID:GNU>,-ffp-contract=fast,$<IF:$<VERSION_LESS:$<CXX_COMPILER_VERSION>,16>,-ffp-contract=on,-ffp-contract=fast-honor-pragmas>>")
  target_compile_options(${target} INTERFACE
    "$<IF:$<BOOL:$<TARGET_PROPERTY:AMP_FAST_MATH>>,${fast},-ffp-contract=off>")
endfunction()
