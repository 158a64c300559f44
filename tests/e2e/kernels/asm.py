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
