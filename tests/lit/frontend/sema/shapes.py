# Shape manipulation: None-indexing, broadcasting, trans/permute/.T, reshape/view,
# broadcast_to, expand_dims, split/join, .shape and .dtype.
# RUN: %tilecc %s -k shapes -s "*fp16:16, *fp32:16" -D M=16 -D N=32 -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import triton
import triton.language as tl


@triton.jit
def shapes(x_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.static_assert(x.shape[0] == M, "rows")
    tl.static_assert(x.dtype == tl.float16)
    t = tl.trans(x)
    p = tl.permute(x, (1, 0))
    tt = x.T
    r = tl.reshape(x, (N, M))
    v = x.view(M * N)
    e = tl.expand_dims(rm, 1)
    bc = tl.broadcast_to(e, (M, N))
    j = tl.join(x, x)
    a, b = tl.split(j)
    f = (t + p + tt + r).to(tl.float32)
    tl.store(y_ptr + rn[:, None] * M + rm[None, :], f)
    tl.store(y_ptr + tl.arange(0, M * N), v.to(tl.float32))
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], (a + b).to(tl.float32) + bc)
