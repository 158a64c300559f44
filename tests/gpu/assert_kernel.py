# The kernel of test_cuda_runtime --assert: tl.device_assert on every element.
import triton
import triton.language as tl


@triton.jit
def check_below(x_ptr, n, limit, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.device_assert(x < limit, "x < limit")
