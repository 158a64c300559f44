# Shape operations (tests/e2e/shapes.c) on an M x N tile: trans, permute, .T, reshape,
# view-free reshapes to 1-D, join/split, expand_dims, broadcast_to and broadcasting, and the
# transpose of a masked load (which canonicalize turns into a load of the transposed pointers).
import triton
import triton.language as tl


@triton.jit
def shapes(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    mn = M * N
    # [0]: x^T (N x M) through trans, [1]: permute, [2]: .T
    tl.store(out_ptr + 0 * mn + rn[:, None] * M + rm[None, :], tl.trans(x))
    tl.store(out_ptr + 1 * mn + rn[:, None] * M + rm[None, :], tl.permute(x, (1, 0)))
    tl.store(out_ptr + 2 * mn + rn[:, None] * M + rm[None, :], x.T)
    # [3]: reshape to N x M keeps the row-major order; [4]: to 1-D
    r = tl.reshape(x, (N, M))
    tl.store(out_ptr + 3 * mn + rn[:, None] * M + rm[None, :], r)
    tl.store(out_ptr + 4 * mn + tl.arange(0, M * N), tl.reshape(x, (M * N,)))
    # [5]: join(x, 10 x) is M x N x 2, interleaved in memory
    j = tl.join(x, x * 10)
    ri = tl.arange(0, 2)
    tl.store(out_ptr + 5 * mn + (rm[:, None, None] * N + rn[None, :, None]) * 2 + ri[None, None, :], j)
    # [7]: split(join(x, 3 x)) gives back x and 3 x
    a, b = tl.split(tl.join(x, x * 3))
    tl.store(out_ptr + 7 * mn + rm[:, None] * N + rn[None, :], a - b * 2)
    # [8]: expand_dims + broadcast_to of a column of row numbers, plus broadcasting
    e = tl.expand_dims(rm.to(x.dtype), 1)
    bc = tl.broadcast_to(e, (M, N))
    f = tl.expand_dims(rn.to(x.dtype), 0)
    tl.store(out_ptr + 8 * mn + rm[:, None] * N + rn[None, :], bc * 100 + f + x)
    # [9]: trans of a transposed product: (x^T)^T row sums broadcast back
    t2 = tl.trans(tl.trans(x))
    rs = tl.sum(t2, axis=1)
    tl.store(out_ptr + 9 * mn + rm[:, None] * N + rn[None, :], t2 - rs[:, None])
    # [10]: a masked load (other = -5) read only transposed
    lt = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < M - 1) & (rn[None, :] > 0), other=-5).T
    tl.store(out_ptr + 10 * mn + rn[:, None] * M + rm[None, :], lt)
