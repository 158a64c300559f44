# A compile-time value that a loop body really re-binds to something else, and a
# @tl.constexpr function given a runtime value or returning one.
# RUN: not %tilecc %s -k k1 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=LOOP
# RUN: not %tilecc %s -k k2 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=ARG
# RUN: not %tilecc %s -k k3 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=RET
import triton
import triton.language as tl


@tl.constexpr
def twice(v):
    return v * 2


@triton.jit
def k1(x_ptr, n):
    p = None
    for i in range(n):
        p = x_ptr + i
# LOOP: compile-time-values.py:[[@LINE-2]]:5: error: variable 'p' holds None before the loop, which cannot change at run time


@triton.jit
def k2(x_ptr, n):
    tl.store(x_ptr, twice(n))
# ARG: compile-time-values.py:[[@LINE-1]]:27: error: the @tl.constexpr function 'twice' runs at compile time, but this argument is


@tl.constexpr
def leaks(v):
    return tl.arange(0, v)


@triton.jit
def k3(x_ptr, n):
    tl.store(x_ptr, leaks(16))
# RET: compile-time-values.py:[[@LINE-1]]:21: error: the @tl.constexpr function 'leaks' returned a tensor [16] of int32, not a compile-time value
