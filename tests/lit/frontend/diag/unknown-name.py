# RUN: not %tilecc %s -k k -s "*fp32, 64" 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s -k k -s "*fp32, 64" 2>/dev/null; test $? -eq 1
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, ofsets)
# CHECK: unknown-name.py:10:28: error: name 'ofsets' is not defined
# CHECK-NEXT: {{^}}    tl.store(x_ptr + offs, ofsets){{$}}
# CHECK-NEXT: {{^}}                           ^~~~~~{{$}}
