# A block header with no indented body.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-indented-block.py:8:5: error: expected an indented block after 'for' statement on line 7
# CHECK-NEXT: {{^}}    x = 1{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
def k(x):
    for i in range(4):
    x = 1
