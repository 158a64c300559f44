# A lambda inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-lambda.py:13:9: error: unsupported Python construct in a kernel: lambda
# CHECK-NEXT: {{^}}    f = lambda: 1{{$}}
# CHECK-NEXT: {{^}}        ^~~~~~~~~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    f = lambda: 1
