# Dict comprehensions.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-dict-comprehension.py:7:15: error: unsupported Python construct: dict comprehension
# CHECK-NEXT: {{^}}    y = {i: i for i in x}{{$}}
# CHECK-NEXT: {{^}}              ^~~{{$}}
def k(x):
    y = {i: i for i in x}
