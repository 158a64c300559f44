# num_warps, num_stages and num_ctas of an autotune config and tl.range's num_stages and
# loop_unroll_factor are checked where the source gives them: a located error, not a
# division by zero or a hang in the GPU passes.
# RUN: not %tilecc %s -k warps0 -s "*fp32, i32" --target=sm_90 -o %t.ptx 2>&1 | FileCheck %s --check-prefix=W0
# RUN: not %tilecc %s -k warpsneg -s "*fp32, i32" --target=gfx942 -o %t.hsaco 2>&1 | FileCheck %s --check-prefix=WNEG
# RUN: not %tilecc %s -k stages -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=STAGES
# RUN: not %tilecc %s -k ctas -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=CTAS
# RUN: not %tilecc %s -k range_stages -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=RSTAGES
# RUN: not %tilecc %s -k unroll -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=UNROLL
# The command line's --num-warps is taken over the config's, and is valid.
# RUN: %tilecc %s -k warps0 -s "*fp32, i32" --num-warps 8 --emit=tir | FileCheck %s --check-prefix=OVER
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=0)], key=['n'])
# W0: config-limits.py:[[@LINE-1]]:{{[0-9]+}}: error: num_warps must be a power of two from 1 to 32, got 0
# OVER: func @warps0({{.*}} attributes {num_warps = 8}
@triton.jit
def warps0(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)


@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_warps=-4)], key=['n'])
# WNEG: config-limits.py:[[@LINE-1]]:{{[0-9]+}}: error: num_warps must be a power of two from 1 to 32, got -4
@triton.jit
def warpsneg(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)


@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_stages=100)], key=['n'])
# STAGES: config-limits.py:[[@LINE-1]]:{{[0-9]+}}: error: num_stages must be from 0 to 16, got 100
@triton.jit
def stages(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)


@triton.autotune(configs=[triton.Config({'BLOCK': 128}, num_ctas=0)], key=['n'])
# CTAS: config-limits.py:[[@LINE-1]]:{{[0-9]+}}: error: num_ctas must be from 1 to 16, got 0
@triton.jit
def ctas(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)


@triton.jit
def range_stages(x_ptr, n):
    for i in tl.range(0, n, num_stages=-1):
# RSTAGES: config-limits.py:[[@LINE-1]]:{{[0-9]+}}: error: num_stages must be from 0 to 16, got -1
        tl.store(x_ptr + i, 1.0)


@triton.jit
def unroll(x_ptr, n):
    for i in tl.range(0, n, loop_unroll_factor=1 << 40):
# UNROLL: config-limits.py:[[@LINE-1]]:{{[0-9]+}}: error: loop_unroll_factor must be from 0 to 1024, got 1099511627776
        tl.store(x_ptr + i, 1.0)
