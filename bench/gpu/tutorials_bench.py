# tutorials_bench.py: Triton's tutorials 03 (matmul_kernel) and 06 (_attn_fwd, the forward
# kernel of fused attention) compiled by tilecc against Triton, at the tutorials' own configs
# (issue 11: ">= 1.0x Triton" on the published files). Each config of the tutorial's
# autotune list (for 06 filtered by its keep and prune functions, as its autotuner filters
# them) runs as Triton compiles it (the config's kwargs, num_warps and num_stages passed to
# the launch, not through the autotuner) and as tilecc compiled it for sm_90a
# (bench/gpu/stage-tutorials-bench.sh), in this one process on the same tensors. Each result
# is checked against torch (fp32) and against Triton's before it is timed; Triton's fastest
# config is the one its autotuner would pick (both timed the same way here), and tilecc is
# reported at that config and at its own fastest.
#
#   bench/gpu/stage-tutorials-bench.sh build/tools/tilecc/tilecc TUTORIALS_DIR DIR   (here)
#   python3 bench/gpu/tutorials_bench.py --dry-run DIR          (here: no torch, no CUDA)
#   python3 bench/gpu/tutorials_bench.py DIR [out.json]         (on the H200)
#   python3 bench/gpu/tutorials_bench.py --write-tsv TUTORIALS_DIR > bench/gpu/tutorials-bench.tsv
#
# --only SUBSTR (repeatable) keeps the cases whose label contains SUBSTR; --samples N sets the
# timed samples per config (default 10). --dry-run and --write-tsv run the tutorial's
# definitions against small stand-ins for triton and torch (CUDA backend, capability 9.0, as
# on the H200), so that the config lists, the cubin names and the signatures are the ones the
# GPU run computes with the real modules. Benchmark tooling only: tilecc has no Python in it.
import ast, json, os, statistics, sys, time, traceback, types

HERE = os.path.dirname(os.path.abspath(__file__))
TSV = "tutorials-bench.tsv"
MATMUL_FILE = "03-matrix-multiplication.py"
ATTN_FILE = "06-fused-attention.py"
# the shapes: 03's unit test (512) and two of its benchmark's squares; 06's benchmark
# (BATCH 4, 32 heads, fp16, sm_scale 1.3) at two of its sequence lengths
MATMUL_SIZES = [512, 4096, 8192]
ATTN_Z, ATTN_H, ATTN_SCALE = 4, 32, 1.3
ATTN_N_CTX = [1024, 4096]
ATTN_HEAD_DIM = [64, 128]
# TOL_MM: fp16 outputs of fp32 sums 8192 long (Triton's own error at 8192^3 is 2.5e-3)
TOL_MM, TOL_O, TOL_M = 4e-3, 1e-2, 1e-3


# ---- the tutorial as a module of definitions ---------------------------------------------

def _is_jit(st):
    return isinstance(st, ast.FunctionDef) and any(
        isinstance(n, (ast.Name, ast.Attribute)) and getattr(n, "id", getattr(n, "attr", None)) == "jit"
        for dec in st.decorator_list for n in ast.walk(dec))


def load_tutorial(path):
    """The tutorial's definitions: functions, classes and imports anywhere, and the
    module-level assignments and conditionals up to its last @triton.jit function (what the
    kernels and their autotune decorators read; after it come the tutorial's own tests and
    benchmarks, which would launch and autotune kernels: 03 runs its matmul at 512^3 in fp16
    and fp8). Each top-level statement is on its own, so that one that fails (an import of a
    module that is not there, a test decorated with pytest) is skipped. Executed from the
    published file under its own name, so that Triton reads the kernels' source from it."""
    tree = ast.parse(open(path).read(), path)
    last_jit = max((i for i, st in enumerate(tree.body) if _is_jit(st)), default=len(tree.body))
    keep = []
    for i, st in enumerate(tree.body):
        defs = (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)
        host = (ast.Try, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.If)
        if isinstance(st, defs) or (isinstance(st, host) and i < last_jit):
            guard = ast.Try(body=[st], handlers=[ast.ExceptHandler(type=ast.Name("Exception", ast.Load()), name=None,
                                                                    body=[ast.Pass()])], orelse=[], finalbody=[])
            keep.append(ast.copy_location(guard, st))
    tree = ast.fix_missing_locations(ast.Module(body=keep, type_ignores=[]))
    ns = {"__name__": "tutorial_" + os.path.basename(path).split("-")[0], "__file__": path}
    exec(compile(tree, path, "exec"), ns)
    return ns


# ---- stand-ins for triton and torch (--dry-run, --write-tsv) -----------------------------

class _Any:
    """Whatever the tutorial's host code reaches that the bench does not need: every
    attribute, call and index is another _Any, false, empty."""

    def __getattr__(self, name):
        return _Any()

    def __call__(self, *a, **k):
        return _Any()

    def __getitem__(self, k):
        return _Any()

    def __iter__(self):
        return iter(())

    def __bool__(self):
        return False


