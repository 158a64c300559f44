# tutorial_refs.py: Triton's own results for the CPU comparison of Triton's tutorials,
# GPU-machine half. For a list of small cases (CPU-sized: qemu runs them all in a minute or
# two), generates inputs with fixed torch seeds, launches the kernels of tutorials 01-06 with
# Triton, from the files as published and as the tutorials' host code launches them, and
# writes every case's inputs and Triton's outputs as raw little-endian files plus one
# manifest, for tests/corpus/tutorials-cpu.sh (tilecc's kernels for x86-64 and riscv64 on the
# same inputs, compared with these outputs):
#
#   python3 tests/gpu/tutorial_refs.py TUTORIALS_DIR REFDIR [CASE...]
#
# (CASE: only the groups whose name contains it: "01 add", "04 dropout", "06 attention"...;
# about 110 files, 10 MB: tar them to bring them back as one file.)
# TUTORIALS_DIR holds the tutorial files (python/tutorials of a Triton checkout). The
# kernels, their constexprs and launch options are the rows of tests/corpus/tutorials-cpu.tsv
# (the same table the CPU side compiles from). REFDIR/manifest.txt, one block per case:
#
#   case NAME
#   kernel ROW FUNCTION              (ROW: the row of tutorials-cpu.tsv)
#   grid X Y Z
#   in DTYPE COUNT FILE              (one line per parameter, in order)
#   out DTYPE COUNT FILE ATOL RTOL [zeros]
#   inout DTYPE COUNT FILE_IN FILE_OUT ATOL RTOL [zeros]
#   scalar i32 VALUE | scalar fp32 HEXFLOAT
#   end
#
# out: poisoned before the launch, compared with FILE (Triton's result) afterwards;
# inout: starts as FILE_IN, compared with FILE_OUT. An element passes when
# |got - want| <= ATOL + RTOL * |want| (0 0: exactly equal); "zeros": the elements that are
# 0 must be the same ones exactly (dropout's keep mask). Tooling for the GPU machine: tilecc
# itself has no Python in it.
import ast, os, sys, traceback

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
DIR, REFDIR = sys.argv[1], sys.argv[2]
ONLY = set(sys.argv[3:])
TSV = os.path.join(HERE, "..", "corpus", "tutorials-cpu.tsv")
if not os.path.exists(TSV):
    TSV = os.path.join(DIR, "tutorials-cpu.tsv")

DTYPES = {torch.float16: "fp16", torch.bfloat16: "bf16", torch.float32: "fp32", torch.float64: "fp64",
          torch.int8: "i8", torch.int16: "i16", torch.int32: "i32", torch.int64: "i64", torch.uint8: "u8"}


def split_sig(sig):
    """The signature's entries, split at the top-level commas (strings may hold commas)."""
    out, cur, quote = [], "", None
    for ch in sig:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            cur += ch
        elif ch == ",":
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


ROWS = {}
for line in open(TSV):
    if line.startswith("#") or not line.strip():
        continue
    name, file, kernel, sig, opts = line.rstrip("\n").split("\t")
    consts = {}
    for e in split_sig(sig):
        if "=" in e:
            k, v = e.split("=", 1)
            consts[k.strip()] = ast.literal_eval(v.strip())
    launch = {}
    if opts.strip() != "-":
        for o in opts.split():
            k, v = o.split("=", 1)
            launch[k] = int(v)
    ROWS[name] = dict(file=file, kernel=kernel, consts=consts, launch=launch)

_modules = {}


def triton_module(file):
    """The tutorial's module without its host-side actions, as tests/gpu/tutorials.py loads it:
    definitions, imports, module-level assignments and conditionals (each guarded: one that
    fails is skipped, and a kernel missing for that reason is reported when it is looked
    up), executed from the published file under its own name; the bare expressions (the
    tutorial's tests and benchmarks) are left out."""
    if file not in _modules:
        path = os.path.join(DIR, file)
        tree = ast.parse(open(path).read(), path)
        keep = []
        for st in tree.body:
            if isinstance(st, (ast.FunctionDef, ast.ClassDef, ast.Try, ast.Import, ast.ImportFrom, ast.Assign,
                               ast.AnnAssign, ast.AugAssign, ast.If)):
                # guarded here also the definitions: a test function decorated by a module
                # that this machine lacks (pytest) must not stop the kernels' module
                guard = ast.Try(body=[st], handlers=[ast.ExceptHandler(type=ast.Name("Exception", ast.Load()),
                                                                        name=None, body=[ast.Pass()])],
                                orelse=[], finalbody=[])
                keep.append(ast.copy_location(guard, st))
        tree = ast.fix_missing_locations(ast.Module(body=keep, type_ignores=[]))
        ns = {"__name__": "tutorial_" + file.split("-")[0], "__file__": path}
        exec(compile(tree, path, "exec"), ns)
        _modules[file] = ns
    return _modules[file]


