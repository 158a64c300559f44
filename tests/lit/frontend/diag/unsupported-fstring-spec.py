# An f-string with a format spec inside a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-fstring-spec.py:13:30: error: unsupported in a kernel: a format spec in an f-string
# CHECK-NEXT: {{^}}    tl.static_assert(True, f"{1:>4}"){{$}}
# CHECK-NEXT: {{^}}                             ^~~~~~{{$}}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr: "*fp32"):
    tl.static_assert(True, f"{1:>4}")
