# A line indented deeper than its block.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-unexpected-indent.py:8:9: error: unexpected indent
# CHECK-NEXT: {{^}}        z = y{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
def k(x):
    y = x
        z = y
