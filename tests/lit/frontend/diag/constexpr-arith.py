# Constant folding of '**' (and math.pow) and float-to-integer constants: Python's errors, located, not
# C's inf, nan or undefined conversions (found by fuzz_frontend); and '**' by squaring,
# so a large exponent of 1 or -1 folds at once.
# RUN: not %tilecc %s -k zero_neg -s "*fp32" 2>&1 | FileCheck %s --check-prefix=ZERO
# RUN: not %tilecc %s -k zero_negf -s "*fp32" 2>&1 | FileCheck %s --check-prefix=ZEROF
# RUN: not %tilecc %s -k fovf -s "*fp32" 2>&1 | FileCheck %s --check-prefix=FOVF
# RUN: not %tilecc %s -k frac -s "*fp32" 2>&1 | FileCheck %s --check-prefix=FRAC
# RUN: not %tilecc %s -k inf_int -s "*u16" 2>&1 | FileCheck %s --check-prefix=INF
# RUN: not %tilecc %s -k big_int -s "*i64" 2>&1 | FileCheck %s --check-prefix=BIG
# RUN: not %tilecc %s -k iovf -s "*i64" 2>&1 | FileCheck %s --check-prefix=IOVF
# RUN: not %tilecc %s -k mpow -s "*fp32" 2>&1 | FileCheck %s --check-prefix=MPOW
# RUN: %tilecc %s -k ones -s "*i64" --emit=tir 2>&1 | FileCheck %s --check-prefix=ONES
import math

import triton
import triton.language as tl


@triton.jit
def zero_neg(x):
    tl.store(x, 0 ** -1)
# ZERO: constexpr-arith.py:[[@LINE-1]]:17: error: 0.0 cannot be raised to a negative power


@triton.jit
def zero_negf(x):
    tl.store(x, 0.0 ** -2.5)
# ZEROF: constexpr-arith.py:[[@LINE-1]]:17: error: 0.0 cannot be raised to a negative power


@triton.jit
def fovf(x):
    tl.store(x, 10.0 ** 400)
# FOVF: constexpr-arith.py:[[@LINE-1]]:17: error: float overflow in a constant expression


@triton.jit
def frac(x):
    tl.store(x, (-8.0) ** 0.5)
# FRAC: constexpr-arith.py:[[@LINE-1]]:17: error: a negative number raised to a fractional power


@triton.jit
def inf_int(x):
    tl.store(x, tl.full((), float("inf"), tl.uint16))
# INF: constexpr-arith.py:[[@LINE-1]]:17: error: cannot convert float infinity to integer


@triton.jit
def big_int(x):
    tl.store(x, tl.full((), 1e30, tl.int64))
# BIG: constexpr-arith.py:[[@LINE-1]]:17: error: 1e+30 does not fit in a 64-bit integer


@triton.jit
def iovf(x):
    tl.store(x, 3 ** 41)
# IOVF: constexpr-arith.py:[[@LINE-1]]:17: error: integer overflow in a constant expression


@triton.jit
def mpow(x):
    tl.store(x, math.pow(2.0, 2000))
# MPOW: constexpr-arith.py:[[@LINE-1]]:17: error: float overflow in a constant expression: 2 ** 2000


@triton.jit
def ones(x):
    tl.store(x, 1 ** 1000000000000000000 + (-1) ** 999999999999999999 + 3 ** 39)
# ONES: 4052555153018976267
