# A character that is no part of Python.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-invalid-character.py:7:11: error: invalid character '$'
# CHECK-NEXT: {{^}}    y = x $ 2{{$}}
# CHECK-NEXT: {{^}}          ^{{$}}
def k(x):
    y = x $ 2
