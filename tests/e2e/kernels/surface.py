# The language surface of real kernels, run by tests/e2e/surface.c: optional pointers
# (`is None` on a parameter that the signature or the default makes None), dtype queries
# that pick code at compile time, runtime values passed to a helper's tl.constexpr
# parameter, tl.range's scheduling keywords, and weak Python ints against unsigned and
# narrow integer tiles.
import triton
import triton.language as tl


@triton.jit
def _add_pos(x, offs_m: tl.constexpr, K: tl.constexpr):
    # offs_m is annotated tl.constexpr but receives a tensor (as tutorial 06 does)
    return x + (offs_m % K).to(x.dtype)


@triton.jit
def opt_bias(x_ptr, b_ptr, out_ptr, n, scale_ptr=None, BLOCK: tl.constexpr = 128):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if b_ptr is not None:
        x = x + tl.load(b_ptr + offs, mask=mask, other=0.0)
    if scale_ptr is not None:
        x = x * tl.load(scale_ptr)
    # the dtype decides at compile time: fp16 doubles, fp32 negates
    if x.dtype.is_fp16():
        x = x * 2
    elif x.dtype == tl.float32 and x_ptr.type.element_ty.primitive_bitwidth == 32:
        x = -x
    y = _add_pos(x, offs, 5)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.range(0, 3, num_stages=2, loop_unroll_factor=2, flatten=True,
                      disallow_acc_multi_buffer=True, warp_specialize=False):
        acc += y.to(tl.float32)
    tl.store(out_ptr + offs, acc.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def weak_ints(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # every Python int below is weak: the arithmetic stays in x's type (and wraps)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1)
    r = (x % 7) + (x & 0x70) + (x >> 3)
    r = r * 3 + 1
    r = r ^ (x | 5)
    r = tl.where(x < 100, r, r - 1)
    tl.static_assert(r.dtype == x_ptr.dtype.element_ty)
    tl.store(out_ptr + offs, r, mask=mask)
