# jit helpers are inlined: positional, keyword and default arguments, tuple returns,
# constexpr parameters, helpers calling helpers, and module-level constants.
# RUN: %tilecc %s -k kernel -s "*fp32:16, *fp32:16, i32:16" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import triton
import triton.language as tl

BLOCK_SIZE: tl.constexpr = 256
SCALE = 3


@triton.jit
def square(x):
    return x * x


@triton.jit
def moments(x, n, SQUARE: tl.constexpr = True):
    s = tl.sum(x, axis=0)
    if SQUARE:
        q = tl.sum(square(x), axis=0)
    else:
        q = s
    return s / n, q / n


@triton.jit
def kernel(x_ptr, out_ptr, n):
    offs = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    mean, meansq = moments(x, n)
    a, b = moments(x, n=n, SQUARE=False)
    tl.store(out_ptr + 0, mean * SCALE)
    tl.store(out_ptr + 1, meansq - mean * mean)
    tl.store(out_ptr + 2, a + b)

# Both calls are inlined; SQUARE=False makes q the same sum, so a + b adds one value twice.
# CHECK-LABEL: func @kernel(
# CHECK-NOT: call
# CHECK: %s = reduce %x {axis = 0} : f32 {
# CHECK: %[[SQ:.*]] = mulf %x, %x : tile<256xf32>
# CHECK-NEXT: %q = reduce %[[SQ]] {axis = 0} : f32 {
# CHECK: %[[N:.*]] = itof %n : f32
# CHECK-NEXT: %mean = divf %s, %[[N]] : f32
# CHECK-NEXT: %meansq = divf %q, %[[N]] : f32
# CHECK: %a = divf %s_1, %[[N]] : f32
# module constant SCALE = 3 is a weak int, so the product stays f32
# CHECK: constant {value = 3.0} : f32
# CHECK: addf %a, %a : f32
