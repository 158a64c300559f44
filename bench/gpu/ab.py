# ab.py: A/B timing of cubin variants of one bench kernel against Triton, on the GPU machine.
# Each variant (a tilecc cubin, or one assembled by ptxas from PTX edited by hand) is checked
# against torch, then every variant and Triton are timed in this one process, their samples
# interleaved (bench.py's timed()), and each is printed as a ratio to Triton:
#
#   python3 bench/gpu/ab.py KERNELS matmul   A.cubin B.cubin ...   (sizes 4096^3 and 8192^3 fp16)
#   python3 bench/gpu/ab.py KERNELS attention A.cubin B.cubin ...  (4x32x4096, D from the name:
#                                                                   *d128* runs D128, else D64)
#
# KERNELS is the folder of the bench kernels' .py files (Triton compiles the same file). For
# bisecting a performance gap (docs/perf.md, issue 11); benchmark tooling, not part of tilecc.
import os, statistics, sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "gpu"))
from cubin import Cubin  # noqa: E402
import importlib.util  # noqa: E402

KERNELS, WHAT, FILES = sys.argv[1], sys.argv[2], sys.argv[3:]
SAMPLES = 25


def triton_kernel(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(KERNELS, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def timed(fns, n):
    for f in fns:
        f()
    torch.cuda.synchronize()
    times = [[] for _ in fns]
    for _ in range(SAMPLES):
        for f, ts in zip(fns, times):
            torch.cuda._sleep(min(200_000 * n, 20_000_000))
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            for _ in range(n):
                f()
            e.record()
            e.synchronize()
            ts.append(s.elapsed_time(e) / 1e3 / n)
    return [statistics.median(ts) for ts in times]


def run(label, work, triton_fn, variants, n):
    fns = [triton_fn] + [f for _, f in variants]
    ts = timed(fns, n)
    print(f"{label}: Triton {work / ts[0] / 1e12:.1f} TFLOP/s", flush=True)
    for (name, _), t in zip(variants, ts[1:]):
        print(f"   {os.path.basename(name):40} {work / t / 1e12:7.1f} TFLOP/s  {ts[0] / t:6.3f}x", flush=True)


torch.manual_seed(0)
if WHAT == "matmul":
    tk = triton_kernel("matmul")
    for M, dt in ((4096, torch.float16), (8192, torch.float16)):
        A, B = torch.randn(M, M, device="cuda", dtype=dt), torch.randn(M, M, device="cuda", dtype=dt)
        C2 = torch.empty((M, M), device="cuda", dtype=dt)
        grid = ((M // 128) * (M // 128),)
        args = (M, M, M, M, 1, M, 1, M, 1)
        ref = A.float() @ B.float()
        variants = []
        for f in FILES:
            k = Cubin(f, "matmul")
            C1 = torch.full((M, M), float("nan"), device="cuda", dtype=dt)
            k(grid, A, B, C1, *args)
            torch.cuda.synchronize()
            ok = torch.allclose(C1.float(), ref, rtol=2e-2, atol=0.5)
            print(f"   {os.path.basename(f)} {M}: {'OK' if ok else 'MISMATCH'}", flush=True)
            if ok:
                variants.append((f, (lambda k=k, C1=C1: k(grid, A, B, C1, *args))))
        run(f"matmul {M}^3 fp16", 2.0 * M ** 3,
            lambda: tk[grid](A, B, C2, *args, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=4),
            variants, 20)
elif WHAT == "attention":
    tk = triton_kernel("attention")
    D = 128 if any("d128" in f for f in FILES) else 64
    S, BH = 4096, 128
    q, kk, v = (torch.randn(BH, S, D, device="cuda", dtype=torch.float16) for _ in range(3))
    o2 = torch.empty_like(q)
    scale = 1.0 / D ** 0.5
    grid = (S // 128, BH)
    ref = torch.nn.functional.scaled_dot_product_attention(q, kk, v)
    variants = []
    for f in FILES:
        k = Cubin(f, "attention")
        o1 = torch.full_like(q, float("nan"))
        k(grid, q, kk, v, o1, S, scale, S * D, D)
        torch.cuda.synchronize()
        ok = torch.allclose(o1.float(), ref.float(), rtol=2e-2, atol=2e-2)
        print(f"   {os.path.basename(f)}: {'OK' if ok else 'MISMATCH'}", flush=True)
        if ok:
            variants.append((f, (lambda k=k, o1=o1: k(grid, q, kk, v, o1, S, scale, S * D, D))))
    run(f"attention 4x32x{S} D{D}", 4.0 * BH * S * S * D, 
        lambda: tk[grid](q, kk, v, o2, S, scale, S * D, D, HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, num_warps=8),
        variants, 10)
else:
    sys.exit(f"ab.py: unknown kernel {WHAT} (matmul or attention)")
