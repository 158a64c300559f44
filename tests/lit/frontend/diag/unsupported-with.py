# with inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-with.py:13:5: error: unsupported Python construct in a kernel: with statement
# CHECK-NEXT: {{^}}    with x_ptr:{{$}}
# CHECK-NEXT: {{^}}    ^~~~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    with x_ptr:
        pass
