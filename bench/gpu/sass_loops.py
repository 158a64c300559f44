# sass_loops.py: the SASS of cubins side by side, without a GPU: each file's registers,
# stack (spills) and instruction count, and for each loop (a backward branch) its length and
# its instructions by opcode, so that tilecc's code can be read against Triton's
# (tests/mlir/triton_ttir.py with TRITON_TTIR_ASM=1 writes Triton's cubins, also without a GPU):
#
#   python3 bench/gpu/sass_loops.py TRITON.cubin TILECC.cubin ...
#   python3 bench/gpu/sass_loops.py --top 40 A.cubin B.cubin      (more opcodes per loop)
#
# A file holding PTX (tilecc's sm_80 output, which the driver compiles) is assembled first
# for sm_90 (PTXAS_ARCH to change it). cuobjdump and ptxas are taken from CUDA_PATH's bin,
# /usr/local/cuda/bin, PATH, or Triton's wheel (`pip install triton`), in that order. Loops
# shorter than --min (default 50) instructions are listed but not broken down. Benchmark
# tooling only: tilecc has no Python in it. How it found two gaps: docs/perf.md, stage 9.
import collections, os, re, shutil, subprocess, sys, tempfile


def tool(name):
    dirs = [os.path.join(os.environ.get("CUDA_PATH", ""), "bin"), "/usr/local/cuda/bin"]
    for d in dirs:
        p = os.path.join(d, name)
        if d and os.access(p, os.X_OK):
            return p
    p = shutil.which(name)
    if p:
        return p
    try:
        import triton
        p = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", name)
        if os.access(p, os.X_OK):
            return p
    except ImportError:
        pass
    sys.exit(f"sass_loops.py: cannot find {name} (CUDA toolkit, or pip install triton)")


def cubin_of(path, tmp):
    data = open(path, "rb").read()
    if data[:4] == b"\x7fELF":
        return path
    out = os.path.join(tmp, os.path.basename(path) + ".sm.cubin")
    arch = os.environ.get("PTXAS_ARCH", "sm_90")
    subprocess.run([tool("ptxas"), f"-arch={arch}", path, "-o", out], check=True)
    return out


def usage(cubin):
    r = subprocess.run([tool("cuobjdump"), "-res-usage", cubin], capture_output=True, text=True)
    got = dict(re.findall(r"(REG|STACK|SHARED|LOCAL):(\d+)", r.stdout))
    return {k: int(v) for k, v in got.items()}


def instructions(cubin):
    r = subprocess.run([tool("cuobjdump"), "-sass", cubin], capture_output=True, text=True)
    ins = []
    for line in r.stdout.splitlines():
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2).strip()))
    return ins


def opcode(text):
    text = re.sub(r"^@!?U?P\w+\s+", "", text)  # the predicate
    return text.split()[0].split(".")[0]


def loops(ins):
    at = {a: i for i, (a, _) in enumerate(ins)}
    found = []
    for i, (a, t) in enumerate(ins):
        m = re.search(r"\bBRA\b.*?0x([0-9a-f]+)", t)
        if m and int(m.group(1), 16) < a and int(m.group(1), 16) in at:
            found.append((at[int(m.group(1), 16)], i))
    return found


def main(argv):
    top, least, files = 24, 50, []
    it = iter(argv)
    for a in it:
        if a == "--top":
            top = int(next(it))
        elif a == "--min":
            least = int(next(it))
        else:
            files.append(a)
    if not files:
        sys.exit("usage: sass_loops.py [--top N] [--min N] CUBIN ...")
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            cubin = cubin_of(path, tmp)
            ins = instructions(cubin)
            u = usage(cubin)
            print(f"{path}: {len(ins)} instructions, {u.get('REG', '?')} registers, "
                  f"stack {u.get('STACK', '?')} bytes")
            for s, e in loops(ins):
                n = e - s + 1
                line = f"  loop at {ins[s][0]:#x}: {n} instructions"
                if n >= least:
                    c = collections.Counter(opcode(t) for _, t in ins[s:e + 1])
                    line += ": " + " ".join(f"{k} {v}" for k, v in c.most_common(top))
                print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
