# The target of an assignment must be a name, attribute or subscript.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-assign-to-call.py:7:5: error: cannot assign to function call
# CHECK-NEXT: {{^}}    f(x) = 1{{$}}
# CHECK-NEXT: {{^}}    ^~~~{{$}}
def k(x):
    f(x) = 1
