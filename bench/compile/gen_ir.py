#!/usr/bin/env python3
"""gen_ir.py N: prints a tile-IR function of about N ops (docs/ir.md text form) for the
compile-time benchmark (bench/compile/run.sh).

The body repeats an 11-op group that gives every pass of the default pipeline work: an
identity (x + 0) for canonicalize, a repeated expression for cse, a dead product for dce,
and a tile load whose value flows into a running sum, so that every load's chain of uses
reaches the one store at the end (the case that made the CPU lowering's lazy-load decision
quadratic)."""
import sys

GROUP = 11


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    groups = max(1, (n - 8) // GROUP)
    w = sys.stdout.write
    w("func @big(%x: ptr<f32> {divisibility = 16}, %out: ptr<f32> {divisibility = 16}, "
      "%base: i32) attributes {num_warps = 4} {\n")
    w("  %c0 = constant {value = 0} : i32\n")
    w("  %r = make_range {end = 16, start = 0} : tile<16xi32>\n")
    w("  %xs = splat %x : tile<16xptr<f32>>\n")
    w("  %acc0 = constant {value = 0.0} : tile<16xf32>\n")
    prev = "%acc0"
    for g in range(groups):
        w(f"  %k{g} = constant {{value = {g + 1}}} : i32\n")
        w(f"  %a{g} = addi %base, %k{g} : i32\n")
        w(f"  %z{g} = addi %a{g}, %c0 : i32\n")
        w(f"  %d{g} = addi %base, %k{g} : i32\n")
        w(f"  %m{g} = muli %z{g}, %d{g} : i32\n")
        w(f"  %dead{g} = muli %m{g}, %m{g} : i32\n")
        w(f"  %s{g} = splat %m{g} : tile<16xi32>\n")
        w(f"  %o{g} = addi %s{g}, %r : tile<16xi32>\n")
        w(f"  %p{g} = addptr %xs, %o{g} : tile<16xptr<f32>>\n")
        w(f"  %v{g} = load %p{g} : tile<16xf32>\n")
        w(f"  %acc{g + 1} = addf {prev}, %v{g} : tile<16xf32>\n")
        prev = f"%acc{g + 1}"
    w("  %os = splat %out : tile<16xptr<f32>>\n")
    w("  %op = addptr %os, %r : tile<16xptr<f32>>\n")
    w(f"  store %op, {prev}\n")
    w("  return\n}\n")


main()
