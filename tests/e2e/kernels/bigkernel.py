# bigkernel.py: one kernel that tl.static_range unrolls into a function of tens of thousands
# of ops (N bodies, as bench/compile/gen_unroll.py does), with inputs and outputs, for
# bigkernel.c: at N=2000, about 56k tile ops after sema and 260k LLVM instructions on x86-64,
# far over the 20 000 at which a function takes the reduced LLVM pipeline (lib/codegen/emit.c,
# "huge functions"). Each body loads a row of a table, updates a float tile (exact operations
# only: a * 0.5 + t is the same with or without fma), an int32 tile (wrapping multiply, shift,
# xor) and the float tile's sign from it, clamps every 5th body, and reduces across the
# program (tl.max, tl.sum: shared memory on GPUs) every 16th.
import triton
import triton.language as tl


@triton.jit
def bigkernel(x_ptr, t_ptr, out_ptr, kout_ptr, best_ptr, ksum_ptr, n, N: tl.constexpr,
              BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m, other=0.0)
    k = offs
    best = -1e30
    ksum = 0
    for i in tl.static_range(N):
        t = tl.load(t_ptr + (i % 61) * BLOCK + tl.arange(0, BLOCK))
        a = a * 0.5 + t
        k = (k * (2 * i + 3)) ^ (k >> (i % 7 + 1))
        a = tl.where((k & 4) == 0, a, -a)
        if i % 5 == 0:
            a = tl.minimum(tl.maximum(a, -1.5), 1.5)
        if i % 16 == 0:
            best = tl.maximum(best, tl.max(tl.where(m, a, -1e30), 0))
            ksum += tl.sum(tl.where(m, k, 0), 0)
    tl.store(out_ptr + offs, a, mask=m)
    tl.store(kout_ptr + offs, k, mask=m)
    tl.store(best_ptr + pid, best)
    tl.store(ksum_ptr + pid, ksum)
