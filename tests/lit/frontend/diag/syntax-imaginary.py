# Complex numbers do not exist on the device.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-imaginary.py:7:13: error: imaginary literals are not supported
# CHECK-NEXT: {{^}}    y = x * 2j{{$}}
# CHECK-NEXT: {{^}}            ^~{{$}}
def k(x):
    y = x * 2j
