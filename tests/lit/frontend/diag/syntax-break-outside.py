# break outside any loop.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-break-outside.py:7:5: error: 'break' outside loop
# CHECK-NEXT: {{^}}    break{{$}}
# CHECK-NEXT: {{^}}    ^~~~~{{$}}
def k(x):
    break
