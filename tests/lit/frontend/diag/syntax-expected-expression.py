# An assignment with no value.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-expected-expression.py:7:8: error: expected an expression
# CHECK-NEXT: {{^}}    y ={{$}}
# CHECK-NEXT: {{^}}       ^{{$}}
def k(x):
    y =
