# Wrong arity and unknown keywords, for builtins and for jit helpers.
# RUN: not %tilecc %s -k k1 -s "*fp32, 64" 2>&1 | FileCheck %s --check-prefix=KW
# RUN: not %tilecc %s -k k2 -s "*fp32, 64" 2>&1 | FileCheck %s --check-prefix=MANY
# RUN: not %tilecc %s -k k3 -s "*fp32, 64" 2>&1 | FileCheck %s --check-prefix=HELPER
# RUN: not %tilecc %s -k k4 -s "*fp32, 64" 2>&1 | FileCheck %s --check-prefix=MISSING
import triton
import triton.language as tl


@triton.jit
def helper(x, y):
    return x + y


@triton.jit
def k1(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, maks=offs < 3)
# KW: arity.py:[[@LINE-1]]:31: error: 'tl.load' got an unexpected keyword argument 'maks'
# KW-NEXT: x = tl.load(x_ptr + offs, maks=offs < 3)


@triton.jit
def k2(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK, 2)
# MANY: arity.py:[[@LINE-1]]:12: error: {{.*}}arange{{.*}} at most 2 {{.*}}3


@triton.jit
def k3(x_ptr, BLOCK: tl.constexpr):
    offs = helper(1, 2, 3)
# HELPER: arity.py:[[@LINE-1]]:12: error: 'helper' takes 2 arguments but 3 were given


@triton.jit
def k4(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0)
# MISSING: arity.py:[[@LINE-1]]:12: error: {{.*}}arange{{.*}}missing required argument 'end'
