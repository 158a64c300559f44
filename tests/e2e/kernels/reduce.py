# Reductions (tests/e2e/reduce.c) over a masked [BM, BN] tile of an M x N matrix: sum, max
# and min on both axes and over everything, argmax/argmin (ties to the smaller index),
# max with return_indices, keep_dims, tl.reduce with a jit combine function, cumsum and
# associative_scan (forward and reverse, both axes). LO and HI are the neutral `other`
# values for max and min.
import triton
import triton.language as tl


@triton.jit
def _maxabs(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def reduce2d(x_ptr, rows_ptr, cols_ptr, idx_ptr, tot_ptr, M, N, BM: tl.constexpr,
             BN: tl.constexpr, LO: tl.constexpr, HI: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    ptrs = x_ptr + rm[:, None] * N + rn[None, :]
    x0 = tl.load(ptrs, mask=mask, other=0)
    xlo = tl.load(ptrs, mask=mask, other=LO)
    xhi = tl.load(ptrs, mask=mask, other=HI)
    mrow = rm < M
    mcol = rn < N
    # rows: sum, max, min, reduce(maxabs), max keep_dims
    tl.store(rows_ptr + 0 * BM + rm, tl.sum(x0, axis=1), mask=mrow)
    tl.store(rows_ptr + 1 * BM + rm, tl.max(xlo, axis=1), mask=mrow)
    tl.store(rows_ptr + 2 * BM + rm, tl.min(xhi, axis=1), mask=mrow)
    tl.store(rows_ptr + 3 * BM + rm, tl.reduce(x0, 1, _maxabs), mask=mrow)
    kd = tl.max(xlo, axis=1, keep_dims=True)
    tl.static_assert(len(kd.shape) == 2)
    tl.store(rows_ptr + 4 * BM + rm[:, None], kd, mask=mrow[:, None])
    # columns
    tl.store(cols_ptr + 0 * BN + rn, tl.sum(x0, axis=0), mask=mcol)
    tl.store(cols_ptr + 1 * BN + rn, tl.max(xlo, axis=0), mask=mcol)
    tl.store(cols_ptr + 2 * BN + rn, tl.min(xhi, axis=0), mask=mcol)
    # indices: argmax/argmin on both axes, and max with return_indices
    tl.store(idx_ptr + 0 * BM + rm, tl.argmax(xlo, axis=1), mask=mrow)
    tl.store(idx_ptr + 1 * BM + rm, tl.argmin(xhi, axis=1), mask=mrow)
    mv, mi = tl.max(xlo, axis=1, return_indices=True)
    tl.store(idx_ptr + 2 * BM + rm, mi, mask=mrow)
    tl.store(idx_ptr + 3 * BM + rn, tl.argmax(xlo, axis=0), mask=mcol)
    tl.store(idx_ptr + 3 * BM + BN + rn, tl.argmin(xhi, axis=0), mask=mcol)
    # everything: sum over both axes (axis=None) and nested max
    tl.store(tot_ptr + 0, tl.sum(x0))
    tl.store(tot_ptr + 1, tl.max(tl.max(xlo, axis=1), axis=0))


@triton.jit
def scan2d(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # out[k] (k = 0..4) = cumsum axis 1, reverse scan axis 1, cumsum axis 0, running max
    # axis 1, reverse cumsum axis 0
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    off = rm[:, None] * N + rn[None, :]
    x = tl.load(x_ptr + off, mask=mask, other=0)
    tl.store(out_ptr + 0 * M * N + off, tl.cumsum(x, axis=1), mask=mask)
    tl.store(out_ptr + 1 * M * N + off, tl.associative_scan(x, 1, _add, reverse=True), mask=mask)
    tl.store(out_ptr + 2 * M * N + off, tl.cumsum(x, axis=0), mask=mask)
    tl.store(out_ptr + 3 * M * N + off, tl.associative_scan(x, 1, _max), mask=mask)
    tl.store(out_ptr + 4 * M * N + off, tl.cumsum(x, axis=0, reverse=True), mask=mask)
