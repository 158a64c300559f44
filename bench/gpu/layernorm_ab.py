# layernorm_ab.py: several tilecc builds of the layernorm bench kernel against Triton's, on
# the H200, interleaved over rounds in one process on the same tensors (so that the GPU's
# drift between runs does not decide a comparison). Benchmark tooling only.
#   python3 bench/gpu/layernorm_ab.py KERNELS_DIR NAME=CUBIN [NAME=CUBIN...]
import os, statistics, sys

import torch

kernels, builds = sys.argv[1], [a.split("=", 1) for a in sys.argv[2:]]
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench.py")).read()
sys.argv = ["bench.py", kernels, os.path.dirname(builds[0][1])]
g = {"__name__": "layernorm_ab", "__file__": os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench.py")}
exec(compile(src[:src.index('print("| kernel ')], "bench.py", "exec"), g)  # helpers only
Cubin, timeit, triton_kernel = g["Cubin"], g["timeit"], g["triton_kernel"]

R, C = 32768, 4096
torch.manual_seed(0)
a = torch.randn(R, C, device="cuda", dtype=torch.float16)
w = torch.rand(C, device="cuda", dtype=torch.float16) + 0.5
b = torch.randn(C, device="cuda", dtype=torch.float16)
ref = torch.nn.functional.layer_norm(a.float(), (C,), w.float(), b.float(), 1e-5)
o = torch.empty_like(a)
ks = {}
for name, path in builds:
    k = Cubin(path, "layernorm")
    o.fill_(float("nan"))
    k((R,), a, o, w, b, C, C, 1e-5)
    torch.cuda.synchronize()
    err = (o.float() - ref).abs().max().item()
    print(f"{name}: max error {err:.3g}", flush=True)
    if not err < 1e-2:
        sys.exit(f"{name}: wrong result")
    ks[name] = k
tk = triton_kernel("layernorm")
runs = {n: [] for n in list(ks) + ["triton"]}
for _ in range(5):
    for n, k in ks.items():
        runs[n].append(timeit(lambda: k((R,), a, o, w, b, C, C, 1e-5)))
    runs["triton"].append(timeit(lambda: tk[(R,)](a, o, w, b, C, C, 1e-5, BLOCK=1024, num_warps=8)))
tri = statistics.median(runs["triton"])
for n, t in runs.items():
    m = statistics.median(t)
    print(f"{n:18} {4.0 * R * C / m / 1e9:8.1f} GB/s  ratio {tri / m:5.3f}  rounds "
          + " ".join(f"{4.0 * R * C / x / 1e9:.0f}" for x in t))
