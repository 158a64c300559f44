#!/usr/bin/env python3
"""gen_unroll.py D: prints a Triton kernel with D nested tl.static_range loops (each of
the extent given with -s as the constexpr N) around a load and a sum, for the compile-time
benchmark (bench/compile/run.sh): N^D unrolled copies of the body reach the tile IR."""
import sys

depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
names = "ijklmn"[:depth]
print("import triton")
print("import triton.language as tl")
print()
print()
print("@triton.jit")
print("def unroll(x_ptr, out_ptr, N: tl.constexpr):")
print("    offs = tl.arange(0, 16)")
print("    acc = tl.zeros([16], dtype=tl.float32)")
ind = "    "
for v in names:
    print(f"{ind}for {v} in tl.static_range(N):")
    ind += "    "
index = " + ".join(v + " * N" * (depth - 1 - d) for d, v in enumerate(names))
print(f"{ind}acc += tl.load(x_ptr + offs + ({index}))")
print("    tl.store(out_ptr + offs, acc)")
