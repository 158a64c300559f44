# The Ellipsis literal.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-ellipsis.py:7:11: error: unsupported Python construct: Ellipsis (...)
# CHECK-NEXT: {{^}}    y = x[...]{{$}}
# CHECK-NEXT: {{^}}          ^~~{{$}}
def k(x):
    y = x[...]
