# Python ints against integer tiles, as Triton 3.x: the int is weak (it takes the tile's
# type, signed or unsigned), and a value the type cannot hold is an error, not a wrap.
# RUN: not %tilecc %s -k k1 -s "*i8" 2>&1 | FileCheck %s --check-prefix=I8
# RUN: not %tilecc %s -k k2 -s "*u8" 2>&1 | FileCheck %s --check-prefix=U8
# RUN: not %tilecc %s -k k3 -s "*u32" 2>&1 | FileCheck %s --check-prefix=NEG
# RUN: not %tilecc %s -k k4 -s "*i32" 2>&1 | FileCheck %s --check-prefix=I32
# RUN: not %tilecc %s -k k5 -s "*fp32" 2>&1 | FileCheck %s --check-prefix=FIELD
# RUN: not %tilecc %s -k k6 -s "*fp32" 2>&1 | FileCheck %s --check-prefix=BLOCK
# RUN: %tilecc %s -k ok -s "*i8, *u8, *u32, *i16" --emit=tir | FileCheck %s --check-prefix=OK
import triton
import triton.language as tl


@triton.jit
def k1(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x + 300
# I8: weak-scalars.py:[[@LINE-1]]:9: error: the constant 300 is out of range for int8 in '+'


@triton.jit
def k2(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x < 256
# U8: weak-scalars.py:[[@LINE-1]]:9: error: the constant 256 is out of range for uint8 in '<'


@triton.jit
def k3(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x & -1
# NEG: weak-scalars.py:[[@LINE-1]]:9: error: cannot use '&' between an unsigned tensor and a negative constant


@triton.jit
def k4(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x ^ 0xFFFFFFFF
# I32: weak-scalars.py:[[@LINE-1]]:9: error: the constant 4294967295 is out of range for int32 in '^'


@triton.jit
def k5(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.static_assert(x.dtype.int_bitwidth == 32)
# FIELD: weak-scalars.py:[[@LINE-1]]:30: error: dtype fp32 has no attribute 'int_bitwidth'


@triton.jit
def k6(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    z = tl.zeros([16], dtype=x.type)
# BLOCK: weak-scalars.py:[[@LINE-1]]:30: error: 'dtype' must be a dtype such as tl.float32, got the block type tensor [16] of fp32


@triton.jit
def ok(a_ptr, b_ptr, c_ptr, d_ptr):
    offs = tl.arange(0, 16)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c = tl.load(c_ptr + offs)
    d = tl.load(d_ptr + offs)
    tl.store(a_ptr + offs, a + 1)
    tl.store(b_ptr + offs, (b + 1) * 3 - 255)
    tl.store(c_ptr + offs, (c % 7) | 0x80000000)
    tl.store(d_ptr + offs, (d << 2) >> 1)
# OK: addi %a, %{{.*}} : tile<16xi8>
# OK: addi %b, %{{.*}} : tile<16xu8>
# OK: remi %c, %{{.*}} : tile<16xu32>
# OK: ori %{{.*}} : tile<16xu32>
# OK: shli %d, %{{.*}} : tile<16xi16>
# OK: shri %{{.*}} : tile<16xi16>
