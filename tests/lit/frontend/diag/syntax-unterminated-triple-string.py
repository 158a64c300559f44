# A triple-quoted string that is never closed.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-unterminated-triple-string.py:7:5: error: unterminated triple-quoted string literal
# CHECK-NEXT: {{^}}    """doc{{$}}
# CHECK-NEXT: {{^}}    ^{{$}}
def k(x):
    """doc
    x = 1
