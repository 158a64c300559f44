# Inline assembly, run by tests/e2e/asm.c: tl.inline_asm_elementwise with PTX text (NVIDIA)
# and, for CPU targets, tilecc's cpu= variant computing the same thing. Registered without
# the AMD targets (the text is PTX).
import triton
import triton.language as tl


@triton.jit
def _shift_add(x, y):
    return (x << 3) + y


@triton.jit
def asm_shift_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    r = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;\n\tadd.s32 $0, $0, $2;", "=r,r,r",
                                  [x, y], dtype=tl.int32, is_pure=True, pack=1,
                                  cpu=_shift_add)
    # a scalar argument is broadcast like the others
    r2 = tl.inline_asm_elementwise("add.s32 $0, $1, $2;", "=r,r,r", [r, 5], dtype=tl.int32,
                                   is_pure=True, pack=1, cpu=lambda_free_add)
    tl.store(out_ptr + offs, r2, mask=mask)


@triton.jit
def lambda_free_add(a, b):
    return a + b


@triton.jit
def _diff_half(x, y):
    return x - y, x.to(tl.float32) * 0.5


# Several results: a tuple of dtypes gives a tuple of tiles (int32 x - y, float32 x / 2),
# $0 and $1 the results, $2 and $3 the arguments.
@triton.jit
def asm_multi(x_ptr, y_ptr, d_ptr, h_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    d, h = tl.inline_asm_elementwise(
        "sub.s32 $0, $2, $3;\n\tcvt.rn.f32.s32 $1, $2;\n\tmul.f32 $1, $1, 0f3F000000;",
        "=r,=r,r,r", [x, y], dtype=(tl.int32, tl.float32), is_pure=True, pack=1,
        cpu=_diff_half)
    tl.store(d_ptr + offs, d, mask=mask)
    tl.store(h_ptr + offs, h, mask=mask)


@triton.jit
def _low5_shl3(x):
    return ((x & 0x1F) << 3).to(tl.int8)


@triton.jit
def _h2(h):
    return h + h, h.to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF


# pack > 1, as Triton defines it: pack=4 puts four uint8 arguments in one 32-bit register
# and gets four int8 results back in one ($0 a <4 x i8> register, $1 another); pack=2 with
# an fp16 argument (one <2 x half> register, $3) and two results, fp16 (one <2 x half>
# register, $0) and int32 (one register per element: $1 for the first element of the pair,
# $2 for the second), here the raw bits of each half.
@triton.jit
def asm_pack(x_ptr, y_ptr, h_ptr, g_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F;\n\tshl.b32 $0, $0, 3;", "=r,r",
                                  [x], dtype=tl.int8, is_pure=True, pack=4, cpu=_low5_shl3)
    tl.store(y_ptr + offs, y, mask=mask)
    h = tl.load(h_ptr + offs, mask=mask)
    g, b = tl.inline_asm_elementwise(
        "add.rn.f16x2 $0, $3, $3;\n\tand.b32 $1, $3, 0xFFFF;\n\tshr.u32 $2, $3, 16;",
        "=r,=r,=r,r", [h], dtype=(tl.float16, tl.int32), is_pure=True, pack=2, cpu=_h2)
    tl.store(g_ptr + offs, g, mask=mask)
    tl.store(b_ptr + offs, b, mask=mask)
