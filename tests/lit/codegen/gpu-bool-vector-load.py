# A vectorized load of a bool tile (i1 lives in memory as i8) narrows each element back to
# i1, and widens a bool `other` to i8 first: FlagGems' masked_select write_back_kernel
# stores under a mask loaded from a bool tensor, which used to give invalid LLVM IR
# ("Branch condition is not 'i1' type") on the GPU targets.
# RUN: %tilecc %s -k k -s "*fp32:16, *i1:16, *fp32:16, *i1:16, i32, 1024" --target=sm_90 --emit=llvm -o %t.ll
# RUN: FileCheck %s --input-file %t.ll
# RUN: %tilecc %s -k k -s "*fp32:16, *i1:16, *fp32:16, *i1:16, i32, 1024" --target=sm_90 -o %t.ptx
# RUN: %tilecc %s -k k -s "*fp32:16, *i1:16, *fp32:16, *i1:16, i32, 1024" --target=gfx90a -o %t.hsaco
# CHECK: load i8
# CHECK: trunc i8 %{{.*}} to i1
import triton
import triton.language as tl


@triton.jit
def k(x, m, y, m2, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    sel = tl.load(m + offs)
    tl.store(y + offs, tl.load(x + offs), mask=sel)
    inb = offs < n
    keep = tl.load(m + offs, mask=inb, other=offs % 3 == 0)
    tl.store(m2 + offs, keep, mask=inb)