def raw(t):
    """The tensor's elements as little-endian bytes, in row-major order."""
    flat = t.detach().contiguous().cpu().reshape(-1)
    u8 = flat.view(torch.uint8)
    try:
        data = u8.numpy().tobytes()
    except Exception:
        data = bytes(u8.tolist())
    assert len(data) == flat.numel() * flat.element_size(), (len(data), flat.numel(), flat.element_size())
    return data


# the arguments of a case, in the kernel's parameter order
class In:
    def __init__(self, t):
        self.t = t


class Out:
    """An output: poisoned (NaN, or 0xAB bytes for integers) before Triton's launch too."""

    def __init__(self, t, atol, rtol, zeros=False):
        self.t, self.atol, self.rtol, self.zeros = t, atol, rtol, zeros
        if t.dtype.is_floating_point:
            t.fill_(float("nan"))
        else:
            t.view(torch.uint8).fill_(0xAB)


class InOut:
    def __init__(self, t, atol, rtol, zeros=False):
        self.t, self.atol, self.rtol, self.zeros = t, atol, rtol, zeros


class I32:
    def __init__(self, v):
        assert -2**31 <= v < 2**31
        self.v = int(v)


class F32:
    def __init__(self, v):
        self.v = float(v)


manifest = []
saved = []


def launch(case, row, grid, args):
    """Runs the kernel of tutorials-cpu.tsv's row on args with Triton and writes the case."""
    r = ROWS[row]
    kern = triton_module(r["file"])[r["kernel"]]
    # an autotuned (or heuristics-wrapped) kernel: its JIT function, at the row's config;
    # a JITFunction's own .fn is the undecorated Python function, so stop there
    while hasattr(kern, "fn") and not isinstance(kern, triton.runtime.jit.JITFunction):
        kern = kern.fn
    grid = tuple(grid) + (1,) * (3 - len(grid))
    lines = [f"case {case}", f"kernel {row} {r['kernel']}", "grid %d %d %d" % grid]
    files = []

    def write(tag, i, t):
        fname = f"{case}.{i}.{tag}.bin"
        with open(os.path.join(REFDIR, fname), "wb") as f:
            f.write(raw(t))
        files.append(fname)
        return fname

    # inputs (and the starting contents of in-out buffers) before the launch
    starts = {}
    for i, a in enumerate(args):
        if isinstance(a, In):
            starts[i] = write("in", i, a.t)
        elif isinstance(a, InOut):
            starts[i] = write("start", i, a.t)
    vals = []
    for a in args:
        vals.append(a.t if isinstance(a, (In, Out, InOut)) else a.v)
    kern[grid](*vals, **r["consts"], **r["launch"])
    torch.cuda.synchronize()
    notes = []
    for i, a in enumerate(args):
        if isinstance(a, (In, Out, InOut)):
            dt = DTYPES[a.t.dtype]
            n = a.t.numel()
        if isinstance(a, In):
            lines.append(f"in {dt} {n} {starts[i]}")
        elif isinstance(a, (Out, InOut)):
            f = write("out", i, a.t)
            z = " zeros" if a.zeros else ""
            if isinstance(a, Out):
                lines.append(f"out {dt} {n} {f} {a.atol!r} {a.rtol!r}{z}")
            else:
                lines.append(f"inout {dt} {n} {starts[i]} {f} {a.atol!r} {a.rtol!r}{z}")
            if a.t.dtype.is_floating_point:
                bad = (~torch.isfinite(a.t)).sum().item()
                notes.append(f"arg {i}: max |x| {a.t.abs().max().item():.3g}" + (f", {bad} not finite!" if bad else ""))
            else:
                notes.append(f"arg {i}: {a.t.unique().numel()} distinct values")
        elif isinstance(a, I32):
            lines.append(f"scalar i32 {a.v}")
        else:
            lines.append(f"scalar fp32 {a.v.hex()}")
    lines.append("end")
    manifest.extend(lines)
    saved.append(case)
    print(f"saved {case}: {row} grid {grid}, {len(files)} files; " + "; ".join(notes), flush=True)


def cdiv(a, b):
    return (a + b - 1) // b


def dev(t):
    return t.to("cuda")


# ---- the cases -------------------------------------------------------------------------

