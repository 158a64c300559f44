# bench.py: the GPU benchmark, run on the GPU machine by bench/gpu/run.sh. Each bench kernel
# compiled by tilecc (a cubin made on the build machine) and by Triton (from the same .py,
# here) runs in this one process on the same torch tensors, timed with CUDA events (median
# of many runs); results are checked against torch first. The cubins are launched through
# the CUDA driver API with ctypes, on torch's current stream. This script is benchmark
# tooling only: tilecc itself has no Python in it.
import ctypes, importlib.util, json, os, statistics, sys, time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = sys.argv[1]   # folder with the bench-kernel .py files
CUBINS = sys.argv[2]    # folder with <kernel>[_suffix].cubin and compile_ms.json
OUT = sys.argv[3] if len(sys.argv) > 3 else None
# BENCH_FROM_TTIR=1: the cubins were compiled by tilecc from the TTIR Triton wrote for the
# bench kernels (issue 14; tests/gpu/stage-ttir.sh): Triton specialized the int arguments
# equal to 1 away, so they are not passed
FROM_TTIR = bool(os.environ.get("BENCH_FROM_TTIR"))
# BENCH_CHECK_ONLY=1: each tilecc kernel is run once and checked against torch; nothing is
# timed and Triton compiles nothing
CHECK_ONLY = bool(os.environ.get("BENCH_CHECK_ONLY"))

sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "gpu"))
from cubin import Cubin, func_facts  # noqa: E402  (the shared launcher of tilecc cubins)


