# axpy with autotune configs and a heuristic, for the autotuning tests (tests/tune). The
# fourth config does not compile (tl.arange needs a power of two): the tuner skips it.
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({'BLOCK': 16}, num_warps=1),
        triton.Config({'BLOCK': 64}, num_warps=2),
        triton.Config({'BLOCK': 256}, num_warps=4, num_stages=1),
        triton.Config({'BLOCK': 24}, num_warps=1),
    ],
    key=['n'],
)
@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})
@triton.jit
def axpy(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + offs)
        y = tl.load(y_ptr + offs)
        tl.store(out_ptr + offs, alpha * x + y)
    else:
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, alpha * x + y, mask=mask)
