# A dict comprehension inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-dict-comprehension.py:13:9: error: unsupported Python construct in a kernel: dict comprehension
# CHECK-NEXT: {{^}}    y = {i: i for i in range(3)}{{$}}
# CHECK-NEXT: {{^}}        ^~~~~~~~~~~~~~~~~~~~~~~~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    y = {i: i for i in range(3)}
