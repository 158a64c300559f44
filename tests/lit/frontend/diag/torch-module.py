# tilecc's torch has only the dtypes, finfo and iinfo: any other torch name a kernel reaches
# is a located error (directly, or through a global, with a note at the definition), and
# finfo/iinfo check their dtype as torch does. Host code may use the rest of torch freely.
# RUN: not %tilecc %s -k k1 -s "*fp32" --emit=tir 2>&1 | FileCheck %s --check-prefix=DIRECT
# RUN: not %tilecc %s -k k2 -s "*fp32" --emit=tir 2>&1 | FileCheck %s --check-prefix=GLOBAL
# RUN: not %tilecc %s -k k3 -s "*fp32" --emit=tir 2>&1 | FileCheck %s --check-prefix=FINFO
# RUN: not %tilecc %s -k k4 -s "*fp32" --emit=tir 2>&1 | FileCheck %s --check-prefix=IINFO
# RUN: not %tilecc %s -k k5 -s "*fp32" --emit=tir 2>&1 | FileCheck %s --check-prefix=ATTR
# RUN: %tilecc %s -k k6 -s "*fp32" --emit=tir | FileCheck %s --check-prefix=OK
# DIRECT: torch-module.py:27:15: error: 'torch.empty' is not available to kernels: tilecc's built-in torch has only the dtypes, torch.finfo and torch.iinfo
# GLOBAL: torch-module.py:32:9: error: 'DEV' cannot be evaluated at compile time: {{.*}}'torch.device' is not available to kernels
# GLOBAL: torch-module.py:21:1: note: 'DEV' is defined here
# FINFO: torch-module.py:37:29: error: torch.finfo needs a floating-point dtype, got int32
# IINFO: torch-module.py:42:29: error: torch.iinfo needs an integer dtype, got int1
# ATTR: torch-module.py:47:42: error: torch.iinfo has no attribute 'eps' (it has bits, min, max, dtype)
# OK: constant {value = 65504.0} : f32
import torch
import triton
import triton.language as tl

DEV = torch.device("cuda")
HOST = torch.ones(3)  # never evaluated: no kernel uses it


@triton.jit
def k1(x):
    y = torch.empty(4)


@triton.jit
def k2(x):
    y = DEV


@triton.jit
def k3(x):
    tl.store(x, torch.finfo(torch.int32).max)


@triton.jit
def k4(x):
    tl.store(x, torch.iinfo(torch.bool).max)


@triton.jit
def k5(x):
    tl.store(x, torch.iinfo(torch.int32).eps)


@triton.jit
def k6(x):
    tl.store(x, torch.finfo(x.dtype.element_ty).max * 0 + torch.finfo(torch.float16).max)
