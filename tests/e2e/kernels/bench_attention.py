# attention: the benchmark kernel, verbatim from the bench-kernels set (its signatures.tsv gives the
# benchmark specialization); tests/e2e/bench.c runs it at small, awkward sizes.
import triton
import triton.language as tl


@triton.jit
def attention(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, sm_scale,
              stride_h, stride_s,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # one program: BLOCK_M queries of one (batch*head); q, k, v, o: [BH, S, D] contiguous
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    base = bh * stride_h
    q = tl.load(q_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :],
                mask=offs_m[:, None] < seq_len, other=0.0)
    m_i = tl.full([BLOCK_M], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, seq_len, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_ptr + base + cols[None, :] * stride_s + offs_d[:, None],
                    mask=cols[None, :] < seq_len, other=0.0)
        qk = tl.dot(q, k) * qk_scale
        qk = tl.where(cols[None, :] < seq_len, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptr + base + cols[:, None] * stride_s + offs_d[None, :],
                    mask=cols[:, None] < seq_len, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :],
             out.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < seq_len)
