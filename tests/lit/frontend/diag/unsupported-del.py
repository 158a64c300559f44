# del statements.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-del.py:7:5: error: unsupported Python construct: del statement
# CHECK-NEXT: {{^}}    del x{{$}}
# CHECK-NEXT: {{^}}    ^~~{{$}}
def k(x):
    del x
