# triton_ir.py: what Triton makes of the bench kernels, for reading next to tilecc's output.
# Compiles matmul (fp16, 4096^3 config) and attention (D64, D128) with Triton on the GPU
# machine and writes each kernel's TTGIR, PTX and SASS (cuobjdump, when it is there) and its
# register / shared-memory use into OUTDIR:
#   python3 bench/gpu/triton_ir.py KERNELS_DIR OUTDIR
# Benchmark tooling only, like bench.py: tilecc has no Python in it.
import importlib.util, os, shutil, subprocess, sys, tempfile

import torch
import triton

KERNELS, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)


def kernel(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(KERNELS, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def dump(tag, compiled):
    asm = compiled.asm
    for key in ("ttgir", "ptx"):
        if key in asm:
            open(os.path.join(OUT, f"{tag}.{key}"), "w").write(asm[key])
    if "cubin" in asm:
        path = os.path.join(OUT, f"{tag}.cubin")
        open(path, "wb").write(asm["cubin"])
        tool = shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
        if os.path.exists(tool):
            sass = subprocess.run([tool, "--dump-sass", path], capture_output=True, text=True).stdout
            open(os.path.join(OUT, f"{tag}.sass"), "w").write(sass)
    md = compiled.metadata
    print(f"{tag}: regs {compiled.n_regs} spills {compiled.n_spills} shared {md.shared} "
          f"warps {md.num_warps} stages {md.num_stages}", flush=True)


M = 4096
A = torch.randn(M, M, device="cuda", dtype=torch.float16)
B = torch.randn(M, M, device="cuda", dtype=torch.float16)
C = torch.empty(M, M, device="cuda", dtype=torch.float16)
k = kernel("matmul")
h = k[((M // 128) ** 2,)](A, B, C, M, M, M, M, 1, M, 1, M, 1, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                          GROUP_M=8, num_warps=4)
dump("matmul", h)
for D in (64, 128):
    BH, S = 128, 4096
    q, kk, v = (torch.randn(BH, S, D, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    h = kernel("attention")[(S // 128, BH)](q, kk, v, o, S, 1.0 / D ** 0.5, S * D, D, HEAD_DIM=D,
                                            BLOCK_M=128, BLOCK_N=64, num_warps=8)
    dump(f"attention_d{D}", h)