class _AnyModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Any()


class _Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, num_stages
        self.num_ctas, self.maxnreg, self.pre_hook = num_ctas, maxnreg, pre_hook


class _Tuned:
    """triton.autotune's result, as far as the bench reads it: fn, configs,
    early_config_prune (Triton's Autotuner has these three)."""

    def __init__(self, fn, configs, prune_configs_by):
        self.fn, self.configs = fn, configs
        self.early_config_prune = (prune_configs_by or {}).get("early_config_prune")


def install_stubs():
    """Puts stand-ins for triton (CUDA backend, not tileir), torch (capability 9.0) and pytest
    into sys.modules; only for the offline modes (never with the real modules)."""
    tr = _AnyModule("triton")
    tr.Config = _Config
    tr.jit = lambda fn=None, **kw: fn if fn is not None else (lambda f: f)
    tr.autotune = lambda configs, key=None, prune_configs_by=None, **kw: (lambda fn: _Tuned(fn, configs,
                                                                                           prune_configs_by))
    tr.heuristics = lambda values: (lambda fn: fn)
    tr.cdiv = lambda a, b: (a + b - 1) // b
    target = types.SimpleNamespace(backend="cuda", arch=90, warp_size=32)
    active = types.SimpleNamespace(get_current_target=lambda: target, get_active_torch_device=lambda: "cuda")
    tr.runtime = types.SimpleNamespace(driver=types.SimpleNamespace(active=active))
    tl = _AnyModule("triton.language")
    tl.constexpr = type("constexpr", (), {})
    tr.language = tl
    tools = _AnyModule("triton.tools")
    desc = _AnyModule("triton.tools.tensor_descriptor")
    desc.TensorDescriptor = type("TensorDescriptor", (), {})
    tools.tensor_descriptor = desc
    tr.tools = tools
    torch = _AnyModule("torch")
    torch.cuda = types.SimpleNamespace(get_device_capability=lambda *a: (9, 0), is_available=lambda: True)
    for name, mod in (("triton", tr), ("triton.language", tl), ("triton.tools", tools),
                      ("triton.tools.tensor_descriptor", desc), ("torch", torch), ("pytest", _AnyModule("pytest"))):
        sys.modules[name] = mod


# ---- specialization, as Triton's JIT makes it ---------------------------------------------

DTYPES = {"torch.float16": "fp16", "torch.bfloat16": "bf16", "torch.float32": "fp32"}


def spec(v):
    """A runtime argument's signature entry: a tensor is a pointer to its dtype, ':16' when its
    address is a multiple of 16; a float is fp32; an int is i32, ':1' when it is 1 (Triton
    makes it the constant 1), ':16' when divisible by 16."""
    if hasattr(v, "data_ptr"):
        return f"*{DTYPES[str(v.dtype)]}" + (":16" if v.data_ptr() % 16 == 0 else "")
    if isinstance(v, bool):
        raise TypeError("a bool runtime argument")
    if isinstance(v, float):
        return "fp32"
    if isinstance(v, int):
        if not -2 ** 31 <= v < 2 ** 31:
            raise ValueError(f"{v} does not fit i32")
        return "i32:1" if v == 1 else "i32:16" if v % 16 == 0 else "i32"
    raise TypeError(f"no signature entry for {type(v).__name__}")


def constexpr(v):
    return repr(v) if isinstance(v, str) else str(v)


def signature(runtime, constexprs):
    return ", ".join([spec(v) for v in runtime] + [constexpr(v) for v in constexprs])


