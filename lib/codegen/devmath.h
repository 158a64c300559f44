/* devmath.h: the AMD GPU math library as LLVM bitcode, embedded in libtilecc.
 *
 * backends/amdgpu/device/devmath.c defines, for amdgcn-amd-amdhsa, the fp64 functions
 * LLVM's AMDGPU backend cannot lower by itself (backends/amdgpu/device/devmath.h lists
 * them): double __tilecc_dm_NAME(double) for exp, exp2, log, log2, sin, cos, tanh, erf,
 * tan, asin, acos, atan, sinh, cosh, log1p, expm1, log10, exp10, cbrt, erfinv; double
 * __tilecc_dm_NAME(double, double) for pow, atan2, fmod, hypot; int __tilecc_dm_ilogb(double).
 * The build compiles it with clang 19 (lib/CMakeLists.txt) and embeds the bitcode here.
 * A kernel module that calls them links this bitcode in (LLVMParseBitcodeInContext2,
 * LLVMLinkModules2), then internalizes it. The functions carry no target-cpu or
 * target-features, so the inliner judges them by the target machine's CPU: run the pass
 * pipeline with a target machine made for the kernel's CPU (or copy the kernel's
 * "target-cpu" and "target-features" onto them), or they will stay calls. Their
 * "denormal-fp-math" is "dynamic": any kernel's mode will do. Static data: nobody frees
 * it.
 *
 * Without clang 19 at build time TILECC_HAVE_DEVMATH is undefined and these symbols do
 * not exist: the AMD backend must then refuse kernels that need these functions. */
#ifndef TILECC_CODEGEN_DEVMATH_H
#define TILECC_CODEGEN_DEVMATH_H

#if TILECC_HAVE_DEVMATH
/* The bitcode file, byte for byte (16-byte aligned). */
extern const unsigned char tilecc_devmath_amdgpu_bc[];
/* Its size in bytes. */
extern const unsigned long tilecc_devmath_amdgpu_bc_len;
#endif

#endif
