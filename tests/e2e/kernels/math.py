# Math functions (tests/e2e/math.c): every unary function of the tl surface in fp32 and fp64
# in one kernel (output f goes to out_ptr + f * n), the binary and ternary helpers, and the
# integer ones.
import triton
import triton.language as tl


@triton.jit
def unary(x_ptr, p_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # x: any sign; p: positive (log, sqrt, rsqrt)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.5)
    p = tl.load(p_ptr + offs, mask=mask, other=1.0)
    tl.store(out_ptr + 0 * n + offs, tl.exp(x), mask=mask)
    tl.store(out_ptr + 1 * n + offs, tl.exp2(x), mask=mask)
    tl.store(out_ptr + 2 * n + offs, tl.log(p), mask=mask)
    tl.store(out_ptr + 3 * n + offs, tl.log2(p), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.sqrt(p), mask=mask)
    tl.store(out_ptr + 5 * n + offs, tl.rsqrt(p), mask=mask)
    tl.store(out_ptr + 6 * n + offs, tl.sin(x), mask=mask)
    tl.store(out_ptr + 7 * n + offs, tl.cos(x), mask=mask)
    tl.store(out_ptr + 8 * n + offs, tl.erf(x), mask=mask)
    tl.store(out_ptr + 9 * n + offs, tl.floor(x), mask=mask)
    tl.store(out_ptr + 10 * n + offs, tl.ceil(x), mask=mask)
    tl.store(out_ptr + 11 * n + offs, tl.abs(x), mask=mask)
    tl.store(out_ptr + 12 * n + offs, tl.sigmoid(x), mask=mask)
    tl.store(out_ptr + 13 * n + offs, tl.math.exp2(x) + tl.math.sqrt(p), mask=mask)
    # sqrt_rn takes fp32 only (as in Triton); a compile-time if on the dtype
    if p.dtype == tl.float32:
        r = tl.sqrt_rn(p)
    else:
        r = tl.sqrt(p)
    tl.store(out_ptr + 14 * n + offs, r, mask=mask)


@triton.jit
def ternary(x_ptr, y_ptr, z_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    # fma, maximum, minimum, where, clamp, fdiv/div_rn, and a runtime fp32 scalar
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    z = tl.load(z_ptr + offs, mask=mask)
    tl.store(out_ptr + 0 * n + offs, tl.fma(x, y, z), mask=mask)
    tl.store(out_ptr + 1 * n + offs, tl.maximum(x, y), mask=mask)
    tl.store(out_ptr + 2 * n + offs, tl.minimum(x, z), mask=mask)
    tl.store(out_ptr + 3 * n + offs, tl.where(x > y, x, z), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.clamp(x, -0.5, 0.5), mask=mask)
    tl.store(out_ptr + 5 * n + offs, tl.where(x > 0, x * alpha, 0.0), mask=mask)
    tl.store(out_ptr + 6 * n + offs, tl.div_rn(x, y), mask=mask)
    tl.store(out_ptr + 7 * n + offs, tl.maximum(tl.minimum(x, z), y) * alpha + z, mask=mask)


@triton.jit
def int_math(i_ptr, u_ptr, oi_ptr, ou_ptr, n, BLOCK: tl.constexpr):
    # abs and maximum on int32, umulhi on uint32, cdiv-style arithmetic
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    i = tl.load(i_ptr + offs, mask=mask)
    u = tl.load(u_ptr + offs, mask=mask)
    tl.store(oi_ptr + 0 * n + offs, tl.abs(i), mask=mask)
    tl.store(oi_ptr + 1 * n + offs, tl.maximum(i, 0) + tl.minimum(i, -5), mask=mask)
    tl.store(oi_ptr + 2 * n + offs, tl.where(i % 3 == 0, i // 7, -i), mask=mask)
    tl.store(ou_ptr + 0 * n + offs, tl.umulhi(u, u + 12345), mask=mask)
    tl.store(ou_ptr + 1 * n + offs, tl.abs(u) >> 3, mask=mask)
