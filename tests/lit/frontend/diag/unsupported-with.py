# Context managers are not part of the kernel language.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-with.py:7:5: error: unsupported Python construct: with statement
# CHECK-NEXT: {{^}}    with x:{{$}}
# CHECK-NEXT: {{^}}    ^~~~{{$}}
def k(x):
    with x:
        pass
