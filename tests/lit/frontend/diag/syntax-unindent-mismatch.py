# A dedent to a level that no enclosing block has.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-unindent-mismatch.py:9:7: error: unindent does not match any outer indentation level
# CHECK-NEXT: {{^}}      z = 2{{$}}
# CHECK-NEXT: {{^}}      ^{{$}}
def k(x):
    if x:
        y = 1
      z = 2
