# A comparison the axis analysis finds constant over aligned runs is computed once per
# run a thread holds: with n divisible by 16 (n:16) and the block's start a multiple of
# 1024, `offs < n` is the same for each 16 consecutive elements; a thread's 8 elements
# (the canonical layout of 1024 on 4 warps: two groups of 4 consecutive, 512 apart) lie
# in two such runs: two compares instead of 8. Without the hint (plain i32) every element
# compares. The results are checked on the GPU by the e2e suite.
# RUN: %tilecc %s -k runs -s "*fp32, *fp32, i32:16, 1024" --target=sm_90 --emit=llvm -o %t.ll
# RUN: grep -c "icmp slt" %t.ll | FileCheck %s --check-prefix=TWO
# TWO: {{^2$}}
# RUN: %tilecc %s -k runs -s "*fp32, *fp32, i32, 1024" --target=sm_90 --emit=llvm -o %t.plain.ll
# RUN: grep -c "icmp slt" %t.plain.ll | FileCheck %s --check-prefix=EIGHT
# EIGHT: {{^8$}}
import triton
import triton.language as tl


@triton.jit
def runs(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m, other=0.0) * 2.0, mask=m)
