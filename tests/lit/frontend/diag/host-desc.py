# Host-made tensor descriptors: the signature type tensordesc<DTYPE[BLOCK...]> (Triton's
# spelling), what it expands to, the header's typed parameter, and its errors, located in
# the signature.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %tilecc %s -k k -s "tensordesc<fp16[16, 64]>, i32, 16, 64" --emit=tir | FileCheck %s --check-prefix=TIR
# RUN: %tilecc %s -k k -s "tensordesc<fp16[16,64]>, i32, 16, 64" --emit=tir | FileCheck %s --check-prefix=TIR
# RUN: %tilecc %s -k k -s "tensordesc<fp16[16, 64]>, i32, 16, 64" -o %t/k.h
# RUN: FileCheck %s --check-prefix=HDR --input-file %t/k.h
# RUN: FileCheck %s --check-prefix=SRC --input-file %t/k.c
# RUN: %tilecc %s -k ann --emit=tir | FileCheck %s --check-prefix=ANN
# RUN: not %tilecc %s -k k -s "tensordesc<fp16[16, 4]>, i32, 16, 4" 2>&1 | FileCheck %s --check-prefix=BYTES
# RUN: not %tilecc %s -k k -s "tensordesc<fp16[16, 48]>, i32, 16, 48" 2>&1 | FileCheck %s --check-prefix=POW2
# RUN: not %tilecc %s -k k -s "tensordesc<fp17[16, 64]>, i32, 16, 64" 2>&1 | FileCheck %s --check-prefix=DTYPE
# RUN: not %tilecc %s -k k -s "tensordesc<fp16[16, 64], i32, 16, 64" 2>&1 | FileCheck %s --check-prefix=CLOSE
# RUN: not %tilecc %s -k k -s "tensordesc<fp16[16, x]>, i32, 16, 64" 2>&1 | FileCheck %s --check-prefix=INT
# RUN: not %tilecc %s -k k -s "tensordesc<fp16[1, 1, 1, 1, 1, 64]>, i32, 16, 64" 2>&1 | FileCheck %s --check-prefix=RANK
# RUN: not %tilecc %s -k k -s "tensordesc<fp16[16, 64],NVMMASharedLayout(swizzle_byte_width=128)>, i32, 16, 64" 2>&1 | FileCheck %s --check-prefix=GLUON
# RUN: not %tilecc %s -k k -s "tensordesc[fp16], i32, 16, 64" 2>&1 | FileCheck %s --check-prefix=LT
# RUN: not %tilecc %s -k two -s "i32, tensordesc<fp32[3]>" 2>&1 | FileCheck %s --check-prefix=COL
import triton
import triton.language as tl


@triton.jit
def k(x_desc, n, BM: tl.constexpr, BN: tl.constexpr):
    x = x_desc.load([tl.program_id(0) * BM, 0])
    tl.static_assert(x_desc.dtype == tl.float16)
    x_desc.store([n, 0], x + 1)


@triton.jit
def ann(x_desc: "tensordesc<fp32[8]>", n: "i32"):
    x_desc.store([n], x_desc.load([0]))


@triton.jit
def two(n, y_desc):
    y_desc.store([n], y_desc.load([0]))


# TIR: func @k(%x_desc: ptr<f16> {divisibility = 16}, %x_desc_shape0: i32, %x_desc_shape1: i32, %x_desc_stride0: i64, %x_desc_stride1: i64, %x_desc_padding: i1, %n: i32)
# TIR: select %x_desc_padding
# ANN: func @ann(%x_desc: ptr<f32> {divisibility = 16}, %x_desc_shape0: i32, %x_desc_stride0: i64, %x_desc_padding: i1, %n: i32)
# HDR: int k_launch(tilert_stream *stream, tilert_grid grid,
# HDR-NEXT: const tilert_tensor_desc *x_desc,
# HDR-NEXT: int32_t n);
# SRC: void *args[7] = {NULL, NULL, NULL, NULL, NULL, NULL, &n};
# SRC: if (!x_desc || x_desc->rank != 2)
# SRC: rc = tilert_tensor_desc_append(x_desc, args, 6, &n);
# SRC: return tilert_launch(k, stream, grid, args, 7);
# BYTES: <signature>:1:1: error: a descriptor's block must have at least 16 bytes in the last dimension, got 4 * 2 = 8 bytes
# POW2: <signature>:1:1: error: shape dimension 1 is 48; tile dimensions must be powers of two
# DTYPE: <signature>:1:1: error: bad tensor descriptor type 'tensordesc<fp17[16, 64]>': expected a dtype such as fp16 or i32 after '<', then the block shape in brackets
# CLOSE: <signature>:1:1: error: unbalanced brackets in the signature entry 'tensordesc<fp16[16, 64], i32, 16, 64'
# COL: <signature>:1:6: error: shape dimension 0 is 3; tile dimensions must be powers of two
# INT: <signature>:1:1: error: bad tensor descriptor type 'tensordesc<fp16[16, x]>': the block shape must be integers, such as [64, 64]
# RANK: <signature>:1:1: error: tensor descriptors have 1 to 5 dimensions
# GLUON: <signature>:1:1: error: 'tensordesc<fp16[16, 64],NVMMASharedLayout(swizzle_byte_width=128)>': descriptors with a shared-memory layout (Gluon's tensordesc<..., layout>) are not supported
# LT: <signature>:1:1: error: bad tensor descriptor type 'tensordesc[fp16]' (expected tensordesc<DTYPE[BLOCK, ...]>, such as tensordesc<fp16[64, 64]>)
