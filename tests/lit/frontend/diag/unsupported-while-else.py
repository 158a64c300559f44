# while ... else inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-while-else.py:13:5: error: unsupported Python construct in a kernel: while ... else
# CHECK-NEXT: {{^}}    while False:{{$}}
# CHECK-NEXT: {{^}}    ^~~~~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    while False:
        pass
    else:
        pass
