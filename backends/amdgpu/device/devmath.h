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
double __tilecc_dm_tan(double x);
double __tilecc_dm_asin(double x);
double __tilecc_dm_acos(double x);
double __tilecc_dm_atan(double x);
double __tilecc_dm_sinh(double x);
double __tilecc_dm_cosh(double x);
double __tilecc_dm_log1p(double x);
double __tilecc_dm_expm1(double x);
double __tilecc_dm_log10(double x);
double __tilecc_dm_exp10(double x);
double __tilecc_dm_cbrt(double x);
double __tilecc_dm_erfinv(double x);
double __tilecc_dm_pow(double x, double y);
double __tilecc_dm_atan2(double y, double x);
double __tilecc_dm_fmod(double x, double y);
double __tilecc_dm_hypot(double x, double y);
int __tilecc_dm_ilogb(double x);

#endif
