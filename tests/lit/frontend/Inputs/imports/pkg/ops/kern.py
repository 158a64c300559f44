import numpy as np  # not on the search path; fine while no kernel uses it
import triton
import triton.language as tl

import pkg.consts as c
from pkg import SCALE
from .. import consts
from ..utils import add_big
from . import sibling
from .sibling import twice as twice2
from nowhere import thing


@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr)
    x = add_big(x) + sibling.twice(x) + twice2(x)
    x = x + c.BIG + consts.BIG + SCALE
    tl.store(x_ptr, x)


@triton.jit
def k_ext(x_ptr):
    import_free = 1
    from_ext = extmod_add(tl.load(x_ptr))
    tl.store(x_ptr, from_ext + ENV)


@triton.jit
def k_missing(x_ptr):
    tl.store(x_ptr, thing)


@triton.jit
def k_cycle(x_ptr):
    tl.store(x_ptr, cyc.X)


@triton.jit
def k_bad(x_ptr):
    tl.store(x_ptr, bad.broken(1))


try:
    from extmod import ext_add as extmod_add
except ImportError:
    extmod_add = None
try:
    from envmod import ENV_CONST as ENV
except ImportError:
    ENV = None
from .. import cyc_a as cyc
from .. import bad
