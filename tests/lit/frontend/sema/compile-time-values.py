# Compile-time values around runtime control flow, and Python functions decorated with
# @tl.constexpr. A variable holding None (or another compile-time value that is not a number)
# that a loop body only re-binds under a constexpr branch the body does not take stays
# compile-time, as in Triton: it is not loop-carried. A @tl.constexpr function is called at
# compile time on compile-time arguments (FlagGems' get_scan_accum_type).
# RUN: %tilecc %s -k k -s "*fp16, None, *fp32, i32, False, 64" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
# RUN: %tilecc %s -k k -s "*i8, *i8, *i64, i32, True, 64" --emit=tir | FileCheck %s --check-prefix=MASK
import triton
import triton.language as tl


@tl.constexpr
def accum_type(dt: tl.dtype) -> tl.dtype:
    if dt.is_bf16() or dt.is_fp16():
        return tl.float32
    if dt.is_int():
        return tl.int64
    else:
        return dt


@triton.jit
def k(x_ptr, m_ptr, out_ptr, n, HAS_M: tl.constexpr, BLOCK: tl.constexpr):
    acc_t: tl.constexpr = accum_type(x_ptr.type.element_ty)
    tl.static_assert(accum_type(tl.float64) == tl.float64)
    offs = tl.arange(0, BLOCK)
    if HAS_M:
        mp = m_ptr + offs
    else:
        mp = None
    acc = tl.zeros((BLOCK,), dtype=acc_t)
    for i in range(0, n, BLOCK):
        x = tl.load(x_ptr + i + offs, mask=i + offs < n, other=0).to(acc_t)
        if HAS_M:
            x += tl.load(mp, mask=i + offs < n, other=0).to(acc_t)
            mp += BLOCK
        acc += x
    j = 0
    while j < 2:
        if HAS_M:
            mp += 1
        j += 1
    tl.store(out_ptr + offs, acc)
# fp16 accumulates in fp32; mp stays None, so only acc and j are carried
# CHECK-LABEL: func @k(%x_ptr: ptr<f16>, %out_ptr: ptr<f32>, %n: i32)
# CHECK: %acc = constant {value = 0.0} : tile<64xf32>
# CHECK: %j = constant {value = 0} : i32
# CHECK: %acc_1 = for %{{[a-z0-9_]+}}, %n, %{{[0-9]+}}, %acc : tile<64xf32> {
# CHECK: %x = extf
# CHECK: yield %acc_3
# CHECK: %j_1 = while %j : i32 {
# int8 accumulates in int64; with the mask pointer, mp is carried by both loops
# MASK-LABEL: func @k(%x_ptr: ptr<i8>, %m_ptr: ptr<i8>, %out_ptr: ptr<i64>, %n: i32)
# MASK: constant {value = 0} : tile<64xi64>
# MASK: %mp_1, %acc_1 = for {{.*}} : tile<64xptr<i8>>, tile<64xi64> {
# MASK: %mp_4, %j_1 = while {{.*}} : tile<64xptr<i8>>, i32 {