def vector_add(n):
    torch.manual_seed(n)
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    # fp32 additions round exactly: equal bits expected
    launch(f"01-add-n{n}", "add", (cdiv(n, 1024),), [In(x), In(y), Out(out, 0.0, 0.0), I32(n)])


def fused_softmax(M, N, programs):
    torch.manual_seed(M + N)
    x = torch.randn(M, N, device="cuda")
    y = torch.empty_like(x)
    launch(f"02-softmax-{M}x{N}-p{programs}", "softmax", (programs,),
           [Out(y, 1e-8, 1e-5), In(x), I32(x.stride(0)), I32(y.stride(0)), I32(M), I32(N)])


def matmul(M, N, K, row):
    torch.manual_seed(M * N + K)
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((K, N), device="cuda", dtype=torch.float16)
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    cs = ROWS[row]["consts"]
    grid = (cdiv(M, cs["BLOCK_SIZE_M"]) * cdiv(N, cs["BLOCK_SIZE_N"]),)
    # fp32 sums in another order, rounded to fp16: a unit in the last place either way
    launch(f"03-{row}-{M}x{N}x{K}", row, grid,
           [In(a), In(b), Out(c, 1e-3, 2e-3), I32(M), I32(N), I32(K), I32(a.stride(0)), I32(a.stride(1)),
            I32(b.stride(0)), I32(b.stride(1)), I32(c.stride(0)), I32(c.stride(1))])


def dropout(n, p):
    torch.manual_seed(n)
    x = torch.randn(n, device="cuda")
    keep = (torch.rand(n, device="cuda") > p).to(torch.int32)
    out = torch.empty_like(x)
    launch(f"04-dropout-n{n}-p{p}", "dropout", (cdiv(n, 1024),),
           [In(x), In(keep), Out(out, 0.0, 1e-6, zeros=True), I32(n), F32(p)])


def seeded_dropout(n, p, seed):
    torch.manual_seed(n + 1)
    x = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    # tl.rand: the same bits as Triton's, so exactly the same elements are zero
    launch(f"04-seeded-dropout-n{n}-p{p}-seed{seed}", "seeded_dropout", (cdiv(n, 1024),),
           [In(x), Out(out, 0.0, 1e-6, zeros=True), I32(n), F32(p), I32(seed)])


def layer_norm(M, N):
    # the host code of LayerNorm.forward/backward for N <= 1024, fp16 (tutorials-cpu.tsv's rows)
    assert 256 < N <= 512, "tutorials-cpu.tsv's ln rows are BLOCK_SIZE=512, GROUP_SIZE_M=256"
    GROUP = 256
    dt = torch.float16
    torch.manual_seed(M * 7 + N)
    x = -2.3 + 0.5 * torch.randn((M, N), dtype=dt, device="cuda")
    w = torch.rand((N,), dtype=dt, device="cuda")
    b = torch.rand((N,), dtype=dt, device="cuda")
    dy = 0.1 * torch.randn_like(x)
    eps = 1e-5
    y = torch.empty_like(x)
    mean = torch.empty((M,), dtype=torch.float32, device="cuda")
    rstd = torch.empty((M,), dtype=torch.float32, device="cuda")
    tag = f"{M}x{N}"
    launch(f"05-ln-fwd-{tag}", "ln_fwd", (M,),
           [In(x), Out(y, 2e-3, 2e-3), In(w), In(b), Out(mean, 1e-5, 1e-5), Out(rstd, 1e-5, 1e-5),
            I32(x.stride(0)), I32(N), F32(eps)])
    locks = torch.zeros(2 * GROUP, dtype=torch.int32, device="cuda")
    _dw = torch.zeros((GROUP, N), dtype=dt, device="cuda")
    _db = torch.zeros((GROUP, N), dtype=dt, device="cuda")
    dx = torch.empty_like(dy)
    # the partial sums: at most two rows meet in one (M <= 2 * GROUP), and fp16 addition
    # commutes, so only the rounding of each row's fp32 product can differ; the locks end
    # released (0) and the counts of the rows used at 1, exactly
    launch(f"05-ln-bwd-dx-{tag}", "ln_bwd_dx", (M,),
           [Out(dx, 2e-3, 2e-3), In(dy), InOut(_dw, 2e-3, 2e-3), InOut(_db, 2e-3, 2e-3), In(x), In(w), In(mean),
            In(rstd), InOut(locks, 0, 0), I32(x.stride(0)), I32(N)])
    dw = torch.empty((N,), dtype=dt, device="cuda")
    db = torch.empty((N,), dtype=dt, device="cuda")
    launch(f"05-ln-bwd-dwdb-{tag}", "ln_bwd_dwdb", (cdiv(N, 128),),
           [In(_dw), In(_db), Out(dw, 2e-3, 2e-3), Out(db, 2e-3, 2e-3), I32(min(GROUP, M)), I32(N)])


