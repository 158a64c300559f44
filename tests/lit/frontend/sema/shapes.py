# Shape manipulation: None-indexing, broadcasting, trans/permute/.T, reshape/view,
# broadcast_to, expand_dims, split/join, .shape and .dtype.
# RUN: %tilecc %s -k shapes -s "*fp16:16, *fp32:16" -D M=16 -D N=32 -o %t.tir 2>&1 | FileCheck %s --check-prefix=WARN
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

# WARN: shapes.py:21:9: warning: view is deprecated
# CHECK-LABEL: func @shapes(
# CHECK: %e = expand_dims %rm {axis = 1} : tile<16x1xi32>
# CHECK: %[[R:.*]] = expand_dims %rn {axis = 0} : tile<1x32xi32>
# CHECK: broadcast %{{.*}} : tile<16x32xptr<f16>>
# CHECK: %x = load %{{.*}} : tile<16x32xf16>
# trans, permute((1, 0)) and .T are the same op, merged by cse
# CHECK-NEXT: %t = trans %x {order = [1, 0]} : tile<32x16xf16>
# CHECK-NEXT: %r = reshape %x : tile<32x16xf16>
# CHECK-NEXT: %v = reshape %x {can_reorder} : tile<512xf16>
# CHECK-NEXT: %bc = broadcast %e : tile<16x32xi32>
# CHECK-NEXT: %j = join %x, %x : tile<16x32x2xf16>
# CHECK-NEXT: %a, %b = split %j : tile<16x32xf16>, tile<16x32xf16>
# CHECK-NEXT: %[[S1:.*]] = addf %t, %t : tile<32x16xf16>
# CHECK-NEXT: %[[S2:.*]] = addf %[[S1]], %t : tile<32x16xf16>
# CHECK-NEXT: %[[S3:.*]] = addf %[[S2]], %r : tile<32x16xf16>
# CHECK-NEXT: %f = extf %[[S3]] : tile<32x16xf32>
# CHECK: itof %bc : tile<16x32xf32>
