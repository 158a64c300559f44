# Specialization: -D for constexprs, a signature of runtime parameters only, annotations in
# the source, defaults, and the :16 / :1 hints kept on the function.
# RUN: %tilecc %s -k spec -s "*fp32:16, i32:16, i32:1" -D BLOCK=64 -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
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

# CHECK: func @spec(%x_ptr: ptr<f32> {divisibility = 16}, %n: i32 {divisibility = 16}, %stride: i32 {equal_to_1}) attributes {num_warps = 4} {
# CHECK-NEXT: %offs = make_range {end = 64, start = 0} : tile<64xi32>
# stride is the constant 1 inside the kernel: no multiplication is left
# CHECK-NOT: muli
# FLAG defaults to True
# CHECK: %x_1 = addf %x
# FULL: func @spec(
# FULL-NEXT: make_range {end = 32, start = 0}
# FULL-NOT: addf
# ANNOT: func @annotated(%x_ptr: ptr<f16> {divisibility = 16}, %n: i64) attributes {num_warps = 4} {
# ANNOT: %[[O64:.*]] = exti %offs : tile<16xi64>
# ANNOT: cmpi %[[O64]], %{{.*}} {pred = "lt"} : tile<16xi1>
