# while ... else.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-while-else.py:9:5: error: unsupported Python construct: while ... else
# CHECK-NEXT: {{^}}    else:{{$}}
# CHECK-NEXT: {{^}}    ^~~~{{$}}
def k(x):
    while x:
        x -= 1
    else:
        x = 0
