# A local assigned a Python number is a scalar tensor in Triton (int32, uint32 or int64 by
# value, fp32 for floats), so tensor methods apply to it (FlagGems' randperm.py:
# `_block_size = BLOCK_SIZE; r0 % _block_size.to(tl.uint32)`). The number is materialized
# with that type, then the method runs (the uint32 3000000000 widened to int64 folds).
# RUN: %tilecc %s -k k -s "*u32, *i64, *fp16, 512" --emit=tir | FileCheck %s
# CHECK: %[[N:.*]] = constant {value = 512} : i32
# CHECK-NEXT: %[[U:.*]] = bitcast %[[N]] : u32
# CHECK-NEXT: store %u, %[[U]]
# CHECK: constant {value = 3000000000} : i64
# CHECK: %[[H:.*]] = constant {value = 0.5} : f32
# CHECK-NEXT: truncf %[[H]] : f16
import triton
import triton.language as tl


@triton.jit
def k(u, i, h, BLOCK: tl.constexpr):
    n = BLOCK
    tl.store(u, n.to(tl.uint32))
    big = 3000000000
    tl.store(i, big.to(tl.int64))
    half = 0.5
    tl.store(h, half.to(tl.float16))
