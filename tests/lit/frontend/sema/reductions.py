# Reductions on both axes, keep_dims, argmax/argmin, max with indices, tl.reduce with a
# jit combine function, cumsum and associative_scan, integer sums promoted to int32.
# RUN: %tilecc %s -k red -s "*fp32:16, *i32:16, *i8, 32, 64" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _maxabs(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def red(x_ptr, i_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    rows = tl.sum(x, axis=1)
    cols = tl.max(x, axis=0)
    kept = tl.min(x, axis=1, keep_dims=True)
    total = tl.sum(x)
    am = tl.argmax(x, axis=1)
    an = tl.argmin(x, axis=0)
    mv, mi = tl.max(x, axis=1, return_indices=True)
    r = tl.reduce(x, 1, _maxabs)
    cs = tl.cumsum(x, axis=1)
    sc = tl.associative_scan(x, 0, _add, reverse=True)
    c = tl.load(c_ptr + rn)
    csum = tl.sum(c, axis=0)
    tl.store(x_ptr + rm, rows + r + mv + kept.reshape([M]))
    tl.store(x_ptr + rn, cols)
    tl.store(x_ptr + rm[:, None] * N + rn[None, :], cs + sc + total)
    tl.store(i_ptr + rm, am + mi)
    tl.store(i_ptr + rn, an + csum)
