# A closing bracket of the wrong kind.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-mismatched-paren.py:7:15: error: closing parenthesis ']' does not match opening parenthesis '('
# CHECK-NEXT: {{^}}    y = (x + 1]{{$}}
# CHECK-NEXT: {{^}}              ^{{$}}
def k(x):
    y = (x + 1]
