# Moving elements by index, run by tests/e2e/sort.c: tl.sort (ascending and descending,
# masked rows padded with the dtype's extreme so that padding sorts last), tl.topk,
# tl.flip, tl.gather along either axis, and tl.histogram with a mask.
import triton
import triton.language as tl


@triton.jit
def sort_rows(x_ptr, out_ptr, top_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr,
              DESC: tl.constexpr, K: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    mask = (rows < M) & (cols < N)
    # the padding sorts after every real value (the dtype says which extreme that is)
    dt = x_ptr.dtype.element_ty
    if dt.is_floating():
        pad = -float("inf") if DESC else float("inf")
    else:
        pad = dt.get_int_min_value() if DESC else dt.get_int_max_value()
    x = tl.load(x_ptr + rows * N + cols, mask=mask, other=pad)
    s = tl.sort(x, descending=DESC)
    tl.static_assert(s.shape == x.shape and s.dtype == x.dtype)
    tl.store(out_ptr + rows * N + cols, s, mask=mask)
    # the K largest of each row, largest first (the padding is the smallest when DESC)
    if DESC:
        t = x.topk(K)
        kk = tl.arange(0, K)[None, :]
        tl.store(top_ptr + rows * K + kk, t, mask=(rows < M) & (kk < N))


@triton.jit
def gather_flip(x_ptr, i1_ptr, i0_ptr, g1_ptr, g0_ptr, f0_ptr, f1_ptr,
                BM: tl.constexpr, BN: tl.constexpr, BJ: tl.constexpr):
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    x = tl.load(x_ptr + rows * BN + cols)
    # axis 1: index [BM, BJ] of columns
    jj = tl.arange(0, BJ)[None, :]
    i1 = tl.load(i1_ptr + rows * BJ + jj)
    tl.store(g1_ptr + rows * BJ + jj, tl.gather(x, i1, axis=1))
    # axis 0: index [BJ, BN] of rows (int64 indices)
    ii = tl.arange(0, BJ)[:, None]
    i0 = tl.load(i0_ptr + ii * BN + cols)
    tl.store(g0_ptr + ii * BN + cols, x.gather(i0, 0))
    tl.store(f0_ptr + rows * BN + cols, tl.flip(x, 0))
    tl.store(f1_ptr + rows * BN + cols, x.flip())


@triton.jit
def hist(x_ptr, out_ptr, n, NB: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    h = tl.histogram(x, NB, mask=mask)
    tl.static_assert(h.dtype == tl.int32 and h.shape[0] == NB)
    tl.store(out_ptr + tl.arange(0, NB), h)
