# Specialization: -D for constexprs, a signature of runtime parameters only, annotations in
# the source, defaults, and the :16 / :1 hints kept on the function.
# RUN: %tilecc %s -k spec -s "*fp32:16, i32:16, i32:1" -D BLOCK=64 -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %s -k spec -s "*fp32:16, i32:16, i32:1, 32, False" | FileCheck %s --check-prefix=FULL
# RUN: %tilecc %s -k annotated -D BLOCK=16 | FileCheck %s --check-prefix=ANNOT
import triton
import triton.language as tl


@triton.jit
def spec(x_ptr, n, stride, BLOCK: tl.constexpr, FLAG: tl.constexpr = True):
    offs = tl.arange(0, BLOCK) * stride
    x = tl.load(x_ptr + offs, mask=offs < n)
    if FLAG:
        x = x + 1.0
    tl.store(x_ptr + offs, x, mask=offs < n)


@triton.jit
def annotated(x_ptr: "*fp16:16", n: "i64", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2, mask=offs < n)
