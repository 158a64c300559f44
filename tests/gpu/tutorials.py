# tutorials.py: Triton's tutorials on the GPU, GPU-machine half. Each case runs a tutorial's
# kernels twice on the same inputs in one process: as Triton compiles them from the file
# as published, and as tilecc compiled them from the same file (the cubins of
# tests/gpu/stage-tutorials.sh). Outputs are poisoned (NaN) before each launch; both results
# are compared with a float64 reference (torch), and tilecc must be as close as Triton (within
# 2x its error, or within the dtype's tolerance).
#
#   python3 tests/gpu/tutorials.py DIR [CASE...]
#
# The MLIR bridge (issue 14) uses the same cases for Triton's own TTIR:
#   TUTORIALS_TTIR_OUT=TDIR python3 tests/gpu/tutorials.py DIR   writes the TTIR Triton compiled
#       for each case's launches as TDIR/NAME-cI.ttir (NAME: the tilecc kernel's row, I: the
#       case's index), as Triton specialized it for that launch;
#   TUTORIALS_FROM_TTIR=TDIR python3 tests/gpu/tutorials.py DIR  runs tilecc's kernels from
#       TDIR/NAME-cI.cubin instead (tilecc compiled that TTIR: tests/gpu/stage-ttir.sh). Triton
#       specializes int arguments equal to 1 away (they are not parameters of its TTIR), so
#       those are not passed to these kernels.
#
# DIR holds the tutorial files, tutorials.tsv and the cubins. Prints one line per case and
# "N passed, M failed"; exits non-zero when a case failed. Tooling for the GPU machine:
# tilecc itself has no Python in it.
import ast, json, os, sys, traceback

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cubin import Cubin  # noqa: E402
from tutorial_module import load_tutorial  # noqa: E402

DIR = sys.argv[1]
ONLY = set(sys.argv[2:])
# TUTORIALS_BWD_DX=old_ln_bwd_dx_: the layer-norm backward from other cubins (a before/after)
BWD_DX = os.environ.get("TUTORIALS_BWD_DX", "ln_bwd_dx_")
TTIR_OUT = os.environ.get("TUTORIALS_TTIR_OUT")
FROM_TTIR = os.environ.get("TUTORIALS_FROM_TTIR")
CASE = [0]  # the index of the case running (the -cI of the TTIR names)
ROWS = {}
for line in open(os.path.join(DIR, "tutorials.tsv")):
    if line.startswith("#") or not line.strip():
        continue
    name, file, kernel, sig, warps, defs = line.rstrip("\n").split("\t")
    ROWS[name] = (file, kernel, int(warps))
_modules = {}


def triton_module(file):
    """The tutorial's kernels and definitions, without its host-side actions
    (tutorial_module.py)."""
    if file not in _modules:
        _modules[file] = load_tutorial(os.path.join(DIR, file))
    return _modules[file]


def tilecc(name):
    file, kernel, _ = ROWS.get(name, ROWS.get(name.replace("old_", ""), (None, None, None)))
    if FROM_TTIR:
        return Cubin(os.path.join(FROM_TTIR, f"{name}-c{CASE[0]}.cubin"), kernel, drop_ones=True)
    return Cubin(os.path.join(DIR, name + ".cubin"), kernel)


def ttir(name, compiled):
    """With TUTORIALS_TTIR_OUT: keeps the TTIR of a Triton launch (the CompiledKernel it returned)
    for the tilecc row NAME of the running case."""
    if TTIR_OUT:
        os.makedirs(TTIR_OUT, exist_ok=True)
        with open(os.path.join(TTIR_OUT, f"{name}-c{CASE[0]}.ttir"), "w") as f:
            f.write(compiled.asm["ttir"])
        md = compiled.metadata  # TTIR does not say how many warps and stages: the launch did
        with open(os.path.join(TTIR_OUT, f"{name}-c{CASE[0]}.json"), "w") as f:
            json.dump({"name": md.name, "num_warps": md.num_warps, "num_stages": md.num_stages}, f)