class FakeTensor:
    """A contiguous tensor's shape, dtype and strides, at a 256-aligned address (as torch's
    allocator gives): what the signature of a launch depends on, without torch."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), dtype
        st, acc = [], 1
        for d in reversed(self.shape):
            st.append(acc)
            acc *= d
        self._strides = tuple(reversed(st))

    def stride(self, i):
        return self._strides[i]

    def data_ptr(self):
        return 0x7f0000000000


# ---- the cases: configs, cubin names, arguments -------------------------------------------

def cfg_of(c):
    """A triton.Config as plain data. The tutorials' configs set only kwargs, num_warps and
    num_stages (and 06 a pre_hook, for host-made descriptors, which the pointer path ignores)."""
    if getattr(c, "num_ctas", 1) != 1 or getattr(c, "maxnreg", None) is not None:
        raise ValueError(f"config with num_ctas/maxnreg, not staged: {vars(c)}")
    return {"kwargs": dict(c.kwargs), "num_warps": c.num_warps, "num_stages": c.num_stages}


def cfg_label(cfg):
    """A config in short: its BLOCK_* sizes joined by x (03: M x N x K, 06: BLOCK_M x BLOCK_N),
    GROUP_SIZE_M as g, num_warps as w, num_stages as s: "128x256x64 g8 w8 s3"."""
    kw = cfg["kwargs"]
    parts = ["x".join(str(v) for k, v in kw.items() if k.startswith("BLOCK"))]
    parts += [("g" if k == "GROUP_SIZE_M" else k + "=") + str(v) for k, v in kw.items() if not k.startswith("BLOCK")]
    return " ".join(parts + [f"w{cfg['num_warps']}", f"s{cfg['num_stages']}"])


def matmul_runtime(a, b, c, M, N, K):
    return (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))


def matmul_constexprs(cfg):
    kw = cfg["kwargs"]
    return (kw["BLOCK_SIZE_M"], kw["BLOCK_SIZE_N"], kw["BLOCK_SIZE_K"], kw["GROUP_SIZE_M"], "")


def matmul_name(cfg):
    kw = cfg["kwargs"]
    return (f"mm_{kw['BLOCK_SIZE_M']}x{kw['BLOCK_SIZE_N']}x{kw['BLOCK_SIZE_K']}_g{kw['GROUP_SIZE_M']}"
            f"_w{cfg['num_warps']}_s{cfg['num_stages']}")


def attn_runtime(sm_scale, m, Z, H, q, k, v, o, N_CTX):
    # the tutorial's forward: the pointers in place of descriptors (the kernel makes its own,
    # tl.make_tensor_descriptor), as its Hopper path with warp_specialize does
    return (sm_scale, m, Z, H, q, k, v, o, N_CTX)


def attn_constexprs(D, stage, cfg):
    # HEAD_DIM, BLOCK_M, BLOCK_N, FP8_OUTPUT, STAGE, warp_specialize, IS_HOPPER
    return (D, cfg["kwargs"]["BLOCK_M"], cfg["kwargs"]["BLOCK_N"], False, stage, False, True)


def attn_name(D, stage, cfg):
    return (f"attn_d{D}_stage{stage}_{cfg['kwargs']['BLOCK_M']}x{cfg['kwargs']['BLOCK_N']}"
            f"_w{cfg['num_warps']}_s{cfg['num_stages']}")


def attn_configs(kern, N_CTX, D, stage):
    """The autotuner's list (06 filtered it by keep when it was made) pruned as its autotuner
    prunes it for this launch (early_config_prune, the file's prune_invalid_configs)."""
    cfgs = list(kern.configs)
    prune = getattr(kern, "early_config_prune", None)
    if prune:
        named = dict.fromkeys(["sm_scale", "M", "Z", "H", "desc_q", "desc_k", "desc_v", "desc_o"])
        cfgs = prune(cfgs, named, N_CTX=N_CTX, HEAD_DIM=D, FP8_OUTPUT=False, STAGE=stage, warp_specialize=False,
                     IS_HOPPER=True)
    return [cfg_of(c) for c in cfgs]


def plan(ns03, ns06):
    """Every case with its configs: (cfg, cubin name, signature), the signature from stand-in
    tensors of the case's shapes (the GPU run checks it against its real arguments)."""
    cases = []
    mm = ns03.get("matmul_kernel")
    if mm is None:
        raise RuntimeError(f"{MATMUL_FILE}: no matmul_kernel after loading the file")
    mm_cfgs = [cfg_of(c) for c in mm.configs]
    for S in MATMUL_SIZES:
        M = N = K = S
        a, b, c = FakeTensor((M, K), "torch.float16"), FakeTensor((K, N), "torch.float16"), \
            FakeTensor((M, N), "torch.float16")
        rt = matmul_runtime(a, b, c, M, N, K)
        cases.append({"kind": "matmul", "label": f"03 matmul_kernel fp16 {M}x{N}x{K}", "M": M, "N": N, "K": K,
                      "configs": [(cfg, matmul_name(cfg), signature(rt, matmul_constexprs(cfg))) for cfg in mm_cfgs]})
    at = ns06.get("_attn_fwd")
    if at is None:
        raise RuntimeError(f"{ATTN_FILE}: no _attn_fwd after loading the file")
    for D in ATTN_HEAD_DIM:
        for causal in (False, True):
            stage = 3 if causal else 1
            for N_CTX in ATTN_N_CTX:
                shape = (ATTN_Z, ATTN_H, N_CTX, D)
                q = FakeTensor(shape, "torch.float16")
                m = FakeTensor(shape[:3], "torch.float32")
                rt = attn_runtime(ATTN_SCALE, m, ATTN_Z, ATTN_H, q, q, q, q, N_CTX)
                cfgs = attn_configs(at, N_CTX, D, stage)
                label = (f"06 _attn_fwd fp16 Z={ATTN_Z} H={ATTN_H} N_CTX={N_CTX} D={D}"
                         f" {'causal' if causal else 'non-causal'}")
                cases.append({"kind": "attn", "label": label, "Z": ATTN_Z, "H": ATTN_H, "N_CTX": N_CTX, "D": D,
                              "causal": causal, "stage": stage,
                              "configs": [(cfg, attn_name(D, stage, cfg),
                                           signature(rt, attn_constexprs(D, stage, cfg))) for cfg in cfgs]})
    return cases


def tsv_rows(cases):
    """One row per cubin: name, file, kernel, signature, num_warps, num_stages, -D defs,
    problem. A cubin serves every case whose launch has its signature."""
    rows, problems = {}, {}
    for case in cases:
        file, kernel = (MATMUL_FILE, "matmul_kernel") if case["kind"] == "matmul" else (ATTN_FILE, "_attn_fwd")
        for cfg, name, sig in case["configs"]:
            row = (name, file, kernel, sig, str(cfg["num_warps"]), str(cfg["num_stages"]), "-")
            if name in rows and rows[name] != row:
                raise RuntimeError(f"{name}: two cases need different cubins: {rows[name][3]} / {sig}")
            rows[name] = row
            problems.setdefault(name, []).append(case["label"].split(" ", 2)[2])
    return [row + ("; ".join(problems[row[0]]),) for row in rows.values()]


def read_tsv(path):
    rows = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) != 8:
            raise RuntimeError(f"{path}: {len(f)} columns, expected 8: {line!r}")
        rows[f[0]] = {"file": f[1], "kernel": f[2], "sig": f[3], "warps": int(f[4]), "stages": int(f[5]),
                      "defs": f[6], "problem": f[7]}
    return rows


