# Exceptions are not part of the kernel language.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-try.py:7:5: error: unsupported Python construct: try statement
# CHECK-NEXT: {{^}}    try:{{$}}
# CHECK-NEXT: {{^}}    ^~~{{$}}
def k(x):
    try:
        x = 1
    except ValueError:
        pass
