# Variadic parameters.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-star-params.py:6:10: error: unsupported Python construct: star parameters (*args)
# CHECK-NEXT: {{^}}def k(x, *rest):{{$}}
# CHECK-NEXT: {{^}}         ^{{$}}
def k(x, *rest):
    pass