TSV_HEADER = """\
# Triton's tutorials 03 and 06 at their autotune configs, compiled by tilecc for sm_90a
# (bench/gpu/stage-tutorials-bench.sh) and timed against Triton by bench/gpu/tutorials_bench.py.
# Written by `python3 bench/gpu/tutorials_bench.py --write-tsv TUTORIALS_DIR` from the
# tutorials' own config lists (06: after its keep and prune functions, at each case's
# N_CTX, HEAD_DIM and STAGE), signatures as Triton's JIT specializes the bench's launches.
# Columns (tab-separated): cubin name, tutorial file, kernel, signature, num_warps,
# num_stages, -D definitions (space-separated, or -), problems the cubin serves.
"""


# ---- offline modes -------------------------------------------------------------------------

def write_tsv(tut_dir):
    install_stubs()
    cases = plan(load_tutorial(os.path.join(tut_dir, MATMUL_FILE)), load_tutorial(os.path.join(tut_dir, ATTN_FILE)))
    sys.stdout.write(TSV_HEADER)
    for row in tsv_rows(cases):
        sys.stdout.write("\t".join(row) + "\n")


def self_check():
    """The specialization rules on known values (Triton's: 1 -> constant, % 16 -> :16)."""
    t = FakeTensor((3, 5), "torch.float16")
    assert t.stride(0) == 5 and t.stride(1) == 1
    assert spec(t) == "*fp16:16" and spec(1.3) == "fp32"
    assert [spec(v) for v in (1, 4, 16, 32, 4096, 1023)] == ["i32:1", "i32", "i32:16", "i32:16", "i32:16", "i32"]
    assert constexpr("") == "''" and constexpr(False) == "False" and constexpr(64) == "64"
    cfg = {"kwargs": {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8},
           "num_warps": 8, "num_stages": 3}
    assert cfg_label(cfg) == "128x256x64 g8 w8 s3" and matmul_name(cfg) == "mm_128x256x64_g8_w8_s3"


def dry_run(d):
    """Everything but CUDA: the tutorial files in DIR give the same cases as the GPU run; each
    config must have its row in DIR's table (the same signature, warps, stages) and a cubin."""
    self_check()
    install_stubs()
    cases = plan(load_tutorial(os.path.join(d, MATMUL_FILE)), load_tutorial(os.path.join(d, ATTN_FILE)))
    rows = read_tsv(os.path.join(d, TSV))
    cms = json.load(open(os.path.join(d, "compile_ms.json")))
    bad, n, failed = 0, 0, set()
    for case in cases:
        print(f"{case['label']}: {len(case['configs'])} configs")
        for cfg, name, sig in case["configs"]:
            n += 1
            row = rows.get(name)
            why = None
            if row is None:
                why = "no row in the table"
            elif (row["sig"], row["warps"], row["stages"]) != (sig, cfg["num_warps"], cfg["num_stages"]):
                why = f"row differs: {row['sig']} w{row['warps']} s{row['stages']} (want {sig})"
            elif not os.path.exists(os.path.join(d, name + ".cubin")):
                why = "no cubin"
            if why:
                bad += 1
                print(f"  {name}: {why}")
                continue
            if open(os.path.join(d, name + ".cubin"), "rb").read(13) == b"TILECC-FAILED":
                failed.add(name)
                print(f"  {name}: TILECC-FAILED (reported as such on the GPU)")
            elif name not in cms:
                print(f"  {name}: no compile time in compile_ms.json")
    unused = set(rows) - {name for case in cases for _, name, _ in case["configs"]}
    for name in sorted(unused):
        print(f"  table row {name} serves no case")
    print(f"dry run: {len(cases)} cases, {n} (case, config) pairs, {len(rows)} cubins in the table, "
          f"{len(failed)} TILECC-FAILED, {bad} problems")
    return 1 if bad else 0


