# Set displays.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-set-literal.py:7:9: error: unsupported Python construct: set literal
# CHECK-NEXT: {{^}}    y = {1, 2}{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
def k(x):
    y = {1, 2}
