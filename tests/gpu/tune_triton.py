"""tune_triton.py: tilecc's ahead-of-time autotuning next to Triton's own autotuner, on the
same GPU in one run (issue 12, "Done when": the configs tilecc picks are within 3 % of the
best that Triton's autotuner finds, for the matmul tutorial's configs at 512^2, 4096^2 and
8192^2 fp16).

    python3 tests/gpu/tune_triton.py 03-matrix-multiplication.py DIR [--tolerance 0.03]

DIR is what tests/gpu/stage-tune.sh staged. Without the tutorial, give DIR/kernel.py (the
bench/kernels/matmul.py stage-tune.sh then staged): Triton's autotuner is put on it with the
staged configs. The script
  1. runs our tuner (DIR/tuner, built by tests/gpu/tune.sh; built now if missing), which
     times every config's tilecc cubin and writes DIR/tuning.txt;
  2. loads the tutorial's definitions (imports, helpers, the autotuned matmul_kernel and its
     matmul() wrapper; not its tests and benchmarks) and calls matmul() at each shape, so
     that Triton's autotuner benchmarks every config (its do_bench) and picks one;
  3. prints, per shape, Triton's best config and time, the config our tuning file chose,
     Triton's time for that config, and their ratio (ours / best: the Done-when measure,
     the quality of the choice), and also our kernel's own time against Triton's best
     (tilecc's code against Triton's); then every config's time by both.
Exits 0 when every ratio is within the tolerance. The tutorial is Triton's (not part of this
repository); its CUDA configs must be the ones staged (checked).
"""
import argparse
import ast
import os
import re
import subprocess
import sys
import types


def load_tutorial(path):
    """The tutorial's top-level definitions up to its matmul() wrapper, executed."""
    tree = ast.parse(open(path).read(), path)
    keep = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign)):
            keep.append(node)
        if isinstance(node, ast.FunctionDef) and node.name == "matmul":
            break
    mod = types.ModuleType("tilecc_tutorial_matmul")
    mod.__file__ = path
    sys.modules[mod.__name__] = mod
    exec(compile(ast.Module(body=keep, type_ignores=[]), path, "exec"), mod.__dict__)
    return mod


def normal(name):
    """Parameter names of the tutorial and of bench/kernels/matmul.py alike."""
    return name.replace("BLOCK_SIZE_", "BLOCK_").replace("GROUP_SIZE_M", "GROUP_M")


def config_key(kwargs, num_warps, num_stages):
    return tuple(sorted((normal(k), int(v)) for k, v in kwargs.items())) + (
        ("num_warps", int(num_warps)), ("num_stages", int(num_stages)))


def read_tuning(path):
    """configs: [key]; best: {(M, N, K): (index, ms)}; ours: {(M, N, K): {index: ms}}."""
    configs, best, ours, shape = [], {}, {}, None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"config: (.*?)\s*(#.*)?$", line)
        if m:
            kv = dict(p.split("=") for p in m.group(1).split())
            nw, ns = kv.pop("num_warps", 4), kv.pop("num_stages", 3)
            configs.append(config_key(kv, nw, ns))
        m = re.match(r"# M=(\d+) N=(\d+) K=(\d+):$", line)
        if m:
            shape = tuple(int(x) for x in m.groups())
            ours[shape] = {}
        m = re.match(r"#   config (\d+): ([0-9.]+) ms", line)
        if m and shape:
            ours[shape][int(m.group(1))] = float(m.group(2))
        m = re.match(r"best: M=(\d+) N=(\d+) K=(\d+) -> (\d+) ([0-9.]+)$", line)
        if m:
            best[tuple(int(x) for x in m.groups()[:3])] = (int(m.group(4)), float(m.group(5)))
    return configs, best, ours


def autotuned_bench_kernel(mod, tuning):
    """bench/kernels/matmul.py (what stage-tune.sh stages without the tutorial), wrapped in
    Triton's autotuner with the staged configs, and a launcher like the tutorial's matmul()."""
    import torch
    import triton
    configs = []
    for line in open(tuning):
        m = re.match(r"config: (.*?)\s*(#.*)?$", line.rstrip("\n"))
        if m:
            kv = {k: int(v) for k, v in (p.split("=") for p in m.group(1).split())}
            nw, ns = kv.pop("num_warps", 4), kv.pop("num_stages", 3)
            configs.append(triton.Config(kv, num_warps=nw, num_stages=ns))
    kernel = triton.autotune(configs=configs, key=["M", "N", "K"])(mod.matmul)

    def matmul(a, b):
        (M, K), (_, N) = a.shape, b.shape
        c = torch.empty((M, N), device=a.device, dtype=torch.float16)
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
        kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                     c.stride(0), c.stride(1))
        return c
    return kernel, matmul


