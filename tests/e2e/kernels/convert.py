# Conversions with .to(): the source and destination dtypes come from the signature
# (tests/e2e/convert.c compiles these once per pair).
import triton
import triton.language as tl


@triton.jit
def convert(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bitcast(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x.to(out_ptr.dtype.element_ty, bitcast=True), mask=mask)


@triton.jit
def cast_chain(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # fp32 -> bf16 -> fp16 -> fp32 and fp32 -> int8 -> fp32 in one kernel, with tl.cast
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    a = x.to(tl.bfloat16).to(tl.float16).to(tl.float32)
    b = tl.cast(x, tl.int8).to(tl.float32)
    tl.store(out_ptr + offs * 2, a, mask=mask)
    tl.store(out_ptr + offs * 2 + 1, b, mask=mask)
