# await expressions.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-await.py:7:9: error: unsupported Python construct: await expression
# CHECK-NEXT: {{^}}    y = await x{{$}}
# CHECK-NEXT: {{^}}        ^~~~~{{$}}
def k(x):
    y = await x
