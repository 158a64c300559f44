# Keyword unpacking in a call inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-kwargs.py:13:18: error: unsupported Python construct in a kernel: keyword argument unpacking (**)
# CHECK-NEXT: {{^}}    y = tl.zeros(**x_ptr){{$}}
# CHECK-NEXT: {{^}}                 ^~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    y = tl.zeros(**x_ptr)
