# Positional-only parameters.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-positional-only.py:6:10: error: unsupported Python construct: positional-only parameters ('/')
# CHECK-NEXT: {{^}}def k(x, /):{{$}}
# CHECK-NEXT: {{^}}         ^{{$}}
def k(x, /):
    pass
