# triton_ttir.py: the TTIR that Triton writes for its tutorials' kernels and for the bench
# kernels, for the MLIR bridge's tests (issue 14). Runs wherever Triton 3.x is installed
# (`pip install triton==3.6.0`), with no GPU and no torch: each kernel is specialized as
# Triton's launcher would specialize it for the arguments of a case (its own binder and
# _pack_args, on stand-ins for the tensors) and compiled for an sm_90 target.
#
#   python3 tests/mlir/triton_ttir.py tutorials TUTORIALS_DIR OUT
#       the cases of tests/gpu/tutorials.py (01, 02, 03, 04, 05; same indices and sizes):
#       OUT/NAME-cI.ttir and OUT/NAME-cI.json (num_warps, num_stages) for tests/mlir/triton.cmake
#       (TILECC_TRITON_TTIR=OUT ctest -R mlir.triton) and tests/gpu/stage-ttir.sh;
#   python3 tests/mlir/triton_ttir.py bench KERNELS_DIR SIGNATURES_TSV OUT
#       the bench kernels at signatures.tsv's specializations (and matmul in bf16, attention
#       at D128, as bench/gpu/bench.py runs them): OUT/NAME.ttir and OUT/NAME.json.
#
# TRITON_TTIR_ASM=1 also writes each kernel's later stages as Triton compiles them for the
# H200 (sm_90a), without a GPU: OUT/NAME.ttgir, .llir, .ptx and .cubin (assembled by the
# ptxas in Triton's wheel). DISABLE_MMA_V3=1 gives its mma.sync path instead of wgmma.
# bench/gpu/sass_loops.py then sets their SASS beside tilecc's (docs/perf.md, stage 9).
#
# The TTIR is Triton's output and is not kept in the repository. Tooling only: tilecc has no
# Python in it.
import json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpu"))
from tutorial_module import load_tutorial  # noqa: E402

import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource, make_backend  # noqa: E402
from triton.runtime.jit import create_function_from_signature  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)
BACKEND = make_backend(TARGET)


class Driver:
    """What the tutorials ask of Triton's driver at definition time (03's autotune configs
    are chosen by is_cuda()): a CUDA device of capability 9.0, with no GPU here."""

    def get_current_target(self):
        return TARGET

    def get_active_torch_device(self):
        raise RuntimeError("no GPU: triton_ttir.py only compiles")


triton.runtime.driver.set_active(Driver())


class Dtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class Tensor:
    """What Triton's specializer reads of a torch tensor: its dtype and a 16-byte aligned
    address (torch's allocations are)."""

    def __init__(self, dtype):
        self.dtype = Dtype(dtype)

    def data_ptr(self):
        return 1 << 20


F16, F32, I32 = Tensor("float16"), Tensor("float32"), Tensor("int32")


def write(out, name, fn, src, options):
    k = triton.compile(src, target=TARGET, options=options)
    with open(os.path.join(out, name + ".ttir"), "w") as f:
        f.write(k.asm["ttir"])
    if os.environ.get("TRITON_TTIR_ASM"):
        for stage in ("ttgir", "llir", "ptx"):
            with open(os.path.join(out, name + "." + stage), "w") as f:
                f.write(k.asm[stage])
        with open(os.path.join(out, name + ".cubin"), "wb") as f:
            f.write(k.asm["cubin"])
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump({"name": k.metadata.name, "num_warps": k.metadata.num_warps,
                   "num_stages": k.metadata.num_stages, "triton": triton.__version__}, f)
    print(f"{name}: {fn.__name__}, {k.metadata.num_warps} warps, {k.metadata.num_stages} stages", flush=True)


def launch(out, name, fn, *args, **kwargs):
    """As Triton's launcher would compile fn for fn[grid](*args, **kwargs)."""
    while not isinstance(fn, triton.runtime.jit.JITFunction):
        fn = fn.fn  # an autotuner's (or heuristics') kernel, at the config given
    binder = create_function_from_signature(fn.signature, fn.params, BACKEND)
    bound, spec, opts = binder(*args, **kwargs)
    options, signature, constexprs, attrs = fn._pack_args(BACKEND, opts, bound, spec, opts)
    write(out, name, fn, ASTSource(fn, signature, constexprs, attrs), options.__dict__)


