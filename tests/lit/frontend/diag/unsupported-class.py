# Classes are not part of the kernel language.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-class.py:9:1: error: unsupported Python construct: class definition
# CHECK-NEXT: {{^}}class Foo:{{$}}
# CHECK-NEXT: {{^}}^~~~~{{$}}
import triton


class Foo:
    pass
