# Starred assignment targets.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-starred.py:7:8: error: unsupported Python construct: starred expression
# CHECK-NEXT: {{^}}    a, *b = x{{$}}
# CHECK-NEXT: {{^}}       ^{{$}}
def k(x):
    a, *b = x
