# A starred assignment target inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-starred.py:13:8: error: unsupported Python construct in a kernel: starred assignment target
# CHECK-NEXT: {{^}}    a, *b = 1, 2, 3{{$}}
# CHECK-NEXT: {{^}}       ^~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    a, *b = 1, 2, 3