def tutorials(src, out):
    mod = {}

    def t(file):
        if file not in mod:
            mod[file] = load_tutorial(os.path.join(src, file))
        return mod[file]

    for c, n in ((0, 98432), (1, 1), (2, 1000003)):
        launch(out, f"add-c{c}", t("01-vector-add.py")["add_kernel"], F32, F32, F32, n, BLOCK_SIZE=1024)
    for c, (M, N) in ((3, (1823, 781)), (4, (7, 1000))):
        launch(out, f"softmax-c{c}", t("02-fused-softmax.py")["softmax_kernel"], F32, F32, N, N, M, N,
               BLOCK_SIZE=1024, num_stages=4, num_warps=8)
    mm = t("03-matrix-multiplication.py")["matmul_kernel"]
    for c, name, (M, N, K), cfg, warps in ((5, "matmul_leaky", (333, 517, 259), (64, 64, 32, 8), 4),
                                            (6, "matmul_plain", (512, 512, 512), (128, 128, 64, 8), 8)):
        launch(out, f"{name}-c{c}", mm, F16, F16, F16, M, N, K, K, 1, N, 1, N, 1, BLOCK_SIZE_M=cfg[0],
               BLOCK_SIZE_N=cfg[1], BLOCK_SIZE_K=cfg[2], GROUP_SIZE_M=cfg[3],
               ACTIVATION="leaky_relu" if "leaky" in name else "", num_warps=warps)
    d = t("04-low-memory-dropout.py")
    for c, n, p, seed in ((7, 98427, 0.5, 123), (8, 1, 0.25, 7)):
        launch(out, f"dropout-c{c}", d["_dropout"], F32, I32, F32, n, p, BLOCK_SIZE=1024)
        launch(out, f"seeded_dropout-c{c}", d["_seeded_dropout"], F32, F32, n, p, seed, BLOCK_SIZE=1024)
    ln = t("05-layer-norm.py")
    for c, M, N in ((9, 1151, 8192), (10, 1151, 1000)):
        block = min(65536 // 2, 1 << (N - 1).bit_length())
        warps = min(max(block // 256, 1), 8)
        group = 64 if N > 8192 else 96 if N > 4096 else 128 if N > 1024 else 256
        tag = "8192" if N == 8192 else "1000"
        launch(out, f"ln_fwd_{tag}-c{c}", ln["_layer_norm_fwd_fused"], F16, F16, F16, F16, F32, F32, N, N, 1e-5,
               BLOCK_SIZE=block, num_warps=warps)
        launch(out, f"ln_bwd_dx_{tag}-c{c}", ln["_layer_norm_bwd_dx_fused"], F16, F16, F16, F16, F16, F16, F32,
               F32, I32, N, N, BLOCK_SIZE_N=block, GROUP_SIZE_M=group, num_warps=warps)
        launch(out, f"ln_bwd_dwdb-c{c}", ln["_layer_norm_bwd_dwdb"], F16, F16, F16, F16, min(group, M), N,
               BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)


def bench(kernels, tsv, out):
    """The bench kernels at signatures.tsv's specializations: *T:16 a pointer divisible by 16,
    iN:16 an integer divisible by 16, iN:1 one equal to 1 (a constant), a number a constexpr."""
    rows = {}
    for line in open(tsv):
        if line.startswith("#") or not line.strip():
            continue
        name, sig, warps = line.rstrip("\n").split("\t")
        rows[name] = ([s.strip() for s in sig.split(",")], int(warps))
    variants = [(k, k, {}) for k in rows]
    variants += [("matmul_bf16", "matmul", {"fp16": "bf16"}), ("attention_d128", "attention", {"64": "128"})]
    for name, kernel, change in variants:
        fn = load_tutorial(os.path.join(kernels, kernel + ".py"))[kernel]
        sig, warps = rows[kernel]
        signature, constexprs, attrs = {}, {}, {}
        for i, (arg, s) in enumerate(zip(fn.arg_names, sig)):
            for a, b in change.items():
                if kernel == "attention" and a == "64":
                    s = b if i == len(sig) - 3 else s  # HEAD_DIM
                else:
                    s = s.replace(a, b)
            ty, _, spec = s.partition(":")
            if ty[0].isdigit() or ty in ("True", "False"):
                signature[arg] = "constexpr"
                constexprs[(i,)] = int(ty) if ty[0].isdigit() else ty == "True"
            elif spec == "1":
                signature[arg] = "constexpr"
                constexprs[(i,)] = 1
            else:
                signature[arg] = ty
                if spec == "16":
                    attrs[(i,)] = [["tt.divisibility", 16]]
        write(out, name, fn, ASTSource(fn, signature, constexprs, attrs), {"num_warps": warps, "num_stages": 3})


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "tutorials":
        os.makedirs(sys.argv[3], exist_ok=True)
        tutorials(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "bench":
        os.makedirs(sys.argv[4], exist_ok=True)
        bench(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit("usage: triton_ttir.py tutorials TUTORIALS_DIR OUT | bench KERNELS_DIR SIGNATURES_TSV OUT")
