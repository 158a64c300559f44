# libdevice functions (tests/e2e/libdevice.c): each function f reads its own inputs at
# x_ptr + f * n (and y_ptr + f * n for the second argument) and writes out_ptr + f * n, in
# fp32 or fp64; the integer results (ilogb and the classifications) go to iout_ptr.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def unary(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    for name in tl.static_range(18):
        x = tl.load(x_ptr + name * n + i, mask=mask, other=0.5)
        if name == 0:
            r = libdevice.tanh(x)
        elif name == 1:
            r = libdevice.tan(x)
        elif name == 2:
            r = libdevice.asin(x)
        elif name == 3:
            r = libdevice.acos(x)
        elif name == 4:
            r = libdevice.atan(x)
        elif name == 5:
            r = libdevice.sinh(x)
        elif name == 6:
            r = libdevice.cosh(x)
        elif name == 7:
            r = libdevice.log1p(x)
        elif name == 8:
            r = libdevice.expm1(x)
        elif name == 9:
            r = libdevice.log10(x)
        elif name == 10:
            r = libdevice.exp10(x)
        elif name == 11:
            r = libdevice.cbrt(x)
        elif name == 12:
            r = libdevice.erfinv(x)
        elif name == 13:
            r = libdevice.trunc(x)
        elif name == 14:
            r = libdevice.round(x)
        elif name == 15:
            r = libdevice.rint(x)
        elif name == 16:
            r = libdevice.nearbyint(x)
        else:
            r = tl.math.tanh(x) + tl.erf(x)  # the tl.math and tl spellings
        tl.store(out_ptr + name * n + i, r, mask=mask)


@triton.jit
def binary(x_ptr, y_ptr, e_ptr, out_ptr, iout_ptr, n, BLOCK: tl.constexpr):
    # pow, atan2, fmod, hypot, ldexp (int32 exponents from e_ptr), pow with an int32
    # exponent; ilogb, isnan, isinf, signbit, finite (finitef / isfinited by dtype) of x
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    x0 = tl.load(x_ptr + 0 * n + i, mask=mask, other=1.0)
    y0 = tl.load(y_ptr + 0 * n + i, mask=mask, other=1.0)
    tl.store(out_ptr + 0 * n + i, libdevice.pow(x0, y0), mask=mask)
    x1 = tl.load(x_ptr + 1 * n + i, mask=mask, other=1.0)
    y1 = tl.load(y_ptr + 1 * n + i, mask=mask, other=1.0)
    tl.store(out_ptr + 1 * n + i, libdevice.atan2(x1, y1), mask=mask)
    x2 = tl.load(x_ptr + 2 * n + i, mask=mask, other=1.0)
    y2 = tl.load(y_ptr + 2 * n + i, mask=mask, other=1.0)
    tl.store(out_ptr + 2 * n + i, libdevice.fmod(x2, y2), mask=mask)
    x3 = tl.load(x_ptr + 3 * n + i, mask=mask, other=1.0)
    y3 = tl.load(y_ptr + 3 * n + i, mask=mask, other=1.0)
    tl.store(out_ptr + 3 * n + i, libdevice.hypot(x3, y3), mask=mask)
    x4 = tl.load(x_ptr + 4 * n + i, mask=mask, other=1.0)
    e = tl.load(e_ptr + i, mask=mask, other=0)
    tl.store(out_ptr + 4 * n + i, libdevice.ldexp(x4, e), mask=mask)
    x5 = tl.load(x_ptr + 5 * n + i, mask=mask, other=1.0)
    tl.store(out_ptr + 5 * n + i, libdevice.pow(x5, e), mask=mask)
    x6 = tl.load(x_ptr + 6 * n + i, mask=mask, other=1.0)
    tl.store(iout_ptr + 0 * n + i, libdevice.ilogb(x6), mask=mask)
    tl.store(iout_ptr + 1 * n + i, libdevice.isnan(x6), mask=mask)
    tl.store(iout_ptr + 2 * n + i, libdevice.isinf(x6), mask=mask)
    tl.store(iout_ptr + 3 * n + i, libdevice.signbit(x6), mask=mask)
    if x6.dtype == tl.float32:
        fin = libdevice.finitef(x6)
    else:
        fin = libdevice.isfinited(x6)
    tl.store(iout_ptr + 4 * n + i, fin, mask=mask)
