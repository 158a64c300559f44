# tl.multiple_of on a scalar (tutorial 06's `lo = tl.multiple_of(lo,
# BLOCK_M)`) passes the value through on GPUs; it crashed the GPU lowering before.
# RUN: %tilecc %s -k hints -s "*i32, i32, 64" --target=sm_90 -o %t.ptx
# RUN: FileCheck %s --input-file %t.ptx
# RUN: %tilecc %s -k hints -s "*i32, i32, 64" --target=gfx90a -o %t.hsaco
# CHECK: .entry hints(
# CHECK: st.global
import triton
import triton.language as tl


@triton.jit
def hints(out, n, BLOCK: tl.constexpr):
    lo = tl.multiple_of(tl.program_id(0) * BLOCK, BLOCK)
    hi = lo + n
    offs = lo + tl.arange(0, BLOCK)
    tl.store(out + offs, offs + hi, mask=offs < hi)
