# A runtime value where a compile-time constant is required.
# RUN: not %tilecc %s -k k1 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=ARANGE
# RUN: not %tilecc %s -k k2 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=HELPER
import triton
import triton.language as tl


@triton.jit
def k1(x_ptr, n):
    offs = tl.arange(0, n)
# ARANGE: not-constexpr.py:[[@LINE-1]]:25: error: {{.*}}must be a constexpr integer, but it is a runtime int32 scalar known only at run time


@triton.jit
def h(x, B: tl.constexpr):
    # B is annotated tl.constexpr, but as in Triton a runtime argument is accepted: only a
    # use that needs a compile-time value fails, here, inside the helper
    return x + tl.arange(0, B)


@triton.jit
def k2(x_ptr, n):
    y = h(1, n)
# HELPER: not-constexpr.py:18:29: error: {{.*}}must be a constexpr integer, but it is a runtime int32 scalar known only at run time
