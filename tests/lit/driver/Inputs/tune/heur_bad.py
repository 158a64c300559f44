import triton
import triton.language as tl


@triton.heuristics({'BLOCK': lambda args: triton.next_power_of_2(args['n'])})
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)
