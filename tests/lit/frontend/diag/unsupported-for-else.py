# for ... else.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-for-else.py:9:5: error: unsupported Python construct: for ... else
# CHECK-NEXT: {{^}}    else:{{$}}
# CHECK-NEXT: {{^}}    ^~~~{{$}}
def k(x):
    for i in range(4):
        x += i
    else:
        x = 0
