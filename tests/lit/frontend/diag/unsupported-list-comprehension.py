# List comprehensions.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-list-comprehension.py:7:16: error: unsupported Python construct: list comprehension
# CHECK-NEXT: {{^}}    y = [i * 2 for i in x]{{$}}
# CHECK-NEXT: {{^}}               ^~~{{$}}
def k(x):
    y = [i * 2 for i in x]
