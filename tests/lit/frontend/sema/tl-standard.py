# triton.language.standard: kernels import tl's helpers from it, and its private _log2
# (floor(log2(i)) of a constexpr, 0 for i <= 1), as FlagGems' topk.py does for argsort.
# RUN: %tilecc %s -k k -s "*i32, 1024" --emit=tir | FileCheck %s
# CHECK: constant {value = 10} : i32
# CHECK: constant {value = 0} : i32
# CHECK: constant {value = 6} : i32
# CHECK: constant {value = 0} : tile<4xi32>
import triton
import triton.language as tl
import triton.language.standard as std

try:
    from triton.language.standard import _log2, zeros_like
except ImportError:
    pass


@triton.jit
def k(out, N: tl.constexpr):
    n: tl.constexpr = _log2(N)
    tl.store(out, tl.full([], n, tl.int32))
    tl.store(out + 1, tl.full([], std._log2(1), tl.int32))
    tl.store(out + 2, tl.full([], _log2(127), tl.int32))
    tl.store(out + tl.arange(0, 4), zeros_like(tl.arange(0, 4)))
