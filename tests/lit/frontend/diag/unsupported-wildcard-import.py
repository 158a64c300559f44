# import *.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-wildcard-import.py:6:29: error: unsupported Python construct: wildcard import (import *)
# CHECK-NEXT: {{^}}from triton.language import *{{$}}
# CHECK-NEXT: {{^}}                            ^{{$}}
from triton.language import *
