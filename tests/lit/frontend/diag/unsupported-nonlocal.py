# nonlocal declarations.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-nonlocal.py:7:5: error: unsupported Python construct: nonlocal statement
# CHECK-NEXT: {{^}}    nonlocal y{{$}}
# CHECK-NEXT: {{^}}    ^~~~~~~~{{$}}
def k(x):
    nonlocal y
