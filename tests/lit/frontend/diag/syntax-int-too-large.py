# Integer literals must fit in 64 bits.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-int-too-large.py:7:13: error: integer literal too large
# CHECK-NEXT: {{^}}    y = x + 18446744073709551616{{$}}
# CHECK-NEXT: {{^}}            ^~~~~~~~~~~~~~~~~~~~{{$}}
def k(x):
    y = x + 18446744073709551616
