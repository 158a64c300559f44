# tl.range and tl.static_range take (arg1, arg2=None, step=None) as keywords too, as Triton's
# classes do (FlagGems' flash attention writes tl.range(0, n, step=BLOCK_N)); None is the
# default.
# RUN: %tilecc %s -k k -s "*fp32, i32, 16" --emit=tir | FileCheck %s
# RUN: not %tilecc %s -k twice -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=TWICE
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    acc = 0.0
    for i in tl.range(0, n, step=BLOCK):
        acc += tl.load(x_ptr + i)
    for i in tl.range(arg1=1, arg2=n, step=None, num_stages=2):
        acc += tl.load(x_ptr + i)
    for i in tl.range(n, None):
        acc += 1.0
    for j in tl.static_range(0, 4, step=2):
        acc += j
    tl.store(x_ptr, acc)
# CHECK-LABEL: func @k(
# CHECK: %[[B:[0-9]+]] = constant {value = 16} : i32
# CHECK: for %{{[0-9]+}}, %n, %[[B]],
# CHECK: %[[ONE:[0-9]+]] = constant {value = 1} : i32
# CHECK: for %[[ONE]], %n, %{{[0-9]+}}, {{.*}} {num_stages = 2}
# CHECK: for %{{[0-9]+}}, %n, %{{[0-9]+}},


@triton.jit
def twice(x_ptr, n):
    for i in tl.range(0, n, 2, step=2):
        tl.store(x_ptr + i, 1.0)
# TWICE: range-keywords.py:[[@LINE-2]]:32: error: range got multiple values for argument 'step'
