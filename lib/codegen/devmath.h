/* devmath.h: tilecc's AMD device library (backends/amdgpu/device/devmath.c) as amdgcn
 * bitcode, compiled by clang-19 when tilecc is built and linked into kernels that need it.
 * Present when TILECC_HAVE_DEVMATH is defined. */
#ifndef TILECC_CODEGEN_DEVMATH_H
#define TILECC_CODEGEN_DEVMATH_H

#ifdef TILECC_HAVE_DEVMATH
extern const unsigned char tilecc_devmath_amdgpu_bc[];
extern const unsigned long tilecc_devmath_amdgpu_bc_len;
#endif

#endif
