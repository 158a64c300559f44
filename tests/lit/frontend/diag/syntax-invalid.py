# Two expressions with nothing between them.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-invalid.py:7:11: error: invalid syntax
# CHECK-NEXT: {{^}}    y = x 2{{$}}
# CHECK-NEXT: {{^}}          ^{{$}}
def k(x):
    y = x 2
