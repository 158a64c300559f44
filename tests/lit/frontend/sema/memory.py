# Loads and stores with masks, other and hints; scalar loads; atomics; block pointers
# with boundary checks and padding; multiple_of / max_contiguous; device_assert, barriers.
# RUN: %tilecc %s -k mem -s "*fp32:16, *i32:16, *fp16:16, i32:16, i32, i32, 128" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
import triton
import triton.language as tl


@triton.jit
def mem(x_ptr, i_ptr, h_ptr, n, stride_m, stride_n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.multiple_of(pid * BLOCK, 16) + tl.max_contiguous(tl.arange(0, BLOCK), BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.5, cache_modifier=".cg", eviction_policy="evict_last")
    s = tl.load(x_ptr)
    tl.store(x_ptr + offs, x + s, mask=mask)
    old = tl.atomic_add(x_ptr + offs, x, mask=mask)
    tl.atomic_max(i_ptr + offs, offs, mask=mask)
    tl.atomic_min(i_ptr + offs, offs)
    tl.atomic_and(i_ptr + offs, 3)
    tl.atomic_or(i_ptr + offs, 4, sem="relaxed")
    tl.atomic_xor(i_ptr + offs, 5, scope="cta")
    tl.atomic_xchg(i_ptr + offs, 6)
    prev = tl.atomic_cas(i_ptr + pid, 0, 1)
    bp = tl.make_block_ptr(base=h_ptr, shape=(n, n), strides=(stride_m, stride_n),
                           offsets=(pid * 32, 0), block_shape=(32, 64), order=(1, 0))
    blk = tl.load(bp, boundary_check=(0, 1), padding_option="zero")
    bp = tl.advance(bp, (0, 64))
    tl.store(bp, blk * 2, boundary_check=(1,))
    tl.device_assert(prev >= 0, "cas result")
    tl.debug_barrier()
    tl.store(x_ptr + offs, old, mask=mask)