def triton_kernel(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(KERNELS, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


SAMPLES = 15


def timed(fns, n):
    """For each of fns (None: not timed), the median over SAMPLES samples of n back-to-back
    launches between two CUDA events, per launch, in seconds. The samples of tilecc and Triton
    alternate, so that a drift of the clocks meets both alike, and before each sample the
    stream sleeps long enough for the n launches to be queued behind it: what is timed is the
    GPU's time, not the launch overhead of Python or ctypes (a synchronized launch per sample
    would add tens of microseconds to a 4096^3 matmul of about 200)."""
    live = [f for f in fns if f is not None]
    for f in live:
        f()
    torch.cuda.synchronize()
    times = [[] for _ in fns]
    sleep = getattr(torch.cuda, "_sleep", None)
    for _ in range(SAMPLES):
        for f, ts in zip(fns, times):
            if f is None:
                continue
            if sleep is not None:
                sleep(min(200_000 * n, 20_000_000))
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(n):
                f()
            e.record()
            e.synchronize()
            ts.append(s.elapsed_time(e) / 1e3 / n)
    return [statistics.median(ts) if ts else None for ts in times]


rows = []
compile_ms = json.load(open(os.path.join(CUBINS, "compile_ms.json")))


def triton_cold(name, launch):
    """Triton's compile time for this specialization: a first launch with an empty cache."""
    if CHECK_ONLY:
        return 0.0
    t0 = time.perf_counter()
    launch()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e3


def report(name, size, unit, work, ours, theirs, cms, tms, n=10):
    """Times ours (None when its check failed) and theirs (Triton) side by side (timed) and
    prints the row."""
    if CHECK_ONLY:
        return
    t_ours, t_triton = timed([ours, theirs], n)
    r = {"kernel": name, "size": size, "unit": unit, "tilecc": work / t_ours / 1e9 if t_ours else None,
         "triton": work / t_triton / 1e9, "tilecc_compile_ms": cms, "triton_compile_ms": tms}
    r["ratio"] = r["tilecc"] / r["triton"] if r["tilecc"] else None
    rows.append(r)
    print(f"| {name:9} | {size:24} | {r['tilecc'] or 0:10.1f} {unit:7} | {r['triton']:10.1f} {unit:7} | "
          f"{(r['ratio'] or 0):5.2f}x | {cms:7.1f} ms | {tms:7.1f} ms |", flush=True)


def facts(name, ours, compiled, block):
    """Prints how the driver sees tilecc's kernel and Triton's (registers, shared memory,
    carveout, programs per SM): a difference there explains a ratio the code does not."""
    if CHECK_ONLY:
        return
    try:
        t_shared = compiled.metadata.shared
        print(f"   {name} driver facts: tilecc {func_facts(ours.fn.value, ours.block, ours.shared)}, "
              f"Triton {func_facts(compiled.function, block, t_shared)}", flush=True)
    except Exception as e:  # diagnostics only
        print(f"   {name} driver facts: unavailable ({type(e).__name__}: {e})", flush=True)


def maybe(f):
    try:
        return f()
    except Exception as e:  # a failure is reported, never hidden
        print(f"   FAILED: {e}", flush=True)
        return None


print("| kernel    | size                     | tilecc             | Triton 3.6         | ratio  | tilecc compile | Triton compile |")
print("|-----------|--------------------------|--------------------|--------------------|--------|----------------|----------------|")
torch.manual_seed(0)

# vadd: 2^28 fp32
n = 1 << 28
x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
o1, o2 = torch.full_like(x, float("nan")), torch.full_like(x, float("nan"))
k = Cubin(os.path.join(CUBINS, "vadd.cubin"), "vadd", drop_ones=FROM_TTIR)
tk = triton_kernel("vadd")
grid = ((n + 1023) // 1024,)
tms = triton_cold("vadd", lambda: tk[grid](x, y, o2, n, BLOCK=1024))
k(grid, x, y, o1, n)
torch.cuda.synchronize()
ok = torch.equal(o1, x + y)
print(f"   vadd check: {'OK' if ok else 'MISMATCH'}", flush=True)
report("vadd", "2^28 fp32", "GB/s", 12.0 * n, (lambda: k(grid, x, y, o1, n)) if ok else None,
       lambda: tk[grid](x, y, o2, n, BLOCK=1024), compile_ms["vadd"], tms)
del x, y, o1, o2

# softmax: 32768 x 4096 fp32
R, C = 32768, 4096
a = torch.randn(R, C, device="cuda")
o1, o2 = torch.full_like(a, float("nan")), torch.full_like(a, float("nan"))
k = Cubin(os.path.join(CUBINS, "softmax.cubin"), "softmax", drop_ones=FROM_TTIR)
tk = triton_kernel("softmax")
tms = triton_cold("softmax", lambda: tk[(R,)](o2, a, C, C, C, BLOCK=4096, num_warps=8))
k((R,), o1, a, C, C, C)
torch.cuda.synchronize()
ref = torch.softmax(a, dim=1)
ok = torch.allclose(o1, ref, rtol=1e-4, atol=1e-6)
print(f"   softmax check: {'OK' if ok else 'MISMATCH'} (max err {(o1 - ref).abs().max().item():.3g})", flush=True)
report("softmax", "32768x4096 fp32", "GB/s", 8.0 * R * C, (lambda: k((R,), o1, a, C, C, C)) if ok else None,
       lambda: tk[(R,)](o2, a, C, C, C, BLOCK=4096, num_warps=8), compile_ms["softmax"], tms)
del a, o1, o2

# layernorm: 32768 x 4096 fp16
R, C = 32768, 4096
a = torch.randn(R, C, device="cuda", dtype=torch.float16)
w = torch.rand(C, device="cuda", dtype=torch.float16) + 0.5
b = torch.randn(C, device="cuda", dtype=torch.float16)
o1, o2 = torch.full_like(a, float("nan")), torch.full_like(a, float("nan"))
k = Cubin(os.path.join(CUBINS, "layernorm.cubin"), "layernorm", drop_ones=FROM_TTIR)
tk = triton_kernel("layernorm")
tms = triton_cold("layernorm", lambda: tk[(R,)](a, o2, w, b, C, C, 1e-5, BLOCK=1024, num_warps=8))
k((R,), a, o1, w, b, C, C, 1e-5)
torch.cuda.synchronize()
ref = torch.nn.functional.layer_norm(a.float(), (C,), w.float(), b.float(), 1e-5).half()
ok = torch.allclose(o1.float(), ref.float(), rtol=1e-2, atol=1e-2)
print(f"   layernorm check: {'OK' if ok else 'MISMATCH'} (max err {(o1.float() - ref.float()).abs().max().item():.3g})", flush=True)
report("layernorm", "32768x4096 fp16", "GB/s", 4.0 * R * C, (lambda: k((R,), a, o1, w, b, C, C, 1e-5)) if ok else None,
       lambda: tk[(R,)](a, o2, w, b, C, C, 1e-5, BLOCK=1024, num_warps=8), compile_ms["layernorm"], tms)
del a, o1, o2

# matmul: M = N = K, fp16 and bf16, through the FMA path for now (tensor cores come next)
def matmul(M, dt, label, key):
    A = torch.randn(M, M, device="cuda", dtype=dt)
    B = torch.randn(M, M, device="cuda", dtype=dt)
    C1, C2 = torch.full((M, M), float("nan"), device="cuda", dtype=dt), torch.empty((M, M), device="cuda", dtype=dt)
    k = Cubin(os.path.join(CUBINS, key + ".cubin"), "matmul", drop_ones=FROM_TTIR)
    tk = triton_kernel("matmul")
    grid = ((M // 128) * (M // 128),)
    args = (M, M, M, M, 1, M, 1, M, 1)
    tms = triton_cold("matmul", lambda: tk[grid](A, B, C2, *args, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=4))
    if not CHECK_ONLY:
        facts("matmul", k, tk[grid](A, B, C2, *args, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=4), 128)
    k(grid, A, B, C1, *args)
    torch.cuda.synchronize()
    ref = (A.float() @ B.float())
    ok = torch.allclose(C1.float(), ref, rtol=2e-2, atol=0.5)
    print(f"   matmul {label} check: {'OK' if ok else 'MISMATCH'} (max err {(C1.float() - ref).abs().max().item():.3g})", flush=True)
    report("matmul", label, "TFLOP/s", 2.0 * M ** 3 / 1e3, (lambda: k(grid, A, B, C1, *args)) if ok else None,
           lambda: tk[grid](A, B, C2, *args, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=4),
           compile_ms[key], tms, n=20)


maybe(lambda: matmul(4096, torch.float16, "4096^3 fp16", "matmul"))
maybe(lambda: matmul(8192, torch.float16, "8192^3 fp16", "matmul"))
maybe(lambda: matmul(8192, torch.bfloat16, "8192^3 bf16", "matmul_bf16"))

# attention: batch 4, 32 heads, S tokens, head dim D, non-causal, the signature's blocks
# (BLOCK_M 128, BLOCK_N 64, 8 warps).
def attention(D, S, key):
    BH = 4 * 32
    q, kk, v = (torch.randn(BH, S, D, device="cuda", dtype=torch.float16) for _ in range(3))
    o1, o2 = torch.full_like(q, float("nan")), torch.empty_like(q)
    k = Cubin(os.path.join(CUBINS, key + ".cubin"), "attention", drop_ones=FROM_TTIR)
    tk = triton_kernel("attention")
    scale = 1.0 / D ** 0.5
    grid = (S // 128, BH)
    tms = triton_cold("attention", lambda: tk[grid](q, kk, v, o2, S, scale, S * D, D, HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, num_warps=8))
    if not CHECK_ONLY:
        facts("attention", k, tk[grid](q, kk, v, o2, S, scale, S * D, D, HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, num_warps=8), 256)
    k(grid, q, kk, v, o1, S, scale, S * D, D)
    torch.cuda.synchronize()
    ref = torch.nn.functional.scaled_dot_product_attention(q, kk, v)
    ok = torch.allclose(o1.float(), ref.float(), rtol=2e-2, atol=2e-2)
    print(f"   attention D{D} S{S} check: {'OK' if ok else 'MISMATCH'} (max err {(o1.float() - ref.float()).abs().max().item():.3g})", flush=True)
    flops = 4.0 * BH * S * S * D / 1e3
    report("attention", f"4x32x{S} D{D} fp16", "TFLOP/s", flops, (lambda: k(grid, q, kk, v, o1, S, scale, S * D, D)) if ok else None,
           lambda: tk[grid](q, kk, v, o2, S, scale, S * D, D, HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, num_warps=8),
           compile_ms[key], tms, n=10)


maybe(lambda: attention(64, 4096, "attention"))
maybe(lambda: attention(128, 4096, "attention_d128"))
if OUT:
    json.dump(rows, open(OUT, "w"), indent=1)
