# Keyword-only parameters.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-keyword-only.py:6:10: error: unsupported Python construct: keyword-only parameters (bare '*')
# CHECK-NEXT: {{^}}def k(x, *, y):{{$}}
# CHECK-NEXT: {{^}}         ^{{$}}
def k(x, *, y):
    pass
