# Positional arguments come before keyword arguments.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-positional-after-keyword.py:7:25: error: positional argument follows keyword argument
# CHECK-NEXT: {{^}}    tl.store(x, mask=x, x){{$}}
# CHECK-NEXT: {{^}}                        ^{{$}}
def k(x):
    tl.store(x, mask=x, x)
