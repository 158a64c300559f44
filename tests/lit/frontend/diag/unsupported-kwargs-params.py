# Keyword-variadic parameters.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-kwargs-params.py:6:10: error: unsupported Python construct: keyword parameters (**kwargs)
# CHECK-NEXT: {{^}}def k(x, **kw):{{$}}
# CHECK-NEXT: {{^}}         ^~{{$}}
def k(x, **kw):
    pass
