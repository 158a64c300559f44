# An opening parenthesis without its partner.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-never-closed.py:7:10: error: '(' was never closed
# CHECK-NEXT: {{^}}    y = f(x,{{$}}
# CHECK-NEXT: {{^}}         ^{{$}}
def k(x):
    y = f(x,
          x
