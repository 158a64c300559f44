# RUN: not %tilecc %s -k k -s "*fp32" 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    a = tl.arange(0, 32)
    b = tl.arange(0, 64)
    tl.store(x_ptr + a, a + b)
# CHECK: shape-mismatch.py:[[@LINE-1]]:25: error: incompatible shapes [32] and [64] for '+'
# CHECK-NEXT: tl.store(x_ptr + a, a + b)
# CHECK-NEXT: {{^}}                        ^~~~~{{$}}
