# A decorator must decorate a function.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-decorated-statement.py:7:1: error: unsupported Python construct: decorator on a non-function
# CHECK-NEXT: {{^}}x = 1{{$}}
# CHECK-NEXT: {{^}}^{{$}}
@triton.jit
x = 1
