import triton
import triton.language as tl


@triton.heuristics({'BLOCK': lambda args: 64 if args['n'] > 64 else 16})
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)
