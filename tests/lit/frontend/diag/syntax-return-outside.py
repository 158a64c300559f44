# return at module level.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}syntax-return-outside.py:6:1: error: 'return' outside function
# CHECK-NEXT: {{^}}return 1{{$}}
# CHECK-NEXT: {{^}}^~~~~~{{$}}
return 1
