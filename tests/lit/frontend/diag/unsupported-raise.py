# Exceptions are not part of the kernel language.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-raise.py:7:5: error: unsupported Python construct: raise statement
# CHECK-NEXT: {{^}}    raise ValueError{{$}}
# CHECK-NEXT: {{^}}    ^~~~~{{$}}
def k(x):
    raise ValueError
