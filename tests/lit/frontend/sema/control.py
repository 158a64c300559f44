# Runtime and compile-time control flow: if/elif/else merges, the conditional expression,
# for with loop-carried values, tl.range, tl.static_range, while, and early return.
# RUN: %tilecc %s -k control -s "*fp32:16, *i32, i32, i32, 128, 1" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import triton
import triton.language as tl


@triton.jit
def control(x_ptr, c_ptr, n, k, BLOCK: tl.constexpr, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # compile-time if: only the MODE == 1 branch is lowered
    if MODE == 0:
        x = x * 100.0
    elif MODE == 1:
        x = x + 1.0
    else:
        x = x - 1.0
    # runtime if with a merged variable and one set only in a branch
    scale = 1.0
    if k > 3:
        scale = 2.0
        tmp = 5
    elif k < -3:
        scale = 0.5
    x = x * scale
    # conditional expression on a runtime condition
    y = x if k > 0 else -x
    # for with two carried values; the loop variable is visible in the body
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = 0
    for i in range(0, k, 2):
        acc += y * i
        cnt += 1
    # tl.range with pipelining stages, negative step
    for j in tl.range(k, 0, -1, num_stages=3):
        acc = acc - 1.0
    # static_range unrolls: three adds of constants 0, 1, 2
    for s in tl.static_range(3):
        acc = acc + s
    # while with a carried counter
    t = 0
    while t < k:
        t += 3
    tl.store(x_ptr + offs, acc + cnt + t, mask=mask)
    tl.store(c_ptr + pid, cnt)
