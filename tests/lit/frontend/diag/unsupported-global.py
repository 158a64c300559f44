# global inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-global.py:14:5: error: unsupported Python construct in a kernel: global statement
# CHECK-NEXT: {{^}}    global G{{$}}
# CHECK-NEXT: {{^}}    ^~~~~~{{$}}
import triton
import triton.language as tl


G = 1
@triton.jit
def k(x_ptr: "*fp32"):
    global G
