# Set comprehensions.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-set-comprehension.py:7:12: error: unsupported Python construct: set comprehension
# CHECK-NEXT: {{^}}    y = {i for i in x}{{$}}
# CHECK-NEXT: {{^}}           ^~~{{$}}
def k(x):
    y = {i for i in x}
