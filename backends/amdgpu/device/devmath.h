/* devmath.h: the functions of tilecc's AMD GPU math library (devmath.c), which the AMD
 * lowering calls (backends/amdgpu/isa.c) and tests/unit/test_devmath.c checks natively. */
#ifndef TILECC_BACKENDS_AMDGPU_DEVMATH_H
#define TILECC_BACKENDS_AMDGPU_DEVMATH_H

double __tilecc_dm_exp(double x);
double __tilecc_dm_exp2(double x);
double __tilecc_dm_log(double x);
double __tilecc_dm_log2(double x);
double __tilecc_dm_sin(double x);
double __tilecc_dm_cos(double x);
double __tilecc_dm_tanh(double x);
double __tilecc_dm_erf(double x);

#endif
