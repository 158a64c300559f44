# Unpacking a dict into a call.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-kwargs.py:7:11: error: unsupported Python construct: star-args (**kwargs)
# CHECK-NEXT: {{^}}    y = f(**x){{$}}
# CHECK-NEXT: {{^}}          ^~{{$}}
def k(x):
    y = f(**x)
