import triton
import triton.language as tl


@triton.jit
def row_softmax(x_ptr, out_ptr, sums_ptr, M, N: tl.constexpr, BM: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, N)
    mask = rows[:, None] < M
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0)
    m = tl.max(x, 1)
    e = tl.exp(x - m[:, None])
    s = tl.sum(e, 1)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], e / s[:, None], mask=mask)
    tl.store(sums_ptr + rows, s + m, mask=rows < M)
