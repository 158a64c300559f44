# Functions defined inside functions.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-nested-def.py:7:5: error: unsupported Python construct: nested function definition
# CHECK-NEXT: {{^}}    def helper(y):{{$}}
# CHECK-NEXT: {{^}}    ^~~{{$}}
def k(x):
    def helper(y):
        return y
