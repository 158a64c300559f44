# Host code around kernels is parsed but never run: only the globals a kernel uses are
# evaluated, lazily, from their last binding (if/try choose the definition as Python
# would). Everything else here (torch, devices, loggers, classes, comprehensions) would
# fail at compile time and is never touched.
# RUN: %tilecc %s -k k -s "*fp32:16, i32" --emit=tir | FileCheck %s
# RUN: %tilecc %s -k k -s "*fp32:16, i32" -o %t.so
# CHECK: func @k(%x_ptr: ptr<f32> {divisibility = 16}, %n: i32)
# CHECK-NEXT: make_range {end = 128, start = 0} : tile<128xi32>
# CHECK: rsqrt %x
# CHECK-NEXT: constant {value = 3.0}
# CHECK: constant {value = 16.0}
# CHECK: constant {value = 32.0}
# CHECK: constant {value = 7.0}
# CHECK: truncf %y : tile<128xf16>
# CHECK: constant {value = 5.0}
import logging
import os

import torch
import triton
import triton.language as tl

try:
    from triton.language.extra.libdevice import rsqrt
except ImportError:
    from triton.language.math import rsqrt

DEVICE = triton.runtime.driver.active.get_active_torch_device()
logger = logging.getLogger(__name__)
x_host = torch.rand(1024, device=DEVICE)

BLOCK = 64
BLOCK = BLOCK * 2
GROUP: tl.constexpr = tl.constexpr(3)
TILE_M, TILE_N = 16, 32
DT = tl.float16

if hasattr(torch, "compile"):
    FIRST = 7
else:
    FIRST = 8

DEBUG = False
if DEBUG:
    LEVEL = 1
else:
    LEVEL = 5

configs = [triton.Config({"BLOCK": b}, num_warps=w) for b in [64, 128] for w in (4, 8)]


class Wrapper(torch.autograd.Function):
    @staticmethod
    def forward(ctx, *args, **kwargs):
        with torch.no_grad():
            return {k: v for k, v in kwargs.items() if v is not None}


def launch(x, *, grid=lambda meta: (triton.cdiv(x.numel(), meta["BLOCK"]),)):
    match x.dim():
        case 1:
            k[grid](x, x.numel())
        case _:
            raise ValueError(f"bad rank {x.dim()!r}")


@triton.jit
def k(x_ptr, n):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1.0)
    y = rsqrt(x) * GROUP + TILE_M + TILE_N + FIRST
    y = y.to(DT).to(tl.float32) + LEVEL
    tl.store(x_ptr + offs, y, mask=offs < n)


if __name__ == "__main__":
    launch(x_host)
