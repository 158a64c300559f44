# A string literal that runs to the end of its line.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-unterminated-string.py:7:9: error: unterminated string literal
# CHECK-NEXT: {{^}}    s = 'abc{{$}}
# CHECK-NEXT: {{^}}        ^{{$}}
def k(x):
    s = 'abc
