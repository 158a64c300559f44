#!/usr/bin/env python3
"""make-seeds.py: seed corpora for the fuzz targets, made from the repository's own kernels.

    fuzz/make-seeds.py --tilecc build-fuzz/tools/tilecc/tilecc --out build-fuzz/fuzz-corpus

writes OUT/<target>/ for each target of fuzz/CMakeLists.txt:
  frontend, frontend_gpu  every kernel file of tests/e2e/kernels, bench/kernels, examples and
                          tests/lit (.py), each with a "#@ kernel | signature | defines |
                          num_warps" first line (fuzz/fuzz.h) for every variant that
                          tests/e2e/kernels.cmake, bench/kernels/signatures.tsv or the lit
                          RUN lines compile, and once without
  ir                      the .tir files under tests, and each e2e kernel's tile IR as the
                          CPU pipeline and as the sm_90 GPU passes leave it (tilecc runs)
  signature               every signature string of the above
  loader                  host shared objects, PTX and HSACO of a few kernels (tilecc runs)
The corpora are build outputs (megabytes), not committed. Seeds are named by the hash of
their bytes, so running the script again adds nothing twice."""
import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def put(out, target, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def e2e_variants():
    """(file, kernel, signature, defines, num_warps) of each literal e2e_kernel() call."""
    text = open(os.path.join(ROOT, "tests/e2e/kernels.cmake")).read()
    for m in re.finditer(r'e2e_kernel\(\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+"([^"]*)"([^)]*)\)', text):
        f, kernel, sig, rest = m.group(3), m.group(4), m.group(5), m.group(6)
        if "${" in f + kernel + sig + rest:
            continue
        defines, warps = [], ""
        for w in rest.split():
            if w.startswith("num_warps="):
                warps = w.split("=", 1)[1]
            elif "=" in w and not w.startswith("GPU_ARCH"):
                defines.append(w)
        yield f, kernel, sig, " ".join(defines), warps


def bench_variants():
    for line in open(os.path.join(ROOT, "bench/kernels/signatures.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        yield "bench/kernels/%s.py" % cols[0], cols[0], cols[1], "", cols[2] if len(cols) > 2 else ""


def lit_variants():
    """The -k/-s/-D of each lit RUN line that compiles its own file."""
    for dirpath, _, files in os.walk(os.path.join(ROOT, "tests/lit")):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, ROOT)
            seen = False
            for line in open(path, errors="replace"):
                if "RUN:" not in line or "%tilecc %s" not in line:
                    continue
                k = re.search(r"-k\s+(\w+)", line)
                s = re.search(r'-s\s+"([^"]*)"', line)
                d = re.findall(r"-D\s*(\w+=\S+)", line)
                w = re.search(r"--num-warps[ =](\d+)", line)
                seen = True
                yield rel, k.group(1) if k else "", s.group(1) if s else "", " ".join(d), \
                    w.group(1) if w else ""
            if not seen:
                yield rel, "", "", "", ""


def header(kernel, sig, defines, warps):
    return "#@ %s | %s | %s | %s\n" % (kernel, sig, defines, warps)


def run(cmd):
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", TILECC_PATH="")
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=300)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tilecc", help="a built tilecc; without it only the text seeds are made")
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true", help="skip the seeds that tilecc makes")
    a = ap.parse_args()

    variants = list(e2e_variants()) + list(bench_variants()) + list(lit_variants())
    files = set(v[0] for v in variants)
    for d in ("tests/e2e/kernels", "bench/kernels", "examples"):
        for name in os.listdir(os.path.join(ROOT, d)):
            if name.endswith(".py"):
                files.add(os.path.join(d, name))
    sources = {}
    for f in sorted(files):
        p = os.path.join(ROOT, f)
        if os.path.isfile(p):
            sources[f] = open(p, errors="replace").read()
    for f, src in sources.items():
        for t in ("frontend", "frontend_gpu"):
            put(a.out, t, src)
    for f, kernel, sig, defines, warps in variants:
        if f not in sources:
            continue
        for t in ("frontend", "frontend_gpu"):
            put(a.out, t, header(kernel, sig, defines, warps) + sources[f])
        if sig:
            put(a.out, "signature", sig)
    for dirpath, _, names in os.walk(os.path.join(ROOT, "tests")):
        for name in names:
            if name.endswith(".tir"):
                put(a.out, "ir", open(os.path.join(dirpath, name), "rb").read())

    if not a.tilecc or a.quick:
        return 0
    tmp = tempfile.mkdtemp(prefix="tilecc-seeds-")
    e2e = [v for v in variants if v[0].startswith(("tests/e2e/", "bench/"))]
    for i, (f, kernel, sig, defines, warps) in enumerate(e2e):
        base = [a.tilecc, os.path.join(ROOT, f), "-k", kernel, "-s", sig]
        for d in defines.split():
            base += ["-D", d]
        if warps:
            base += ["--num-warps", warps]
        r = run(base + ["--emit=tir", "-o", "-"])
        if r.returncode == 0:
            put(a.out, "ir", r.stdout)
        # the sm_90 GPU passes' output: --print-after goes to stderr
        ll = os.path.join(tmp, "k.ll")
        r = run(base + ["--target=sm_90", "--emit=llvm", "-O0", "-o", ll,
                        "--print-after=insert-barriers"])
        if r.returncode == 0:
            text = r.stderr.decode(errors="replace")
            text = "\n".join(l for l in text.split("\n") if "IR after" not in l)
            put(a.out, "ir", text)
        # a few artifacts for the loader (they are large: one in four kernels)
        if i % 4 == 0:
            for args, suffix in ((["-O1"], ".so"), (["--target=sm_90", "-O1"], ".ptx"),
                                 (["--target=gfx942", "-O1"], ".hsaco")):
                o = os.path.join(tmp, "k" + suffix)
                r = run(base + args + ["-o", o])
                if r.returncode == 0 and os.path.exists(o):
                    put(a.out, "loader", open(o, "rb").read())
                    os.unlink(o)
    for name in os.listdir(tmp):
        os.unlink(os.path.join(tmp, name))
    os.rmdir(tmp)
    for t in sorted(os.listdir(a.out)):
        print("make-seeds: %s: %d seeds" % (t, len(os.listdir(os.path.join(a.out, t)))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
