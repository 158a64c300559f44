# Element-wise arithmetic in every dtype family with Triton's promotion rules.
# RUN: %tilecc %s -k promote -s "*fp16, *bf16, *fp32, *i8, *i32, *u32, *i64, *fp64, i32, 64" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import triton
import triton.language as tl


@triton.jit
def promote(h_ptr, b_ptr, f_ptr, c_ptr, i_ptr, u_ptr, l_ptr, d_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(h_ptr + offs)
    b = tl.load(b_ptr + offs)
    f = tl.load(f_ptr + offs)
    c = tl.load(c_ptr + offs)
    i = tl.load(i_ptr + offs)
    u = tl.load(u_ptr + offs)
    l = tl.load(l_ptr + offs)
    d = tl.load(d_ptr + offs)
    # a Python float does not widen fp16 or bf16
    tl.store(h_ptr + offs, h * 2.0 + 1)
    tl.store(b_ptr + offs, b - 0.5)
    # fp16 / fp16 and fp16 % fp16 compute in fp32
    tl.store(f_ptr + offs, h / h)
    tl.store(f_ptr + offs, h % h)
    # fp16 wins over bf16 (Triton checks fp16 first); fp32 with fp64 meets in fp64
    tl.store(f_ptr + offs, h + b)
    tl.store(d_ptr + offs, f * d)
    # int8 + int32 -> int32; int32 + uint32 -> uint32; int32 * int64 -> int64
    tl.store(i_ptr + offs, c + i)
    tl.store(u_ptr + offs, i + u)
    tl.store(l_ptr + offs, i * l)
    # int / int -> fp32 true division; // and % truncate (C semantics on tensors)
    tl.store(f_ptr + offs, i / n)
    tl.store(i_ptr + offs, i // 3 + i % n)
    # a runtime i32 scalar is strongly typed: fp16 * i32 scalar -> fp16 (float wins)
    tl.store(h_ptr + offs, h * n)
    # Python int with int8 tensor keeps int8
    tl.store(c_ptr + offs, c + 1)
    # bitwise and shifts
    tl.store(i_ptr + offs, (i & 0xff) | (i ^ n) << 2 >> 1)
    # unary
    tl.store(f_ptr + offs, -f + (+f))
    tl.store(i_ptr + offs, ~i)
    # comparisons give int1, used as a mask
    m = (i < n) & (f >= 0.0) | ~(u == 7)
    tl.store(f_ptr + offs, f, mask=m)
    # casts, including bf16 <-> fp16 through fp32 and bitcast
    tl.store(h_ptr + offs, b.to(tl.float16))
    tl.store(i_ptr + offs, f.to(tl.int32, bitcast=True))
    tl.store(u_ptr + offs, f.to(tl.uint32))
    tl.store(c_ptr + offs, (f > 0).to(tl.int8))
    # constexpr arithmetic folds with Python semantics: -7 // 2 == -4 at compile time
    tl.store(i_ptr + offs, i + (-7 // 2) + (-7 % 2) + BLOCK ** 2 // 1024)
