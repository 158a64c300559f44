# tl.dot on the tensor cores of more dtypes (tests/e2e/dot_tc.c): C = C0 + A @ B over a K
# loop with every edge masked, A and B read row-major or transposed (TA, TB: stored K x M
# and N x K, so that the loads run down dim 0), for fp32 inputs at input_precision PREC
# (0 the default, tf32; 1 "ieee"; 2 "tf32x3"), int8 into int32, and fp16 into an fp16
# accumulator (F16ACC: out_dtype=float16, the accumulator carried in fp16), and fp8 (the
# pointers' element type: float8e4nv, float8e5).
import triton
import triton.language as tl


@triton.jit
def dot_tc(a_ptr, b_ptr, c0_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr, ACC_T: tl.constexpr, PREC: tl.constexpr, TA: tl.constexpr,
           TB: tl.constexpr, F16ACC: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    cmask = (rm[:, None] < M) & (rn[None, :] < N)
    acc = tl.load(c0_ptr + rm[:, None] * N + rn[None, :], mask=cmask, other=0).to(ACC_T)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        if TA:
            a_ptrs = a_ptr + kk[None, :] * M + rm[:, None]
        else:
            a_ptrs = a_ptr + rm[:, None] * K + kk[None, :]
        if TB:
            b_ptrs = b_ptr + rn[None, :] * K + kk[:, None]
        else:
            b_ptrs = b_ptr + kk[:, None] * N + rn[None, :]
        amask = (rm[:, None] < M) & (kk[None, :] < K)
        bmask = (kk[:, None] < K) & (rn[None, :] < N)
        if a_ptr.dtype.element_ty.primitive_bitwidth == 8 and not a_ptr.dtype.element_ty.is_int():
            # fp8: the bytes, zero-filled (+0.0) where masked, reinterpreted
            a = tl.load(a_ptrs.to(tl.pointer_type(tl.uint8)), mask=amask, other=0)
            b = tl.load(b_ptrs.to(tl.pointer_type(tl.uint8)), mask=bmask, other=0)
            a = a.to(a_ptr.dtype.element_ty, bitcast=True)
            b = b.to(b_ptr.dtype.element_ty, bitcast=True)
        else:
            a = tl.load(a_ptrs, mask=amask, other=0)
            b = tl.load(b_ptrs, mask=bmask, other=0)
        if F16ACC:
            acc = tl.dot(a, b, acc, out_dtype=tl.float16)
        elif PREC == 1:
            acc = tl.dot(a, b, acc, input_precision="ieee")
        elif PREC == 2:
            acc = tl.dot(a, b, acc, input_precision="tf32x3")
        else:
            acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=cmask)


@triton.jit
def dot_fp8(a_ptr, b_ptr, c0_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
            BK: tl.constexpr, IMP: tl.constexpr):
    # fp8 (the pointers' element type) with max_num_imprecise_acc=IMP: C = C0 + A @ B, A and
    # B row-major, every edge masked
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    cmask = (rm[:, None] < M) & (rn[None, :] < N)
    acc = tl.load(c0_ptr + rm[:, None] * N + rn[None, :], mask=cmask, other=0)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load((a_ptr + rm[:, None] * K + kk[None, :]).to(tl.pointer_type(tl.uint8)),
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        b = tl.load((b_ptr + kk[:, None] * N + rn[None, :]).to(tl.pointer_type(tl.uint8)),
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        a = a.to(a_ptr.dtype.element_ty, bitcast=True)
        b = b.to(b_ptr.dtype.element_ty, bitcast=True)
        acc = tl.dot(a, b, acc, max_num_imprecise_acc=IMP)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=cmask)
