# A list comprehension inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-list-comprehension.py:13:9: error: unsupported Python construct in a kernel: list comprehension
# CHECK-NEXT: {{^}}    y = [i for i in range(3)]{{$}}
# CHECK-NEXT: {{^}}        ^~~~~~~~~~~~~~~~~~~~~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    y = [i for i in range(3)]
