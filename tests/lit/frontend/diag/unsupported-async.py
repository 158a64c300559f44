# async functions.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-async.py:6:1: error: unsupported Python construct: async
# CHECK-NEXT: {{^}}async def k(x):{{$}}
# CHECK-NEXT: {{^}}^~~~~{{$}}
async def k(x):
    pass