def err(got, ref):
    """max |got - ref| / (1 + |ref|), NaN counted as infinite."""
    d = (got.double() - ref).abs() / (1 + ref.abs())
    d[torch.isnan(d)] = float("inf")
    return d.max().item() if d.numel() else 0.0


class Fail(Exception):
    pass


def close(what, ours, theirs, ref, tol):
    eo, et = err(ours, ref), err(theirs, ref)
    line = f"{what}: tilecc {eo:.2e}, triton {et:.2e}"
    if not (eo <= max(2 * et, tol)):
        raise Fail(line)
    return line


def nan_like(t):
    return torch.full_like(t, float("nan"))


# ---- 01: vector add; 02: fused softmax; 03: matmul; 04: dropout ------------------------

def vector_add(n):
    t = triton_module("01-vector-add.py")
    torch.manual_seed(n)
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    outs = []
    for who in ("triton", "tilecc"):
        out = torch.full_like(x, float("nan"))
        grid = ((n + 1023) // 1024,)
        if who == "triton":
            ttir("add", t["add_kernel"][grid](x, y, out, n, BLOCK_SIZE=1024))
        else:
            tilecc("add")(grid, x, y, out, n)
        torch.cuda.synchronize()
        outs.append(out)
    return close("out", outs[1], outs[0], x.double() + y.double(), 1e-7)


def fused_softmax(M, N, programs):
    t = triton_module("02-fused-softmax.py")
    torch.manual_seed(M + N)
    x = torch.randn(M, N, device="cuda")
    outs = []
    for who in ("triton", "tilecc"):
        y = torch.full_like(x, float("nan"))
        if who == "triton":
            ttir("softmax", t["softmax_kernel"][(programs,)](y, x, x.stride(0), y.stride(0), M, N, BLOCK_SIZE=1024,
                                                             num_stages=4, num_warps=8))
        else:
            tilecc("softmax")((programs,), y, x, x.stride(0), y.stride(0), M, N)
        torch.cuda.synchronize()
        outs.append(y)
    return close("y", outs[1], outs[0], torch.softmax(x.double(), dim=1), 1e-6)


def matmul(M, N, K, name, cfg, warps):
    t = triton_module("03-matrix-multiplication.py")
    torch.manual_seed(M * N + K)
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((K, N), device="cuda", dtype=torch.float16)
    act = "leaky_relu" if "leaky" in name else ""
    kern = t["matmul_kernel"]
    kern = getattr(kern, "fn", kern)  # the autotuner's kernel, at one config
    outs = []
    for who in ("triton", "tilecc"):
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        grid = (((M + cfg[0] - 1) // cfg[0]) * ((N + cfg[1] - 1) // cfg[1]),)
        args = (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        if who == "triton":
            ttir(name, kern[grid](*args, BLOCK_SIZE_M=cfg[0], BLOCK_SIZE_N=cfg[1], BLOCK_SIZE_K=cfg[2],
                                  GROUP_SIZE_M=cfg[3], ACTIVATION=act, num_warps=warps))
        else:
            tilecc(name)(grid, *args)
        torch.cuda.synchronize()
        outs.append(c)
    ref = a.double() @ b.double()
    if act:
        ref = torch.where(ref >= 0, ref, 0.01 * ref)
    return close("c", outs[1], outs[0], ref, 2e-3)


def dropout(n, p, seed):
    t = triton_module("04-low-memory-dropout.py")
    torch.manual_seed(n)
    x = torch.randn(n, device="cuda")
    keep = (torch.rand(n, device="cuda") > p).to(torch.int32)
    grid = ((n + 1023) // 1024,)
    outs, seeded = [], []
    for who in ("triton", "tilecc"):
        out = torch.full_like(x, float("nan"))
        out2 = torch.full_like(x, float("nan"))
        if who == "triton":
            ttir("dropout", t["_dropout"][grid](x, keep, out, n, p, BLOCK_SIZE=1024))
            ttir("seeded_dropout", t["_seeded_dropout"][grid](x, out2, n, p, seed, BLOCK_SIZE=1024))
        else:
            tilecc("dropout")(grid, x, keep, out, n, p)
            tilecc("seeded_dropout")(grid, x, out2, n, p, seed)
        torch.cuda.synchronize()
        outs.append(out)
        seeded.append(out2)
    ref = torch.where(keep.bool(), x.double() / (1 - p), 0.0)
    line = close("dropout", outs[1], outs[0], ref, 1e-6)
    # tl.rand: the same bits as Triton's, so the same elements are kept
    same = torch.equal(seeded[0] == 0, seeded[1] == 0)
    if not same:
        raise Fail(f"{line}; seeded: {(~((seeded[0] == 0) == (seeded[1] == 0))).sum().item()} of {n} elements "
                   "kept differently from Triton (tl.rand bits differ)")
    kept = seeded[0] != 0
    ref2 = torch.where(kept, x.double() / (1 - p), 0.0)
    return line + "; " + close("seeded (same mask as Triton)", seeded[1], seeded[0], ref2, 1e-6)


# ---- 05: layer norm, forward and backward ------------------------------------------------

def layer_norm(M, N):
    t = triton_module("05-layer-norm.py")
    dt = torch.float16
    BLOCK = min(65536 // 2, 1 << (N - 1).bit_length())
    warps = min(max(BLOCK // 256, 1), 8)
    GROUP = 64 if N > 8192 else 96 if N > 4096 else 128 if N > 1024 else 256
    tag = "8192" if N == 8192 else "1000"
    torch.manual_seed(M * 7 + N)
    x = -2.3 + 0.5 * torch.randn((M, N), dtype=dt, device="cuda")
    w = torch.rand((N,), dtype=dt, device="cuda")
    b = torch.rand((N,), dtype=dt, device="cuda")
    dy = 0.1 * torch.randn_like(x)
    eps = 1e-5
    notes = []
    # forward: y, mean, rstd
    res = {}
    for who in ("triton", "tilecc"):
        y = nan_like(x)
        mean = torch.full((M,), float("nan"), device="cuda")
        rstd = torch.full((M,), float("nan"), device="cuda")
        if who == "triton":
            ttir("ln_fwd_" + tag, t["_layer_norm_fwd_fused"][(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps,
                                                                    BLOCK_SIZE=BLOCK, num_warps=warps))
        else:
            tilecc("ln_fwd_" + tag)((M,), x, y, w, b, mean, rstd, x.stride(0), N, eps)
        torch.cuda.synchronize()
        res[who] = (y, mean, rstd)
    xd, wd, bd, dyd = x.double(), w.double(), b.double(), dy.double()
    mref = xd.mean(1)
    rref = 1 / torch.sqrt(xd.var(1, unbiased=False) + eps)
    xhat = (xd - mref[:, None]) * rref[:, None]
    yref = xhat * wd + bd
    for i, (what, ref) in enumerate((("y", yref), ("mean", mref), ("rstd", rref))):
        notes.append(close(what, res["tilecc"][i], res["triton"][i], ref, 2e-3 if i == 0 else 1e-4))
    # backward: dx and the partial sums under a lock, then the final dw, db
    mean, rstd = res["triton"][1], res["triton"][2]
    out = {}
    for who in ("triton", "tilecc"):
        locks = torch.zeros(2 * GROUP, dtype=torch.int32, device="cuda")
        _dw = torch.full((GROUP, N), float("nan"), dtype=dt, device="cuda")
        _db = torch.full((GROUP, N), float("nan"), dtype=dt, device="cuda")
        dw = torch.full((N,), float("nan"), dtype=dt, device="cuda")
        db = torch.full((N,), float("nan"), dtype=dt, device="cuda")
        dx = nan_like(dy)
        if who == "triton":
            ttir(BWD_DX + tag, t["_layer_norm_bwd_dx_fused"][(M,)](dx, dy, _dw, _db, x, w, mean, rstd, locks,
                                                                    x.stride(0), N, BLOCK_SIZE_N=BLOCK,
                                                                    GROUP_SIZE_M=GROUP, num_warps=warps))
            ttir("ln_bwd_dwdb", t["_layer_norm_bwd_dwdb"][((N + 127) // 128,)](_dw, _db, dw, db, min(GROUP, M), N,
                                                                                BLOCK_SIZE_M=32, BLOCK_SIZE_N=128))
        else:
            tilecc(BWD_DX + tag)((M,), dx, dy, _dw, _db, x, w, mean, rstd, locks, x.stride(0), N)
            tilecc("ln_bwd_dwdb")(((N + 127) // 128,), _dw, _db, dw, db, min(GROUP, M), N)
        torch.cuda.synchronize()
        out[who] = (dx, dw, db)
    md, rd = mean.double()[:, None], rstd.double()[:, None]
    xh = (xd - md) * rd
    wdy = wd * dyd
    dxref = (wdy - (xh * (xh * wdy).mean(1, keepdim=True) + wdy.mean(1, keepdim=True))) * rd
    dwref = (dyd * xh).sum(0)
    dbref = dyd.sum(0)
    for i, (what, ref, tol) in enumerate((("dx", dxref, 2e-3), ("dw", dwref, 5e-2), ("db", dbref, 5e-2))):
        notes.append(close(what, out["tilecc"][i], out["triton"][i], ref, tol))
    return "; ".join(notes)


# ---- 06: fused attention, forward and backward -------------------------------------------

def attention(Z, H, N_CTX, D, causal):
    t = triton_module("06-fused-attention.py")
    import triton
    triton.set_allocator(lambda size, align, _: torch.empty(size, dtype=torch.int8, device="cuda"))
    torch.manual_seed(Z * 100 + H * 10 + N_CTX + causal)
    q, k, v = (torch.empty((Z, H, N_CTX, D), dtype=torch.float16, device="cuda").normal_(0.0, 0.5)
               for _ in range(3))
    do = torch.randn_like(q)
    sm_scale = 0.5
    stage = 3 if causal else 1
    sfx = "_causal" if causal else ""
    fwd = {}
    for who in ("triton", "tilecc"):
        o = torch.full_like(q, float("nan"))
        M = torch.full((Z, H, N_CTX), float("nan"), device="cuda")
        grid = (N_CTX // 64, Z * H, 1)
        if who == "triton":
            kern = t["_attn_fwd"]
            kern = getattr(kern, "fn", kern)
            ttir("attn_fwd" + sfx, kern[grid](sm_scale, M, Z, H, q, k, v, o, N_CTX=N_CTX, HEAD_DIM=D, BLOCK_M=64,
                                              BLOCK_N=64, FP8_OUTPUT=False, STAGE=stage, warp_specialize=False,
                                              IS_HOPPER=True, num_warps=4, num_stages=3))
        else:
            tilecc("attn_fwd" + sfx)(grid, sm_scale, M, Z, H, q, k, v, o, N_CTX)
        torch.cuda.synchronize()
        fwd[who] = (o, M)
    qd, kd, vd = (x.double().requires_grad_() for x in (q, k, v))
    sc = (qd @ kd.transpose(-1, -2)) * sm_scale
    if causal:
        sc = sc.masked_fill(torch.ones(N_CTX, N_CTX, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
    oref = torch.softmax(sc, dim=-1) @ vd
    mref = torch.logsumexp(sc, dim=-1) / 0.6931471805599453
    notes = [close("o", fwd["tilecc"][0], fwd["triton"][0], oref.detach(), 2e-3),
             close("M", fwd["tilecc"][1], fwd["triton"][1], mref.detach(), 1e-4)]
    oref.backward(do.double())
    o, M = fwd["triton"]
    bwd = {}
    for who in ("triton", "tilecc"):
        dq, dk, dv = (torch.full_like(q, float("nan")) for _ in range(3))
        delta = torch.full_like(M, float("nan"))
        arg_k = k * (sm_scale * 1.4426950408889634)
        pre_grid, grid = (N_CTX // 128, Z * H), (N_CTX // 128, 1, Z * H)
        strides = (q.stride(0), q.stride(1), q.stride(2), q.stride(3))
        if who == "triton":
            ttir("attn_bwd_pre", t["_attn_bwd_preprocess"][pre_grid](o, do, delta, Z, H, N_CTX, BLOCK_M=128,
                                                                      HEAD_DIM=D))
            ttir("attn_bwd" + sfx, t["_attn_bwd"][grid](q, arg_k, v, sm_scale, do, dq, dk, dv, M, delta, *strides, H,
                                                        N_CTX, BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32,
                                                        BLK_SLICE_FACTOR=2, HEAD_DIM=D, num_warps=4, num_stages=5,
                                                        CAUSAL=causal))
        else:
            tilecc("attn_bwd_pre")(pre_grid, o, do, delta, Z, H, N_CTX)
            tilecc("attn_bwd" + sfx)(grid, q, arg_k, v, sm_scale, do, dq, dk, dv, M, delta, *strides, H, N_CTX)
        torch.cuda.synchronize()
        bwd[who] = (dq, dk, dv)
    for i, (what, ref) in enumerate((("dq", qd.grad), ("dk", kd.grad), ("dv", vd.grad))):
        notes.append(close(what, bwd["tilecc"][i], bwd["triton"][i], ref, 5e-3))
    return "; ".join(notes)


CASES = [
    ("01 add_kernel n=98432", lambda: vector_add(98432)),
    ("01 add_kernel n=1", lambda: vector_add(1)),
    ("01 add_kernel n=1000003", lambda: vector_add(1000003)),
    ("02 softmax_kernel 1823x781, 264 programs", lambda: fused_softmax(1823, 781, 264)),
    ("02 softmax_kernel 7x1000, 132 programs", lambda: fused_softmax(7, 1000, 132)),
    ("03 matmul_kernel leaky_relu 333x517x259", lambda: matmul(333, 517, 259, "matmul_leaky", (64, 64, 32, 8), 4)),
    ("03 matmul_kernel 512x512x512", lambda: matmul(512, 512, 512, "matmul_plain", (128, 128, 64, 8), 8)),
    ("04 dropout / seeded_dropout n=98427 p=0.5 seed=123", lambda: dropout(98427, 0.5, 123)),
    ("04 dropout / seeded_dropout n=1 p=0.25 seed=7", lambda: dropout(1, 0.25, 7)),
    ("05 layer_norm fwd+bwd 1151x8192 fp16", lambda: layer_norm(1151, 8192)),
    ("05 layer_norm fwd+bwd 1151x1000 fp16", lambda: layer_norm(1151, 1000)),
    ("06 attention fwd+bwd Z=2 H=3 N_CTX=256 D=64", lambda: attention(2, 3, 256, 64, False)),
    ("06 attention fwd+bwd causal Z=1 H=2 N_CTX=384 D=64", lambda: attention(1, 2, 384, 64, True)),
]

passed = failed = 0
for index, (name, fn) in enumerate(CASES):
    if ONLY and not any(o in name for o in ONLY):
        continue
    CASE[0] = index
    try:
        print(f"PASS {name}: {fn()}", flush=True)
        passed += 1
    except Fail as e:
        print(f"FAIL {name}: {e}", flush=True)
        failed += 1
    except Exception:
        print(f"FAIL {name}: {traceback.format_exc()}", flush=True)
        failed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
