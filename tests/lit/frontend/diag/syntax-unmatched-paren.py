# A closing bracket without an opening one.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-unmatched-paren.py:7:14: error: unmatched ']'
# CHECK-NEXT: {{^}}    y = x + 1]{{$}}
# CHECK-NEXT: {{^}}             ^{{$}}
def k(x):
    y = x + 1]
