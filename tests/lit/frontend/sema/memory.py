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

# CHECK-LABEL: func @mem(
# CHECK: %[[M:.*]] = multiple_of %{{.*}} {divisibility = [16]} : i32
# CHECK: max_contiguous %{{.*}} {contiguity = [128]} : tile<128xi32>
# CHECK: %[[OTHER:.*]] = constant {value = 1.5} : tile<128xf32>
# CHECK-NEXT: %x = load %[[P:.*]], %mask, %[[OTHER]] {cache = ".cg", evict = "evict_last"} : tile<128xf32>
# CHECK-NEXT: %s = load %x_ptr : f32
# CHECK: store %[[P]], %{{.*}}, %mask
# CHECK-NEXT: %old = atomic_rmw %[[P]], %x, %mask {kind = "fadd", scope = "gpu", sem = "acq_rel"} : tile<128xf32>
# CHECK: atomic_rmw %{{.*}}, %offs, %mask {kind = "max", {{.*}}} : tile<128xi32>
# CHECK: atomic_rmw %{{.*}}, %offs {kind = "min", {{.*}}} : tile<128xi32>
# CHECK: {kind = "and", scope = "gpu", sem = "acq_rel"}
# CHECK: {kind = "or", scope = "gpu", sem = "relaxed"}
# CHECK: {kind = "xor", scope = "cta", sem = "acq_rel"}
# CHECK: {kind = "xchg",
# CHECK: %prev = atomic_cas %{{.*}}, %{{.*}}, %{{.*}} {scope = "gpu", sem = "acq_rel"} : i32
# block pointers: shape and strides as i64, offsets as i32
# CHECK: %[[N64:.*]] = exti %n : i64
# CHECK: %bp = make_block_ptr %h_ptr, %[[N64]], %[[N64]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {order = [1, 0]} : ptr<tile<32x64xf16>>
# CHECK-NEXT: %blk = load %bp {boundary_check = [0, 1], padding = "zero"} : tile<32x64xf16>
# CHECK: %bp_1 = advance %bp, %{{.*}}, %{{.*}} : ptr<tile<32x64xf16>>
# CHECK: store %bp_1, %{{.*}} {boundary_check = [1]}
# CHECK: assert %{{.*}} {msg = "cas result"}
# CHECK-NEXT: barrier
