# RUN: not %tilecc %s -k k -s "*fp32" 2>&1 | FileCheck %s
import triton
import triton.language as tl


@triton.jit
def k(x_ptr):
    offs = tl.arange(0, 100)
# CHECK: arange-pow2.py:[[@LINE-1]]:{{[0-9]+}}: error: {{.*}}power of two{{.*}}
# CHECK-NEXT: offs = tl.arange(0, 100)
