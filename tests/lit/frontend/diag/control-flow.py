# Control flow that Triton does not allow: break, continue, type changes across branches or
# iterations, and return inside loops.
# RUN: not %tilecc %s -k k1 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=BREAK
# RUN: not %tilecc %s -k k2 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=BRANCH
# RUN: not %tilecc %s -k k3 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=LOOP
# RUN: not %tilecc %s -k k4 -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=RETURN
import triton
import triton.language as tl


@triton.jit
def k1(x_ptr, n):
    for i in range(n):
        break
# BREAK: control-flow.py:[[@LINE-1]]:9: error: unsupported Python construct: break


@triton.jit
def k2(x_ptr, n):
    x = 1.0
    if n > 0:
        x = n
    tl.store(x_ptr, x)
# BRANCH: control-flow.py:[[@LINE-3]]:5: error: variable 'x' has type int32 in one branch and fp32 in the other


@triton.jit
def k3(x_ptr, n):
    x = 0
    for i in range(n):
        x = x + 0.5
# LOOP: control-flow.py:[[@LINE-2]]:5: error: loop-carried variable 'x' has type int32 before the loop but fp32 at the end of an iteration


@triton.jit
def k4(x_ptr, n):
    for i in range(n):
        if i > 2:
            return
# RETURN: control-flow.py:[[@LINE-3]]:5: error: return inside a loop is not supported
