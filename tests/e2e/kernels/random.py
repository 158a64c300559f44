# Random numbers (tests/e2e/random.c): every entry point of Triton's Philox generator, on
# 32-bit offsets (rng32), 64-bit offsets (rng64), and counters given word by word (philox).
# The harness compares the bits with its own C Philox.
import triton
import triton.language as tl


@triton.jit
def rng32(out_u_ptr, out_f_ptr, seed, base, n, BLOCK: tl.constexpr, N_ROUNDS: tl.constexpr):
    # offsets base + i (int32, wrapping like the C reference); uint32 words to out_u
    # (randint, then the four of randint4x), floats to out_f (rand, rand4x, randn, randn4x)
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    offs = base + i
    tl.store(out_u_ptr + 0 * n + i, tl.randint(seed, offs, N_ROUNDS), mask=mask)
    r0, r1, r2, r3 = tl.randint4x(seed, offs, n_rounds=N_ROUNDS)
    tl.store(out_u_ptr + 1 * n + i, r0, mask=mask)
    tl.store(out_u_ptr + 2 * n + i, r1, mask=mask)
    tl.store(out_u_ptr + 3 * n + i, r2, mask=mask)
    tl.store(out_u_ptr + 4 * n + i, r3, mask=mask)
    tl.store(out_f_ptr + 0 * n + i, tl.rand(seed, offs, N_ROUNDS), mask=mask)
    u0, u1, u2, u3 = tl.rand4x(seed, offs, N_ROUNDS)
    tl.store(out_f_ptr + 1 * n + i, u0, mask=mask)
    tl.store(out_f_ptr + 2 * n + i, u1, mask=mask)
    tl.store(out_f_ptr + 3 * n + i, u2, mask=mask)
    tl.store(out_f_ptr + 4 * n + i, u3, mask=mask)
    tl.store(out_f_ptr + 5 * n + i, tl.randn(seed, offs, N_ROUNDS), mask=mask)
    n0, n1, n2, n3 = tl.randn4x(seed, offs, N_ROUNDS)
    tl.store(out_f_ptr + 6 * n + i, n0, mask=mask)
    tl.store(out_f_ptr + 7 * n + i, n1, mask=mask)
    tl.store(out_f_ptr + 8 * n + i, n2, mask=mask)
    tl.store(out_f_ptr + 9 * n + i, n3, mask=mask)


@triton.jit
def rng64(out_u_ptr, out_f_ptr, seed, base, n, BLOCK: tl.constexpr):
    # offsets base + i as int64 (base is an i64 beyond 2**32): the 64-bit Philox
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    offs = base + i.to(tl.int64)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    tl.store(out_u_ptr + 0 * n + i, r0, mask=mask)
    tl.store(out_u_ptr + 1 * n + i, r1, mask=mask)
    tl.store(out_u_ptr + 2 * n + i, r2, mask=mask)
    tl.store(out_u_ptr + 3 * n + i, r3, mask=mask)
    tl.store(out_u_ptr + 4 * n + i, tl.randint(seed, offs), mask=mask)
    tl.store(out_f_ptr + 0 * n + i, tl.rand(seed, offs), mask=mask)
    tl.store(out_f_ptr + 1 * n + i, tl.randn(seed, offs), mask=mask)


@triton.jit
def philox(c_ptr, w_ptr, out_u_ptr, out_f_ptr, seed, n, BLOCK: tl.constexpr):
    # tl.philox on four counter words from memory; uint_to_uniform_float on uint32 words and
    # on int64 words; pair_uniform_to_normal on two of the uniforms
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    c0 = tl.load(c_ptr + 0 * n + i, mask=mask)
    c1 = tl.load(c_ptr + 1 * n + i, mask=mask)
    c2 = tl.load(c_ptr + 2 * n + i, mask=mask)
    c3 = tl.load(c_ptr + 3 * n + i, mask=mask)
    r0, r1, r2, r3 = tl.philox(seed, c0, c1, c2, c3)
    tl.store(out_u_ptr + 0 * n + i, r0, mask=mask)
    tl.store(out_u_ptr + 1 * n + i, r1, mask=mask)
    tl.store(out_u_ptr + 2 * n + i, r2, mask=mask)
    tl.store(out_u_ptr + 3 * n + i, r3, mask=mask)
    tl.store(out_f_ptr + 0 * n + i, tl.uint_to_uniform_float(c0), mask=mask)
    w = tl.load(w_ptr + i, mask=mask)
    tl.store(out_f_ptr + 1 * n + i, tl.uint_to_uniform_float(w), mask=mask)
    a, b = tl.pair_uniform_to_normal(tl.uint_to_uniform_float(c1), tl.uint_to_uniform_float(c2))
    tl.store(out_f_ptr + 2 * n + i, a, mask=mask)
    tl.store(out_f_ptr + 3 * n + i, b, mask=mask)
