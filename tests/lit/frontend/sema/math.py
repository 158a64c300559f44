# Math functions (tl.* and tl.math.*), fma, sigmoid, umulhi, clamp, where, maximum/minimum,
# abs on ints and floats, floor/ceil, and Python/`math` builtins on constexprs.
# RUN: %tilecc %s -k mathk -s "*fp32:16, *i32:16, *u32:16, fp32, 128" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import math
import triton
import triton.language as tl


@triton.jit
def mathk(x_ptr, i_ptr, u_ptr, alpha, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    u = tl.load(u_ptr + offs)
    y = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sqrt(x) + tl.rsqrt(x)
    y += tl.sin(x) + tl.cos(x) + tl.abs(x) + tl.floor(x) + tl.ceil(x)
    y += tl.math.exp2(x) + tl.math.sqrt(x) + tl.math.erf(x)
    y += tl.fma(x, alpha, 1.0) + tl.sigmoid(x)
    y = tl.clamp(y, -1.0, 1.0)
    y = tl.where(x > 0, y, 0.0)
    y = tl.maximum(y, x) + tl.minimum(y, alpha)
    y = y * math.pi + float("inf") * 0.0 + min(BLOCK, 64) + max(1, 2, 3)
    y = y + triton.cdiv(BLOCK, 48) + tl.cdiv(BLOCK, 3) + triton.next_power_of_2(100)
    tl.store(x_ptr + offs, y)
    tl.store(i_ptr + offs, tl.abs(i) + tl.maximum(i, 0))
    tl.store(u_ptr + offs, tl.umulhi(u, u) + tl.abs(u))
