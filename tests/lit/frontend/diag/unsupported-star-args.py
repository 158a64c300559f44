# Star-args in a call inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-star-args.py:14:13: error: unsupported Python construct in a kernel: starred expression
# CHECK-NEXT: {{^}}    y = max(*t){{$}}
# CHECK-NEXT: {{^}}            ^~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    t = (1, 2)
    y = max(*t)