def median_of(t):
    return float(t[0] if isinstance(t, (list, tuple)) else t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tutorial")
    ap.add_argument("dir")
    ap.add_argument("--tolerance", type=float, default=0.03)
    ap.add_argument("--no-tuner", action="store_true", help="use DIR/tuning.txt as it is")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    tuner = os.path.join(args.dir, "tuner")
    tuning = os.path.join(args.dir, "tuning.txt")

    # 1. ours
    if not args.no_tuner:
        if not os.path.exists(tuner):
            subprocess.run([os.path.join(here, "tune.sh"), args.dir], check=True,
                           env=dict(os.environ, TUNE_BUILD_ONLY="1"))
        print("== tilecc's tuner ==", flush=True)
        subprocess.run([tuner, "-o", tuning], check=True)
    configs, best, ours = read_tuning(tuning)

    # 2. Triton's
    import torch
    mod = load_tutorial(args.tutorial)
    if hasattr(mod, "matmul_kernel"):
        kernel, matmul = mod.matmul_kernel, mod.matmul
    else:
        kernel, matmul = autotuned_bench_kernel(mod, tuning)
    theirs = [config_key(c.kwargs, c.num_warps, c.num_stages) for c in kernel.configs]
    if sorted(theirs) != sorted(configs):
        print("tune_triton.py: the staged configs are not the tutorial's:")
        print("  staged:  ", configs)
        print("  tutorial:", theirs)
        return 1
    print("== Triton's autotuner ==", flush=True)
    rows, ok = [], True
    timings = {}
    for shape in sorted(best):
        m, n, k = shape
        torch.manual_seed(0)
        a = torch.randn((m, k), device="cuda", dtype=torch.float16)
        b = torch.randn((k, n), device="cuda", dtype=torch.float16)
        c = matmul(a, b)
        torch.cuda.synchronize()
        ref = torch.matmul(a, b)
        if not torch.allclose(c, ref, atol=1e-1, rtol=1e-2):
            print(f"tune_triton.py: Triton's result at {shape} is wrong")
        if not hasattr(kernel, "configs_timings"):
            print("tune_triton.py: this Triton's Autotuner keeps no configs_timings")
            return 1
        t = {config_key(cf.kwargs, cf.num_warps, cf.num_stages): median_of(v)
             for cf, v in kernel.configs_timings.items()}
        timings[shape] = t
        tb = kernel.best_config
        tkey = config_key(tb.kwargs, tb.num_warps, tb.num_stages)
        best_ms = min(t.values())
        ci, our_ms = best[shape]
        chosen = configs[ci]
        chosen_ms = t.get(chosen, float("inf"))
        ratio = chosen_ms / best_ms
        ok &= ratio <= 1 + args.tolerance
        rows.append((shape, tkey, best_ms, ci, chosen, chosen_ms, ratio, our_ms))

    def show(key):
        d = dict(key[:-2])
        return (f"{d.get('BLOCK_M')}x{d.get('BLOCK_N')}x{d.get('BLOCK_K')} g{d.get('GROUP_M')} "
                f"w{dict(key[-2:])['num_warps']} s{dict(key[-2:])['num_stages']}")

    print()
    print(f"{'shape':>16}  {'Triton best':<24} {'ms':>9}  {'ours chose':<24} {'Triton ms':>9}"
          f"  {'ratio':>6}  {'tilecc ms':>9}  {'tilecc/best':>11}")
    for shape, tkey, best_ms, ci, chosen, chosen_ms, ratio, our_ms in rows:
        print(f"{'x'.join(map(str, shape)):>16}  {show(tkey):<24} {best_ms:9.4f}  {show(chosen):<24} "
              f"{chosen_ms:9.4f}  {ratio:6.3f}  {our_ms:9.4f}  {our_ms / best_ms:11.3f}")
    print()
    print("every config, ms (Triton's do_bench of Triton's kernel | tilecc's tuner of tilecc's kernel):")
    for shape in sorted(timings):
        print(f"  {'x'.join(map(str, shape))}:")
        for i, key in enumerate(configs):
            tt = timings[shape].get(key, float("inf"))
            oo = ours.get(shape, {}).get(i)
            print(f"    {i:2d} {show(key):<24} {tt:9.4f} | " + (f"{oo:9.4f}" if oo is not None else "  skipped"))
    verdict = "PASS" if ok else "FAIL"
    print(f"\ntune_triton.py: {verdict}: our choice within {args.tolerance:.0%} of Triton's best "
          f"at {sum(r[6] <= 1 + args.tolerance for r in rows)} of {len(rows)} shapes")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
