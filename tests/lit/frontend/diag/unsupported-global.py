# global declarations.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-global.py:7:5: error: unsupported Python construct: global statement
# CHECK-NEXT: {{^}}    global y{{$}}
# CHECK-NEXT: {{^}}    ^~~~~~{{$}}
def k(x):
    global y
