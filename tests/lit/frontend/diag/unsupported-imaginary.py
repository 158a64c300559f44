# Complex numbers do not exist on the device; host code may have them.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast | FileCheck %s --check-prefix=AST
# CHECK: {{.*}}unsupported-imaginary.py:15:13: error: imaginary literals are not supported in a kernel
# CHECK-NEXT: {{^}}    y = x * 2j{{$}}
# CHECK-NEXT: {{^}}            ^~{{$}}
# AST: assign (name z) = (+ (int 1) (imag 2.5))
import triton

z = 1 + 2.5j


@triton.jit
def k(x: "fp32"):
    y = x * 2j
