# Compile-time integers are 64-bit; Python's are unbounded, and host code may use any.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-int-too-large.py:14:13: error: integer literal too large (tilecc's compile-time integers are 64-bit)
# CHECK-NEXT: {{^}}    y = x + 18446744073709551616{{$}}
# CHECK-NEXT: {{^}}            ^~~~~~~~~~~~~~~~~~~~{{$}}
import triton

HOST = 2 ** 100 + 123456789012345678901234567890


@triton.jit
def k(x: "i64"):
    y = x + 18446744073709551616
