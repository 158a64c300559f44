# A global a kernel uses but that only host code can compute: the error is at the use,
# with the reason and a note at the definition. Host globals the kernel does not use are
# never evaluated (DEVICE2; torch is tilecc's own, but torch.device is not).
# RUN: not %tilecc %s -k k1 -s "*fp32" --emit=tir 2>&1 | FileCheck %s --check-prefix=HOST
# RUN: not %tilecc %s -k k2 -s "*fp32" --emit=tir 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not %tilecc %s -k k3 -s "*fp32" --emit=tir 2>&1 | FileCheck %s --check-prefix=FUNC
# RUN: %tilecc %s -k k4 -s "*fp32" --emit=tir | FileCheck %s --check-prefix=OK
# HOST: module-global.py:33:13: error: 'WIDTH' cannot be evaluated at compile time: {{.*}}'DEVICE' cannot be evaluated at compile time: {{.*}}module 'triton' has no attribute 'runtime'
# HOST-NEXT: {{^}}    x = 1 + WIDTH{{$}}
# HOST: module-global.py:24:1: note: 'WIDTH' is defined here
# HOST-NEXT: {{^}}WIDTH = DEVICE.index * 2{{$}}
# MISSING: module-global.py:38:13: error: 'numpy' cannot be evaluated at compile time: no module named 'numpy' on the search path
# MISSING: module-global.py:18:8: note: 'numpy' is defined here
# FUNC: module-global.py:43:13: error: 'helper' cannot be evaluated at compile time: 'helper' is a Python function, not a @triton.jit function
# FUNC: module-global.py:27:5: note: 'helper' is defined here
# OK: func @k4
import triton
import numpy, torch
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
DEVICE2 = torch.device("cuda")

WIDTH = DEVICE.index * 2


def helper():
    return 1


@triton.jit
def k1(x_ptr):
    x = 1 + WIDTH


@triton.jit
def k2(x_ptr):
    x = 1 + numpy.pi


@triton.jit
def k3(x_ptr):
    x = 1 + helper()


@triton.jit
def k4(x_ptr):
    tl.store(x_ptr, 1.0)
