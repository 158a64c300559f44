# `.value` of a compile-time value is the value itself, as tl.constexpr(x).value is x in
# Triton (FlagGems' utils/limits.py: `dtype_ = dtype.value`).
# RUN: %tilecc %s -k k -s "*fp32, *i8, tl.float32" --emit=tir | FileCheck %s
# CHECK: constant {value = inf} : f32
# CHECK: constant {value = 127} : i8
import triton
import triton.language as tl


@triton.jit
def dtype_max(dtype):
    d = dtype.value
    if d.is_floating():
        return float("inf")
    return 2 ** (d.int_bitwidth - 1) - 1


@triton.jit
def k(f, i, DT: tl.constexpr):
    tl.store(f, tl.full([], dtype_max(DT), tl.float32))
    tl.store(i, tl.full([], dtype_max(tl.int8), tl.int8))
