# `X: tl.constexpr = v` with a runtime v: Triton wraps it in a constexpr without checking
# and every use unwraps it, so X is the runtime value (FlagGems' sort.py:
# `CTA_TILE_N: tl.constexpr = TILE_N * tiles_n_per_cta`, tiles_n_per_cta a runtime int).
# A compile-time v stays compile-time (it can size a tile).
# RUN: %tilecc %s -k k -s "*i32, i32, 64" --emit=tir | FileCheck %s
# CHECK: func @k(%out: ptr<i32>, %tiles: i32)
# CHECK: %[[C:.*]] = constant {value = 64} : i32
# CHECK: %CTA = muli %[[C]], %tiles : i32
# CHECK: make_range {end = 128, start = 0} : tile<128xi32>
import triton
import triton.language as tl


@triton.jit
def k(out, tiles, TILE: tl.constexpr):
    CTA: tl.constexpr = TILE * tiles
    TWICE: tl.constexpr = TILE * 2
    offs = tl.arange(0, TWICE)
    tl.store(out + offs, offs + CTA)
