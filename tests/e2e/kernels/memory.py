# Memory (tests/e2e/memory.c): atomics from many programs, block pointers with boundary
# checks and zero padding on a matrix whose sizes are not multiples of the block, and
# masked loads with `other` values, scalar loads and stores.
import triton
import triton.language as tl


@triton.jit
def atomics(x_ptr, f_ptr, cnt_ptr, hist_ptr, mx_ptr, mn_ptr, fsum_ptr, slot_ptr, old_ptr,
            cas_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    f = tl.load(f_ptr + offs, mask=mask, other=0.0)
    # one counter: the exact integer sum of x
    tl.atomic_add(cnt_ptr, tl.sum(x, axis=0))
    # histogram of x % 16, a tensor atomic with a mask, many programs per bucket
    tl.atomic_add(hist_ptr + (x & 15), 1, mask=mask)
    # bucketed max and min
    tl.atomic_max(mx_ptr + (offs % 8), x, mask=mask)
    tl.atomic_min(mn_ptr + (offs % 8), x, mask=mask)
    # fp32 sum, in any order
    tl.atomic_add(fsum_ptr, tl.sum(f, axis=0))
    # exchange: every program swaps its id into one slot; the olds and the last value are
    # a permutation of the initial value and the ids
    old = tl.atomic_xchg(slot_ptr, pid + 1)
    tl.store(old_ptr + pid, old)
    # cas: an increment loop under contention, then a cas that must fail
    cur = 0
    prev = tl.atomic_cas(cas_ptr, cur, cur + 1)
    while prev != cur:
        cur = prev
        prev = tl.atomic_cas(cas_ptr, cur, cur + 1)
    got = tl.atomic_cas(cas_ptr + 1 + pid, 0, pid + 7)
    again = tl.atomic_cas(cas_ptr + 1 + pid, 0, 99)
    tl.store(old_ptr + tl.num_programs(0) + pid, got * 1000 + again)


@triton.jit
def block_ptrs(a_ptr, pad_ptr, sum_ptr, out_ptr, M, N, stride_m, BM: tl.constexpr,
               BN: tl.constexpr):
    # program (i): rows i*BM.. of the M x N matrix a (row stride stride_m)
    pid = tl.program_id(0)
    bp = tl.make_block_ptr(base=a_ptr, shape=(M, N), strides=(stride_m, 1),
                           offsets=(pid * BM, 0), block_shape=(BM, BN), order=(1, 0))
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    # the first block, zero-padded, stored in full into the padded copy
    first = tl.load(bp, boundary_check=(0, 1), padding_option="zero")
    tl.store(pad_ptr + rm[:, None] * BN + rn[None, :], first)
    # row sums over all column blocks with advance
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for j in range(0, tl.cdiv(N, BN)):
        acc += tl.load(bp, boundary_check=(0, 1), padding_option="zero")
        bp = tl.advance(bp, (0, BN))
    tl.store(sum_ptr + rm, tl.sum(acc, axis=1), mask=rm < M)
    # a block-pointer store with boundary checks: out = 2 * a, nothing outside M x N
    ob = tl.make_block_ptr(base=out_ptr, shape=(M, N), strides=(N, 1), offsets=(pid * BM, 0),
                           block_shape=(BM, BN), order=(1, 0))
    ib = tl.make_block_ptr(base=a_ptr, shape=(M, N), strides=(stride_m, 1),
                           offsets=(pid * BM, 0), block_shape=(BM, BN), order=(1, 0))
    for j in range(0, tl.cdiv(N, BN)):
        v = tl.load(ib, boundary_check=(0, 1), padding_option="zero")
        tl.store(ob, v * 2.0, boundary_check=(0, 1))
        ib = tl.advance(ib, (0, BN))
        ob = tl.advance(ob, (0, BN))


@triton.jit
def masked(x_ptr, out_ptr, s_ptr, n, BLOCK: tl.constexpr):
    # a whole BLOCK out per program: the masked lanes read `other`
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=-7.5)
    s = tl.load(s_ptr)  # a scalar load
    tl.store(out_ptr + offs, x + s)
    # odd lanes only, with a mask built from a comparison of a tile with itself
    tl.store(out_ptr + tl.num_programs(0) * BLOCK + offs, x, mask=(offs < n) & (offs % 2 == 1))
    # a scalar store by the last program
    if pid == tl.num_programs(0) - 1:
        tl.store(s_ptr + 1, s * 2)


@triton.jit
def bool_masks(x_ptr, m_ptr, out_ptr, keep_ptr, n, BLOCK: tl.constexpr):
    # a store under a mask loaded straight from a bool tensor (whole blocks: the buffers are
    # padded), and a masked bool load whose `other` is a bool tile (FlagGems masked_select)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    sel = tl.load(m_ptr + offs)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs), mask=sel)
    keep = tl.load(m_ptr + offs, mask=offs < n, other=offs % 3 == 0)
    tl.store(keep_ptr + offs, keep)


@triton.jit
def transposed(x_ptr, out_ptr, back_ptr, C, stride, ldo, BR: tl.constexpr, BC: tl.constexpr):
    # x holds C rows of `stride` elements; the tile is a slice of x^T: element (r, c) is
    # x[c, r], contiguous down the columns (16-byte runs along dim 0 on the GPUs)
    pid = tl.program_id(0)
    r = tl.arange(0, BR)
    c = pid * BC + tl.arange(0, BC)
    m = c[None, :] < C
    t = tl.load(x_ptr + c[None, :] * stride + r[:, None], mask=m, other=1.5)
    # the tile row-major, `other` included (no mask: out has BR rows of ldo >= C)
    tl.store(out_ptr + r[:, None] * ldo + c[None, :], t * 2.0)
    # and back where it came from, again contiguous along dim 0, under the mask
    tl.store(back_ptr + c[None, :] * stride + r[:, None], t + 1.0, mask=m)


@triton.jit
def ptr_walk(x_ptr, out_ptr, n, rows, BLOCK: tl.constexpr):
    # program (i): columns i*BLOCK.. of the rows x n matrix x (row stride n), walked down by
    # two loop-carried pointer tiles, one advanced by a scalar (n), one by a constant
    # (BLOCK); out: program i's rows x BLOCK running column sums at out + i * rows * BLOCK
    pid = tl.program_id(0)
    cols = pid * BLOCK + tl.arange(0, BLOCK)
    xp = x_ptr + cols
    op = out_ptr + pid * rows * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r in range(0, rows):
        acc += tl.load(xp, mask=cols < n, other=0.0)
        tl.store(op, acc)
        xp += n
        op += BLOCK
