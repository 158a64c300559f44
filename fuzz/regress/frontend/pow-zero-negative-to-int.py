#@ k | *u16 | |
# fuzz_frontend (2026-12-04), minimized: 0 ** -1 folded to C's inf, and tl.full stored it
# into a uint16 constant, a float-to-integer conversion UBSan reports. Now a located error.
import triton
import triton.language as tl


@tl.constexpr
def low_ones(num_bits: tl.constexpr) -> int:
    return (0 << (num_bits - 1)) ** -1


@triton.jit
def k(y):
    tl.store(y, tl.full((), low_ones(16), tl.uint16))
