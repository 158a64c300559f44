# Element-wise arithmetic, run by tests/e2e/elementwise.c in every dtype: the dtypes come
# from the signature, so each kernel is compiled once per dtype (or dtype pair).
import triton
import triton.language as tl


@triton.jit
def int_ops(x_ptr, y_ptr, s_ptr, add_ptr, sub_ptr, mul_ptr, div_ptr, mod_ptr, and_ptr,
            or_ptr, xor_ptr, shl_ptr, shr_ptr, cmp_ptr, max_ptr, min_ptr, neg_ptr, not_ptr,
            n, BLOCK: tl.constexpr):
    # integers: + - * // % & | ^ << >> comparisons maximum minimum - ~, all in x's dtype
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    s = tl.load(s_ptr + offs, mask=mask, other=0)
    tl.store(add_ptr + offs, x + y, mask=mask)
    tl.store(sub_ptr + offs, x - y, mask=mask)
    tl.store(mul_ptr + offs, x * y, mask=mask)
    tl.store(div_ptr + offs, x // y, mask=mask)
    tl.store(mod_ptr + offs, x % y, mask=mask)
    tl.store(and_ptr + offs, x & y, mask=mask)
    tl.store(or_ptr + offs, x | y, mask=mask)
    tl.store(xor_ptr + offs, x ^ y, mask=mask)
    tl.store(shl_ptr + offs, x << s, mask=mask)
    tl.store(shr_ptr + offs, x >> s, mask=mask)
    c = (x < y).to(tl.int32) | ((x <= y).to(tl.int32) << 1) | ((x == y).to(tl.int32) << 2)
    c = c | ((x != y).to(tl.int32) << 3) | ((x > y).to(tl.int32) << 4)
    c = c | ((x >= y).to(tl.int32) << 5)
    tl.store(cmp_ptr + offs, c, mask=mask)
    tl.store(max_ptr + offs, tl.maximum(x, y), mask=mask)
    tl.store(min_ptr + offs, tl.minimum(x, y), mask=mask)
    tl.store(neg_ptr + offs, -x, mask=mask)
    tl.store(not_ptr + offs, ~x, mask=mask)


@triton.jit
def float_ops(x_ptr, y_ptr, add_ptr, sub_ptr, mul_ptr, div_ptr, mod_ptr, cmp_ptr, max_ptr,
              min_ptr, neg_ptr, weak_ptr, scal_ptr, n, k, BLOCK: tl.constexpr):
    # floats: + - * / % comparisons maximum minimum -, Python-number and runtime scalars;
    # fp16 and bf16 / and % compute in fp32 (div_ptr and mod_ptr are fp32 for them)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    tl.store(add_ptr + offs, x + y, mask=mask)
    tl.store(sub_ptr + offs, x - y, mask=mask)
    tl.store(mul_ptr + offs, x * y, mask=mask)
    q = x / y
    tl.static_assert(q.dtype == div_ptr.dtype.element_ty)
    tl.store(div_ptr + offs, q, mask=mask)
    r = x % y
    tl.static_assert(r.dtype == mod_ptr.dtype.element_ty)
    tl.store(mod_ptr + offs, r, mask=mask)
    c = (x < y).to(tl.int32) | ((x <= y).to(tl.int32) << 1) | ((x == y).to(tl.int32) << 2)
    c = c | ((x != y).to(tl.int32) << 3) | ((x > y).to(tl.int32) << 4)
    c = c | ((x >= y).to(tl.int32) << 5)
    tl.store(cmp_ptr + offs, c, mask=mask)
    tl.store(max_ptr + offs, tl.maximum(x, y), mask=mask)
    tl.store(min_ptr + offs, tl.minimum(x, y), mask=mask)
    tl.store(neg_ptr + offs, -x, mask=mask)
    # a Python float and a Python int are weak: the result keeps x's dtype
    w = x * 2.0 + 1
    tl.static_assert(w.dtype == x.dtype)
    tl.store(weak_ptr + offs, w, mask=mask)
    # a runtime i32 scalar is strong, but float wins: x * k keeps x's dtype, except bf16,
    # which meets any other type in fp32 (Triton keeps bf16 only for bf16 with bf16)
    sk = x * k
    tl.static_assert(sk.dtype == scal_ptr.dtype.element_ty)
    tl.store(scal_ptr + offs, sk, mask=mask)


@triton.jit
def mixed(x_ptr, y_ptr, add_ptr, mul_ptr, n, BLOCK: tl.constexpr):
    # promotion of two tensor dtypes: the result must have out's dtype exactly
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    a = x + y
    tl.static_assert(a.dtype == add_ptr.dtype.element_ty)
    tl.store(add_ptr + offs, a, mask=mask)
    m = x * y
    tl.store(mul_ptr + offs, m, mask=mask)


@triton.jit
def weak_int(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # a Python int keeps a narrow integer's dtype (int8 + 1 stays int8 and wraps, uint8 + 1
    # stays uint8), as in Triton 3.x, where signed and unsigned integers are one kind
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    r = x + 1
    tl.static_assert(r.dtype == out_ptr.dtype.element_ty)
    r = r * 3 - 2
    tl.store(out_ptr + offs, r, mask=mask)


@triton.jit
def number_locals(x_ptr, h_ptr, i_ptr, u_ptr, f_ptr, n, BLOCK: tl.constexpr):
    # a local assigned a Python number is a scalar tensor of to_tensor's dtype (Triton's code
    # generator), not a weak Python number: int8 + k is int32, fp16 * s is fp32, m // 2 and
    # m % 2 truncate toward zero, (1 << 30) * 4 wraps in int32, 3000000000 is uint32
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    h = tl.load(h_ptr + offs, mask=mask)
    k = 100
    a = x + k
    tl.static_assert(a.dtype == tl.int32)
    m = -7
    q = m // 2
    r = m % 2
    big = 1 << 30
    w = big * 4
    acc = 0
    acc += x
    tl.store(i_ptr + offs, a * 16 + q * 1000 + r * 100000 + w + acc * 7, mask=mask)
    u = 3000000000
    v = x + u
    tl.static_assert(v.dtype == tl.uint32)
    tl.store(u_ptr + offs, v, mask=mask)
    s = 0.000001
    f = h * s
    tl.static_assert(f.dtype == tl.float32)
    tl.store(f_ptr + offs, f, mask=mask)
