import triton

from . import consts


@triton.jit
def add_big(x):
    # BIG is this module's global (through consts), not the caller's
    return x + consts.BIG + LOCAL


LOCAL = 3
