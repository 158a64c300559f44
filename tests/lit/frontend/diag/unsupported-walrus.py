# Assignment expressions.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-walrus.py:7:11: error: unsupported Python construct: assignment expression (:=)
# CHECK-NEXT: {{^}}    if (n := x) > 0:{{$}}
# CHECK-NEXT: {{^}}          ^~{{$}}
def k(x):
    if (n := x) > 0:
        pass
