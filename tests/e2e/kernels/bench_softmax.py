# softmax: the benchmark kernel, verbatim from the bench-kernels set (its signatures.tsv gives the
# benchmark specialization); tests/e2e/bench.c runs it at small, awkward sizes.
import triton
import triton.language as tl


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    x = x.to(tl.float32)
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    den = tl.sum(num, axis=0)
    y = num / den
    tl.store(out_ptr + row * out_stride + cols, y.to(out_ptr.dtype.element_ty), mask=mask)