# ---- the GPU run ---------------------------------------------------------------------------

class GPU:
    """What the GPU half needs from torch, triton and the cubin launcher, imported here only
    (the offline modes have none of them)."""

    def __init__(self, samples):
        import torch
        import triton
        sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "gpu"))
        from cubin import Cubin
        self.torch, self.triton, self.Cubin, self.samples = torch, triton, Cubin, samples
        torch.backends.cuda.matmul.allow_tf32 = False  # the fp32 references stay fp32
        # device-side tensor descriptors (06 with pointers) take scratch memory from this
        triton.set_allocator(lambda size, align, _: torch.empty(size, dtype=torch.int8, device="cuda"))
        self.sleep = getattr(torch.cuda, "_sleep", None)

    def err(self, got, ref):
        """max |got - ref| / (1 + |ref|), NaN counted as infinite."""
        e = (got.double() - ref.double()).abs() / (1 + ref.double().abs())
        e[self.torch.isnan(e)] = float("inf")
        return e.max().item() if e.numel() else 0.0

    def event_pair(self):
        return (self.torch.cuda.Event(enable_timing=True), self.torch.cuda.Event(enable_timing=True))

    def one(self, fn):
        """One launch's time (s), to choose how many launches a sample holds."""
        s, e = self.event_pair()
        s.record()
        fn()
        e.record()
        e.synchronize()
        return s.elapsed_time(e) / 1e3

    def timeit(self, fns, n):
        """For each of fns, the median over the samples of n back-to-back launches between
        two CUDA events, per launch, in seconds; the samples of the fns alternate, so that a
        drift of the clocks meets them alike. Before each sample the stream sleeps long
        enough for the n launches to be queued behind it, so that launch overhead (Python,
        ctypes) is not timed for the short kernels (512^3 takes a few microseconds)."""
        for fn in fns:
            fn()
        self.torch.cuda.synchronize()
        times = [[] for _ in fns]
        for _ in range(self.samples):
            for fn, ts in zip(fns, times):
                if self.sleep is not None:
                    self.sleep(min(200_000 * n, 20_000_000))  # about 100 us of GPU clock per launch
                s, e = self.event_pair()
                s.record()
                for _ in range(n):
                    fn()
                e.record()
                e.synchronize()
                ts.append(s.elapsed_time(e) / 1e3 / n)
        return [statistics.median(ts) for ts in times]


def short(e):
    lines = [l for l in str(e).strip().splitlines() if l.strip()]
    return f"{type(e).__name__}: {lines[0] if lines else ''}"[:300]


class MatmulCase:
    """03: C = A @ B in fp16 (fp32 accumulation), ACTIVATION "" as the tutorial's matmul()."""

    def __init__(self, gpu, case, ns):
        torch = gpu.torch
        self.gpu, self.M, self.N, self.K = gpu, case["M"], case["N"], case["K"]
        M, N, K = self.M, self.N, self.K
        self.a = torch.randn((M, K), device="cuda", dtype=torch.float16)
        self.b = torch.randn((K, N), device="cuda", dtype=torch.float16)
        self.ref = (self.a.float() @ self.b.float(),)
        self.outs = {w: (torch.empty((M, N), device="cuda", dtype=torch.float16),) for w in ("triton", "tilecc")}
        self.tols, self.flops = (TOL_MM,), 2.0 * M * N * K
        kern = ns["matmul_kernel"]
        self.kern = getattr(kern, "fn", kern)  # the JIT function under the autotuner

    def args(self, w):
        return matmul_runtime(self.a, self.b, self.outs[w][0], self.M, self.N, self.K)

    def grid(self, cfg):
        kw, cdiv = cfg["kwargs"], self.gpu.triton.cdiv
        return (cdiv(self.M, kw["BLOCK_SIZE_M"]) * cdiv(self.N, kw["BLOCK_SIZE_N"]),)

    def triton_launch(self, cfg):
        g, rt = self.grid(cfg), self.args("triton")
        kw = dict(cfg["kwargs"], ACTIVATION="", num_warps=cfg["num_warps"], num_stages=cfg["num_stages"])
        return lambda: self.kern[g](*rt, **kw)

    def variants(self, cfg):
        return []


