# A compile-time value that a loop body really re-binds to something else.
# RUN: not %tilecc %s -k k1 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=LOOP
import triton
import triton.language as tl


@triton.jit
def k1(x_ptr, n):
    p = None
    for i in range(n):
        p = x_ptr + i
# LOOP: compile-time-values.py:[[@LINE-2]]:5: error: variable 'p' holds None before the loop, which cannot change at run time
