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

# The early return puts the rest of the kernel into the else region.
# CHECK-LABEL: func @control(
# CHECK: %[[C:.*]] = cmpi %{{.*}}, %n {pred = "ge"} : i1
# CHECK-NEXT: if %[[C]] {
# CHECK-NEXT: yield
# CHECK-NEXT: } {
# MODE == 1 picked at compile time: one addf of 1.0, no multiplication by 100
# CHECK-NOT: 100.0
# CHECK: %x_1 = addf %x, %{{.*}} : tile<128xf32>
# elif nests a second if; the variable set in one branch only (tmp) is not a result
# CHECK: %scale_1 = if %{{.*}} : f32 {
# CHECK: %scale_3 = if %{{.*}} : f32 {
# CHECK: %y = if %{{.*}} : tile<128xf32> {
# CHECK: %acc_1, %cnt_1 = for %{{.*}}, %k, %{{.*}}, %acc, %{{.*}} : tile<128xf32>, i32 {
# CHECK-NEXT: ^(%i: i32, %acc_2: tile<128xf32>, %cnt_2: i32):
# CHECK: yield %acc_3, %cnt_3
# CHECK: = constant {value = -1} : i32
# CHECK-NEXT: %acc_4 = for %k, %{{.*}}, %{{.*}}, %acc_1 {num_stages = 3} : tile<128xf32> {
# static_range(3) unrolled: three adds, the last of the constant 2.0
# CHECK: %acc_7 = addf %acc_4
# CHECK-NEXT: %acc_8 = addf %acc_7
# CHECK: %acc_9 = addf %acc_8
# CHECK: %t = while %{{.*}} : i32 {
# CHECK-NEXT: ^(%t_1: i32):
# CHECK-NEXT: %[[W:.*]] = cmpi %t_1, %k {pred = "lt"} : i1
# CHECK-NEXT: condition %[[W]], %t_1
# CHECK-NEXT: } {
# CHECK-NEXT: ^(%t_2: i32):
# CHECK-NEXT: %t_3 = addi %t_2, %{{.*}} : i32
# CHECK-NEXT: yield %t_3
# CHECK: store %{{.*}}, %cnt_1
# CHECK-NEXT: yield
# CHECK-NEXT: }
# CHECK-NEXT: return
