# tl.dot (tests/e2e/dot.c): C = A @ B (+ C0 when ACC) over a K loop, masked on every edge,
# for fp32 (ieee), fp16 and bf16 with fp32 accumulation, fp16 out_dtype, and int8 -> int32.
import triton
import triton.language as tl


@triton.jit
def dot(a_ptr, b_ptr, c0_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
        BK: tl.constexpr, ACC_T: tl.constexpr, PREC: tl.constexpr, OUT16: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    cmask = (rm[:, None] < M) & (rn[None, :] < N)
    acc = tl.load(c0_ptr + rm[:, None] * N + rn[None, :], mask=cmask, other=0).to(ACC_T)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :],
                    mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0)
        b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :],
                    mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0)
        if OUT16:
            # out_dtype fp16: the product of this block in fp16, added in fp32
            acc += tl.dot(a, b, out_dtype=tl.float16).to(ACC_T)
        elif PREC == 1:
            acc = tl.dot(a, b, acc, input_precision="ieee")
        else:
            acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=cmask)


@triton.jit
def bdot(a_ptr, b_ptr, c_ptr, NB, M, N, K, BB: tl.constexpr, BM: tl.constexpr,
         BN: tl.constexpr, BK: tl.constexpr):
    # batched: C[z] = A[z] @ B[z] for BB matrices per program (3-D tl.dot), K <= BK
    rz = tl.program_id(0) * BB + tl.arange(0, BB)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    z = rz[:, None, None]
    a = tl.load(a_ptr + z * M * K + rm[None, :, None] * K + rk[None, None, :],
                mask=(z < NB) & (rm[None, :, None] < M) & (rk[None, None, :] < K), other=0)
    b = tl.load(b_ptr + z * K * N + rk[None, :, None] * N + rn[None, None, :],
                mask=(z < NB) & (rk[None, :, None] < K) & (rn[None, None, :] < N), other=0)
    c = tl.dot(a, b)
    tl.store(c_ptr + z * M * N + rm[None, :, None] * N + rn[None, None, :], c,
             mask=(z < NB) & (rm[None, :, None] < M) & (rn[None, None, :] < N))


@triton.jit
def mm(a_ptr, b_ptr, c0_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, OUT_T: tl.constexpr):
    # the bench matmul's shape (bench/kernels/matmul.py): pointer tiles advanced by the
    # loop, rows and columns wrapped with % (so B's runs are shorter than a row), only K
    # masked; plus an accumulator read from c0 and the result stored as OUT_T
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = (pid_m * BM + tl.arange(0, BM)) % M
    rn = (pid_n * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    cm = pid_m * BM + tl.arange(0, BM)
    cn = pid_n * BN + tl.arange(0, BN)
    cmask = (cm[:, None] < M) & (cn[None, :] < N)
    acc = tl.load(c0_ptr + cm[:, None] * stride_cm + cn[None, :], mask=cmask, other=0.0)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    tl.store(c_ptr + cm[:, None] * stride_cm + cn[None, :], acc.to(OUT_T), mask=cmask)
