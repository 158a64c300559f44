# Generator expressions.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-generator.py:7:15: error: unsupported Python construct: generator expression
# CHECK-NEXT: {{^}}    y = sum(i for i in x){{$}}
# CHECK-NEXT: {{^}}              ^~~{{$}}
def k(x):
    y = sum(i for i in x)
