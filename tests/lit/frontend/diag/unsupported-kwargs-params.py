# A jit helper with **kwargs, called from a kernel. Host code may use it; a kernel may not.
# RUN: not %tilecc %s -k k --emit=tir 2>&1 | FileCheck %s --strict-whitespace
# RUN: %tilecc %s --emit=ast > /dev/null
# CHECK: {{.*}}unsupported-kwargs-params.py:12:12: error: unsupported in a @triton.jit function: **kwargs parameters
# CHECK-NEXT: {{^}}def h(a, **kw):{{$}}
# CHECK-NEXT: {{^}}           ^~{{$}}
import triton
import triton.language as tl


@triton.jit
def h(a, **kw):
    return a


@triton.jit
def k(x_ptr: "*fp32"):
    y = h(1)