def attention(Z, H, N_CTX, D, causal):
    assert D == 64 and N_CTX % 128 == 0, "tutorials-cpu.tsv's attention rows are HEAD_DIM=64"
    import triton
    triton.set_allocator(lambda size, align, _: torch.empty(size, dtype=torch.int8, device="cuda"))
    torch.manual_seed(Z * 100 + H * 10 + N_CTX + causal)
    q, k, v = (torch.empty((Z, H, N_CTX, D), dtype=torch.float16, device="cuda").normal_(0.0, 0.5)
               for _ in range(3))
    do = torch.randn_like(q)
    sm_scale = 0.5
    sfx = "_causal" if causal else ""
    tag = f"{'causal-' if causal else ''}Z{Z}H{H}N{N_CTX}D{D}"
    o = torch.empty_like(q)
    M = torch.empty((Z, H, N_CTX), dtype=torch.float32, device="cuda")
    # the forward with plain tensors, as the tutorial's host code passes them when the GPU
    # has no host tensor descriptors (the kernel makes them: tl.make_tensor_descriptor)
    launch(f"06-attn-fwd-{tag}", "attn_fwd" + sfx, (N_CTX // 64, Z * H, 1),
           [F32(sm_scale), Out(M, 1e-4, 1e-4), I32(Z), I32(H), In(q), In(k), In(v), Out(o, 2e-3, 2e-3), I32(N_CTX)])
    delta = torch.empty_like(M)
    launch(f"06-attn-bwd-pre-{tag}", "attn_bwd_pre", (N_CTX // 128, Z * H),
           [In(o), In(do), Out(delta, 1e-5, 1e-5), I32(Z), I32(H), I32(N_CTX)])
    arg_k = k * (sm_scale * 1.4426950408889634)
    dq, dk, dv = (torch.empty_like(q) for _ in range(3))
    launch(f"06-attn-bwd-{tag}", "attn_bwd" + sfx, (N_CTX // 128, 1, Z * H),
           [In(q), In(arg_k), In(v), F32(sm_scale), In(do), Out(dq, 1e-2, 1e-2), Out(dk, 1e-2, 1e-2),
            Out(dv, 5e-3, 5e-3), In(M), In(delta), I32(q.stride(0)), I32(q.stride(1)), I32(q.stride(2)),
            I32(q.stride(3)), I32(H), I32(N_CTX)])


CASES = [
    ("01 add", lambda: (vector_add(98317), vector_add(1))),
    ("02 softmax", lambda: (fused_softmax(37, 1000, 16), fused_softmax(3, 517, 2))),
    ("03 matmul", lambda: (matmul(129, 97, 80, "matmul_leaky"), matmul(129, 97, 80, "matmul_plain"),
                           matmul(1, 1, 1, "matmul_plain"))),
    ("04 dropout", lambda: (dropout(98427, 0.5), dropout(1, 0.25), seeded_dropout(98427, 0.5, 123),
                            seeded_dropout(262147, 0.25, 7), seeded_dropout(1, 0.5, 0))),
    ("05 layer norm", lambda: (layer_norm(37, 512), layer_norm(300, 509))),
    ("06 attention", lambda: (attention(1, 2, 128, 64, False), attention(1, 2, 128, 64, True))),
]

os.makedirs(REFDIR, exist_ok=True)
failed = 0
for name, fn in CASES:
    if ONLY and not any(o in name for o in ONLY):
        continue
    try:
        fn()
    except Exception:
        print(f"FAILED {name}: {traceback.format_exc()}", flush=True)
        failed += 1
with open(os.path.join(REFDIR, "manifest.txt"), "w") as f:
    f.write("# tests/gpu/tutorial_refs.py: Triton %s, torch %s, %s\n" % (
        getattr(sys.modules.get("triton"), "__version__", "?"), torch.__version__, torch.cuda.get_device_name()))
    f.write("\n".join(manifest) + "\n")
total = sum(os.path.getsize(os.path.join(REFDIR, f)) for f in os.listdir(REFDIR))
print(f"{len(saved)} cases saved in {REFDIR}/manifest.txt ({len(os.listdir(REFDIR))} files, {total} bytes); "
      f"{failed} groups failed")
sys.exit(1 if failed or not saved else 0)
