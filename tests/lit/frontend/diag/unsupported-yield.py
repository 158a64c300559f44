# Generators.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-yield.py:7:5: error: unsupported Python construct: yield expression
# CHECK-NEXT: {{^}}    yield x{{$}}
# CHECK-NEXT: {{^}}    ^~~~~{{$}}
def k(x):
    yield x
