# A jit helper with *args, called from a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-star-params.py:12:8: error: unsupported in a @triton.jit function: *args parameters
# CHECK-NEXT: {{^}}def h(*a):{{$}}
# CHECK-NEXT: {{^}}       ^{{$}}
import triton
import triton.language as tl


@triton.jit
def h(*a):
    return 1


@triton.jit
def k(x_ptr: "*fp32"):
    y = h(1)
