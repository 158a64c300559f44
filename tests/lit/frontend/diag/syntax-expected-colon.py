# A missing ':' after an if condition.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-expected-colon.py:7:13: error: expected ':' after 'if' condition
# CHECK-NEXT: {{^}}    if x > 0{{$}}
# CHECK-NEXT: {{^}}            ^{{$}}
def k(x):
    if x > 0
        x = 1