class AttnCase:
    """06, forward: o = softmax(q k^T sm_scale) v and M (the row's logsumexp in log2 units),
    with the pointers in place of descriptors for both compilers."""

    def __init__(self, gpu, case, ns):
        torch = gpu.torch
        self.gpu = gpu
        Z, H, N, D = self.Z, self.H, self.N_CTX, self.D = case["Z"], case["H"], case["N_CTX"], case["D"]
        self.causal, self.stage = case["causal"], case["stage"]
        self.q, self.k, self.v = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16) for _ in range(3))
        o_ref = torch.empty((Z, H, N, D), device="cuda", dtype=torch.float32)
        m_ref = torch.empty((Z, H, N), device="cuda", dtype=torch.float32)
        for z in range(Z):  # fp32, one batch at a time (one's scores are 2 GiB at N_CTX 4096)
            sc = (self.q[z].float() @ self.k[z].float().transpose(-1, -2)) * ATTN_SCALE
            if self.causal:
                sc.masked_fill_(torch.ones(N, N, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
            m_ref[z] = torch.logsumexp(sc, dim=-1) / 0.6931471805599453
            o_ref[z] = torch.softmax(sc, dim=-1) @ self.v[z].float()
            del sc
        self.ref = (o_ref, m_ref)
        self.outs = {w: (torch.empty_like(self.q), torch.empty((Z, H, N), device="cuda", dtype=torch.float32))
                     for w in ("triton", "tilecc")}
        self.tols = (TOL_O, TOL_M)
        self.flops = 4.0 * Z * H * N * N * D * (0.5 if self.causal else 1.0)  # as the tutorial counts
        kern = ns["_attn_fwd"]
        self.kern = getattr(kern, "fn", kern)

    def args(self, w):
        o, m = self.outs[w]
        return attn_runtime(ATTN_SCALE, m, self.Z, self.H, self.q, self.k, self.v, o, self.N_CTX)

    def grid(self, cfg):
        return (self.gpu.triton.cdiv(self.N_CTX, cfg["kwargs"]["BLOCK_M"]), self.Z * self.H, 1)

    def launch(self, cfg, qkvo, warp_specialize):
        g = self.grid(cfg)
        m = self.outs["triton"][1]
        kw = dict(cfg["kwargs"], HEAD_DIM=self.D, FP8_OUTPUT=False, STAGE=self.stage, warp_specialize=warp_specialize,
                  IS_HOPPER=True, num_warps=cfg["num_warps"], num_stages=cfg["num_stages"])
        return lambda: self.kern[g](ATTN_SCALE, m, self.Z, self.H, *qkvo, N_CTX=self.N_CTX, **kw)

    def triton_launch(self, cfg):
        return self.launch(cfg, (self.q, self.k, self.v, self.outs["triton"][0]), False)

    def variants(self, cfg):
        """06 on Hopper as the tutorial's own forward launches it, Triton only, at a config:
        with warp_specialize off (its causal and non-causal lines) on host-made
        TensorDescriptors; with it on (non-causal only) on pointers."""
        def hostdesc():
            from triton.tools.tensor_descriptor import TensorDescriptor
            y, D = self.Z * self.H * self.N_CTX, self.D
            BM, BN = cfg["kwargs"]["BLOCK_M"], cfg["kwargs"]["BLOCK_N"]
            descs = [TensorDescriptor(t, shape=[y, D], strides=[D, 1], block_shape=[bs, D])
                     for t, bs in ((self.q, BM), (self.k, BN), (self.v, BN), (self.outs["triton"][0], BM))]
            return self.launch(cfg, descs, False)
        out = [("host TensorDescriptors, warp_specialize=False", hostdesc)]
        if not self.causal:
            out.append(("pointers, warp_specialize=True",
                        lambda: self.launch(cfg, (self.q, self.k, self.v, self.outs["triton"][0]), True)))
        return out


def run_checked(gpu, c, w, launch):
    """Poisons w's outputs (NaN), launches once; the errors against torch and, for tilecc,
    against Triton's outputs (of the same config, launched just before)."""
    for t in c.outs[w]:
        t.fill_(float("nan"))
    launch()
    gpu.torch.cuda.synchronize()
    e_ref = [gpu.err(got, r) for got, r in zip(c.outs[w], c.ref)]
    e_tri = [gpu.err(got, t) for got, t in zip(c.outs[w], c.outs["triton"])] if w == "tilecc" else None
    return e_ref, e_tri


def run_config(gpu, d, rows, compile_ms, c, cfg, name):
    """One config: Triton's launch checked, tilecc's cubin checked against torch and Triton,
    then both timed alike (only what ran and was right)."""
    r = {"config": cfg, "label": cfg_label(cfg), "cubin": name, "notes": []}
    tri = til = None
    try:  # Triton; its first launch compiles this config
        tri = c.triton_launch(cfg)
        t0 = time.perf_counter()
        e_ref, _ = run_checked(gpu, c, "triton", tri)
        r["triton_first_launch_ms"] = (time.perf_counter() - t0) * 1e3
        r["triton_err"] = e_ref
        if not all(e <= tol for e, tol in zip(e_ref, c.tols)):
            r["notes"].append(f"Triton's own error {e_ref} is above {c.tols}")
    except Exception as e:
        r["notes"].append("Triton failed: " + short(e))
        tri = None
    r["tilecc_compile_ms"] = compile_ms.get(name)
    try:  # tilecc at the same config
        row = rows.get(name)
        if row is None:
            raise RuntimeError(f"no cubin {name} in {TSV}")
        r["signature"] = row["sig"]
        real = [spec(x) for x in c.args("tilecc")]
        if row["sig"].split(", ")[:len(real)] != real:
            raise RuntimeError(f"the launch's arguments specialize as {', '.join(real)}, not as the cubin's "
                               f"{row['sig']}")
        path = os.path.join(d, name + ".cubin")
        if open(path, "rb").read(13) == b"TILECC-FAILED":
            diag = open(path, errors="replace").read().splitlines()
            r["tilecc_status"], r["tilecc_diagnostic"] = "TILECC-FAILED", "\n".join(diag[1:])
            raise RuntimeError("TILECC-FAILED: " + (diag[1] if len(diag) > 1 else ""))
        kc = gpu.Cubin(path, row["kernel"])
        r["tilecc_shared"] = kc.shared
        g, rt = c.grid(cfg), c.args("tilecc")
        til = lambda: kc(g, *rt)
        e_ref, e_tri = run_checked(gpu, c, "tilecc", til)
        r["tilecc_err"], r["tilecc_vs_triton"] = e_ref, e_tri
        et = r.get("triton_err") or [0.0] * len(c.tols)
        if not all(eo <= max(tol, 2 * e) for eo, e, tol in zip(e_ref, et, c.tols)):
            r["tilecc_status"] = "WRONG"
            raise RuntimeError(f"WRONG: error {e_ref} (Triton {et}, tolerance {c.tols})")
        r["tilecc_status"] = "ok"
    except Exception as e:
        r.setdefault("tilecc_status", "failed")
        r["notes"].append("tilecc: " + short(e))
        til = None
    try:  # both alike: as many launches per sample, from one launch of the first, alternating
        probe = tri or til
        if probe is not None:
            probe()
            n = max(1, min(64, int(2e-3 / max(gpu.one(probe), 1e-6))))
            r["launches_per_sample"], r["samples"] = n, gpu.samples
            who = [(w, fn) for w, fn in (("triton", tri), ("tilecc", til)) if fn is not None]
            for (w, _), sec in zip(who, gpu.timeit([fn for _, fn in who], n)):
                r[w + "_s"], r[w + "_tflops"] = sec, c.flops / sec / 1e12
    except Exception as e:
        r["notes"].append("timing failed: " + short(e))
    tt, tc = r.get("triton_tflops"), r.get("tilecc_tflops")
    r["ratio"] = tc / tt if tt and tc else None
    return r


def summarize(gpu, c, entries):
    """Triton's pick (its fastest config: what its autotuner picks, timed as here), tilecc
    there, tilecc's own fastest; and the tutorial's other launches of 06 at Triton's pick."""
    s = {"configs": len(entries), "tilecc_ok": sum(r.get("tilecc_status") == "ok" for r in entries),
         "tilecc_failed_compile": [r["cubin"] for r in entries if r.get("tilecc_status") == "TILECC-FAILED"],
         "tilecc_wrong": [r["cubin"] for r in entries if r.get("tilecc_status") == "WRONG"]}
    timed_t = [r for r in entries if r.get("triton_s")]
    timed_c = [r for r in entries if r.get("tilecc_s")]
    if timed_t:
        best = min(timed_t, key=lambda r: r["triton_s"])
        s.update(triton_best=best["label"], triton_best_tflops=best["triton_tflops"],
                 tilecc_at_triton_best_tflops=best.get("tilecc_tflops"), ratio_at_triton_best=best.get("ratio"),
                 tilecc_at_triton_best_status=best.get("tilecc_status"))
        s["triton_variants_at_best"] = {}
        for what, make in c.variants(best["config"]):
            try:
                launch = make()
                e_ref, _ = run_checked(gpu, c, "triton", launch)
                sec, = gpu.timeit([launch], best.get("launches_per_sample", 1))
                s["triton_variants_at_best"][what] = {"tflops": c.flops / sec / 1e12, "err": e_ref}
            except Exception as e:
                s["triton_variants_at_best"][what] = {"note": short(e)}
    if timed_c:
        own = min(timed_c, key=lambda r: r["tilecc_s"])
        s.update(tilecc_best=own["label"], tilecc_best_tflops=own["tilecc_tflops"])
        if timed_t:
            s["ratio_tilecc_best"] = own["tilecc_tflops"] / s["triton_best_tflops"]
    return s


def fmt(x, f):
    return f.format(x) if isinstance(x, float) else "-"


def gpu_run(d, out, only, samples):
    gpu = GPU(samples)
    torch, triton = gpu.torch, gpu.triton
    cap = torch.cuda.get_device_capability()
    if cap[0] != 9:
        print(f"warning: compute capability {cap}: the cubins are sm_90a and IS_HOPPER is True", flush=True)
    t_start = time.time()
    ns03, ns06 = load_tutorial(os.path.join(d, MATMUL_FILE)), load_tutorial(os.path.join(d, ATTN_FILE))
    cases = [c for c in plan(ns03, ns06) if not only or any(o in c["label"] for o in only)]
    rows = read_tsv(os.path.join(d, TSV))
    cms_path = os.path.join(d, "compile_ms.json")
    compile_ms = json.load(open(cms_path)) if os.path.exists(cms_path) else {}
    results = []
    print(f"{len(cases)} cases on {torch.cuda.get_device_name()}, Triton {triton.__version__}, torch "
          f"{torch.__version__}", flush=True)
    print("| case | config | tilecc TFLOP/s | Triton TFLOP/s | ratio | notes |", flush=True)
    print("|---|---|---:|---:|---:|---|", flush=True)
    for case in cases:
        t_case = time.time()
        torch.manual_seed(0)
        c = (MatmulCase if case["kind"] == "matmul" else AttnCase)(gpu, case, ns03 if case["kind"] == "matmul" else ns06)
        entries = []
        for cfg, name, _sig in case["configs"]:
            r = run_config(gpu, d, rows, compile_ms, c, cfg, name)
            entries.append(r)
            til = fmt(r.get("tilecc_tflops"), "{:.1f}") if r.get("tilecc_tflops") else r.get("tilecc_status", "-")
            print(f"| {case['label']} | {r['label']} | {til} | {fmt(r.get('triton_tflops'), '{:.1f}')} | "
                  f"{fmt(r['ratio'], '{:.2f}x')} | {'; '.join(r['notes'])} |", flush=True)
        s = summarize(gpu, c, entries)
        results.append({"case": case["label"], "summary": s, "configs": entries, "seconds": time.time() - t_case})
        line = (f"== {case['label']}: Triton's best {s.get('triton_best')} "
                f"{fmt(s.get('triton_best_tflops'), '{:.1f}')} TFLOP/s; tilecc there ")
        if s.get("ratio_at_triton_best"):
            line += f"{s['tilecc_at_triton_best_tflops']:.1f} ({s['ratio_at_triton_best']:.2f}x)"
        else:
            line += str(s.get("tilecc_at_triton_best_status"))
        if s.get("ratio_tilecc_best"):
            line += f"; tilecc's best {s['tilecc_best']} {s['tilecc_best_tflops']:.1f} ({s['ratio_tilecc_best']:.2f}x)"
        for what, v in s.get("triton_variants_at_best", {}).items():
            line += f"; Triton with {what}: " + (f"{v['tflops']:.1f}" if "tflops" in v else v["note"])
        line += f" [{s['tilecc_ok']}/{s['configs']} tilecc configs ok, {time.time() - t_case:.0f} s]"
        print(line, flush=True)
        if out:  # after every case, so that a run cut short keeps what it measured
            json.dump({"device": torch.cuda.get_device_name(), "triton": triton.__version__,
                       "torch": torch.__version__, "results": results}, open(out, "w"), indent=1)
        del c
        torch.cuda.empty_cache()
    print("\n| case | Triton's best config | Triton TFLOP/s | tilecc there | ratio | tilecc's best config | "
          "tilecc TFLOP/s | ratio |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    for res in results:
        s = res["summary"]
        print(f"| {res['case']} | {s.get('triton_best', '-')} | {fmt(s.get('triton_best_tflops'), '{:.1f}')} | "
              f"{fmt(s.get('tilecc_at_triton_best_tflops'), '{:.1f}')} | {fmt(s.get('ratio_at_triton_best'), '{:.2f}x')} | "
              f"{s.get('tilecc_best', '-')} | {fmt(s.get('tilecc_best_tflops'), '{:.1f}')} | "
              f"{fmt(s.get('ratio_tilecc_best'), '{:.2f}x')} |")
    print(f"total {time.time() - t_start:.0f} s")
    return 0


def main(argv):
    only, samples, pos, mode = [], 10, [], "gpu"
    it = iter(argv)
    for a in it:
        if a == "--only":
            only.append(next(it))
        elif a == "--samples":
            samples = int(next(it))
        elif a in ("--dry-run", "--write-tsv"):
            mode = a[2:]
        elif a.startswith("-"):
            sys.exit(f"unknown option {a}")
        else:
            pos.append(a)
    if not pos:
        sys.exit("usage: tutorials_bench.py [--dry-run | --write-tsv] DIR [out.json] [--only SUBSTR] [--samples N]")
    if mode == "write-tsv":
        return write_tsv(pos[0]) or 0
    if mode == "dry-run":
        return dry_run(pos[0])
    return gpu_run(pos[0], pos[1] if len(pos) > 1 else None, only, samples)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
