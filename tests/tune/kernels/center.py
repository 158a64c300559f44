# Row centering (out = x - mean(x) per row) with integer-valued heuristics, for the
# autotuning tests (tests/tune/heur.sh): BLOCK_N, the row's power of two, and ROWS, the rows
# one program takes (fewer as rows grow), both computed from the arguments at launch; a
# boolean one, EVEN_M. The grid (the spec's) uses ROWS.
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({}, num_warps=1),
        triton.Config({}, num_warps=2),
    ],
    key=['N'],
)
@triton.heuristics({
    'BLOCK_N': lambda args: triton.next_power_of_2(args['N']),
    'ROWS': lambda args: max(1, min(4, 512 // args['BLOCK_N'], triton.cdiv(args['M'], 2))),
    'EVEN_M': lambda args: args['M'] % args['ROWS'] == 0,
})
@triton.jit
def center(x_ptr, out_ptr, M, N, stride, BLOCK_N: tl.constexpr, ROWS: tl.constexpr,
           EVEN_M: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    for r in tl.static_range(ROWS):
        row = pid * ROWS + r
        if EVEN_M:
            mask = cols < N
        else:
            mask = (cols < N) & (row < M)
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
        mean = tl.sum(x, axis=0) / N
        tl.store(out_ptr + row * stride + cols, x - mean, mask=mask)
