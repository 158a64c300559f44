# An assignment expression inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-walrus.py:13:9: error: unsupported Python construct in a kernel: assignment expression (:=)
# CHECK-NEXT: {{^}}    if (y := 1):{{$}}
# CHECK-NEXT: {{^}}        ^~~~~~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    if (y := 1):
        pass
