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

# CHECK-LABEL: func @red(
# CHECK: %rows = reduce %x {axis = 1} : tile<32xf32> {
# CHECK: addf
# CHECK: %cols = reduce %x {axis = 0} : tile<64xf32> {
# CHECK: maxnumf
# CHECK: minnumf
# CHECK: %kept = expand_dims %{{.*}} {axis = 1} : tile<32x1xf32>
# axis=None flattens first
# CHECK: %[[FLAT:.*]] = reshape %x {can_reorder} : tile<2048xf32>
# CHECK-NEXT: %total = reduce %[[FLAT]] {axis = 0} : f32 {
# argmax: a two-operand reduce of (value, index), ties to the smaller index
# CHECK: %{{.*}}, %am = reduce %x, %{{.*}} {axis = 1} : tile<32xf32>, tile<32xi32> {
# CHECK-NEXT: ^(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
# CHECK-NEXT: cmpf {{.*}} {pred = "ogt"}
# CHECK-NEXT: cmpf {{.*}} {pred = "oeq"}
# CHECK-NEXT: cmpi {{.*}} {pred = "lt"}
# CHECK: %{{.*}}, %an = reduce %x, %{{.*}} {axis = 0} : tile<64xf32>, tile<64xi32> {
# CHECK-NEXT: ^
# CHECK-NEXT: cmpf {{.*}} {pred = "olt"}
# CHECK: %mv, %mi = reduce %x
# the jit combine function is inlined into the region
# CHECK: %r = reduce %x {axis = 1} : tile<32xf32> {
# CHECK-NEXT: ^(%[[A:.*]]: f32, %[[B:.*]]: f32):
# CHECK-NEXT: %[[AA:.*]] = absf %[[A]] : f32
# CHECK-NEXT: %[[BB:.*]] = absf %[[B]] : f32
# CHECK-NEXT: %[[M:.*]] = maxnumf %[[AA]], %[[BB]] : f32
# CHECK-NEXT: yield %[[M]]
# CHECK: %cs = scan %x {axis = 1, reverse = false} : tile<32x64xf32> {
# CHECK: %sc = scan %x {axis = 0, reverse} : tile<32x64xf32> {
# int8 sums accumulate in int32
# CHECK: %[[C32:.*]] = exti %c : tile<64xi32>
# CHECK-NEXT: %csum = reduce %[[C32]] {axis = 0} : i32 {
# CHECK: addi
