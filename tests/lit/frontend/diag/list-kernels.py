# --list-kernels: each @triton.jit function with its parameters (constexprs marked,
# defaults shown), the -s template, and autotune/heuristics as written. Without -s the
# error shows the same template; the template's NAME=VALUE entries are accepted by -s.
# RUN: %tilecc %s --list-kernels | FileCheck %s --strict-whitespace
# RUN: not %tilecc %s -k matmul 2>&1 | FileCheck %s --check-prefix=NOSIG
# RUN: %tilecc %s -k add -s "*fp32:16, i32, BLOCK=256" --emit=tir | FileCheck %s --check-prefix=NAMED
# CHECK: {{^}}helper  (list-kernels.py:32){{$}}
# CHECK-NEXT: {{^}}  params: x{{$}}
# CHECK-NEXT: {{^}}  signature: -s "<type>"{{$}}
# CHECK-NEXT: {{^}}add  (list-kernels.py:37){{$}}
# CHECK-NEXT: {{^}}  params: x_ptr, n, BLOCK: constexpr = 128{{$}}
# CHECK-NEXT: {{^}}  signature: -s "*<dtype>, <type>, BLOCK=128"{{$}}
# CHECK-NEXT: {{^}}matmul  (list-kernels.py:47){{$}}
# CHECK-NEXT: {{^}}  params: a_ptr, M: 'i32', BM: constexpr, EVEN: constexpr{{$}}
# CHECK-NEXT: {{^}}  signature: -s "*<dtype>, i32, BM=<constexpr>, EVEN=<constexpr>"{{$}}
# CHECK-NEXT: {{^}}  @triton.autotune(configs=[{{$}}
# CHECK-NEXT: {{^}}      triton.Config({"BM": 64}, num_warps=4),{{$}}
# CHECK-NEXT: {{^}}  ], key=["M"]){{$}}
# CHECK-NEXT: {{^}}  @triton.heuristics({"EVEN": lambda args: args["M"] % args["BM"] == 0}){{$}}
# CHECK-NOT: {{.}}
# NOSIG: list-kernels.py:47:5: error: kernel 'matmul' needs a signature: -s "*<dtype>, i32, BM=<constexpr>, EVEN=<constexpr>"
# NAMED: make_range {end = 256, start = 0}
import triton
import triton.language as tl


def not_a_kernel(x):
    return x


@triton.jit
def helper(x):
    return x


@triton.jit
def add(x_ptr, n, BLOCK: tl.constexpr = 128):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)


@triton.autotune(configs=[
    triton.Config({"BM": 64}, num_warps=4),
], key=["M"])
@triton.heuristics({"EVEN": lambda args: args["M"] % args["BM"] == 0})
@triton.jit
def matmul(a_ptr, M: 'i32', BM: tl.constexpr, EVEN: tl.constexpr):
    pass
