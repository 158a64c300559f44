# Relative imports.
# RUN: not %tilecc %s --emit=ast 2>&1 | FileCheck %s --strict-whitespace
# CHECK: {{.*}}unsupported-relative-import.py:6:6: error: unsupported Python construct: relative import
# CHECK-NEXT: {{^}}from . import helpers{{$}}
# CHECK-NEXT: {{^}}     ^{{$}}
from . import helpers
