# tl.gather, tl.flip, tl.sort, tl.topk and tl.histogram in the tile IR: gathers, and the
# element-wise ops sema expands the others into.
# RUN: %tilecc %s -k k -s "*fp32, *i32, *i32, 4, 8" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
# RUN: not %tilecc %s -k bad_dim -s "*fp32" 2>&1 | FileCheck %s --check-prefix=DIM
# RUN: not %tilecc %s -k bad_k -s "*fp32" 2>&1 | FileCheck %s --check-prefix=TOPK
# RUN: not %tilecc %s -k bad_index -s "*fp32" 2>&1 | FileCheck %s --check-prefix=INDEX
# RUN: not %tilecc %s -k bad_hist -s "*fp32" 2>&1 | FileCheck %s --check-prefix=HIST
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, i_ptr, h_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    g = tl.gather(x, i, axis=1)
    f = tl.flip(x, 0)
    s = tl.sort(x, descending=True)
    t = tl.topk(x, 2)
    h = tl.histogram(tl.ravel(i), 16)
    tl.store(x_ptr + offs, g + f + s)
    tl.store(x_ptr + tl.arange(0, M)[:, None] * 2 + tl.arange(0, 2)[None, :], t)
    tl.store(h_ptr + tl.arange(0, 16), h)

# CHECK: gather %x, %i {axis = 1} : tile<4x8xf32>
# flip: N - 1 - coordinate along dim 0
# CHECK: subi
# CHECK: %f = gather %x, %{{.*}} {axis = 0} : tile<4x8xf32>
# sort of 8: 6 stages, each a gather of the partners (i ^ j) and a select
# CHECK-COUNT-6: gather %{{.*}} {axis = 1} : tile<4x8xf32>
# CHECK: %s = select
# topk sorts the same way (cse keeps one sort), then gathers the first two
# CHECK-NOT: gather
# CHECK: %t = gather %s, %{{.*}} {axis = 1} : tile<4x2xf32>
# histogram: [16, 32] comparison, summed along the values
# CHECK: cmpi %{{.*}} {pred = "eq"} : tile<16x32xi1>
# CHECK: %h = reduce %{{.*}} {axis = 1} : tile<16xi32>


@triton.jit
def bad_dim(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    s = tl.sort(x, 0)
# DIM: sort.py:[[@LINE-1]]:20: error: tl.sort: only the last dimension is supported (as in Triton), got dimension 0 of a tensor of rank 2


@triton.jit
def bad_k(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    s = tl.topk(x, 3)
# TOPK: sort.py:[[@LINE-1]]:20: error: tl.topk: k must be a power of two between 1 and the dimension's size 8, got 3


@triton.jit
def bad_index(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    i = tl.zeros([2, 8], dtype=tl.int32)
    g = tl.gather(x, i, 1)
# INDEX: sort.py:[[@LINE-1]]:22: error: tl.gather: index dimension 0 (2) must match the source's (4); only the axis may differ


@triton.jit
def bad_hist(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    h = tl.histogram(x, 4)
# HIST: sort.py:[[@LINE-1]]:22: error: tl.histogram only supports a 1-D integer tensor, got tensor [8] of fp32
