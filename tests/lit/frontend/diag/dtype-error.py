# dtype errors: float // float, tl.exp on fp16, bitwise ops on floats, bad cast.
# RUN: not %tilecc %s -k k1 -s "*fp16" 2>&1 | FileCheck %s --check-prefix=FLOORDIV
# RUN: not %tilecc %s -k k2 -s "*fp16" 2>&1 | FileCheck %s --check-prefix=EXP
# RUN: not %tilecc %s -k k3 -s "*fp16" 2>&1 | FileCheck %s --check-prefix=BITWISE
# RUN: not %tilecc %s -k k4 -s "*fp16" 2>&1 | FileCheck %s --check-prefix=BITCAST
import triton
import triton.language as tl


@triton.jit
def k1(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x // x
# FLOORDIV: dtype-error.py:[[@LINE-1]]:9: error: '//' is not defined for floating-point operands (fp32)


@triton.jit
def k2(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = tl.exp(x)
# EXP: dtype-error.py:[[@LINE-1]]:{{[0-9]+}}: error: {{.*}}Expected dtype ['fp32', 'fp64'] but got fp16


@triton.jit
def k3(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x & 1
# BITWISE: dtype-error.py:[[@LINE-1]]:9: error: operator '&' needs integer operands, got fp16 and int32


@triton.jit
def k4(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    y = x.to(tl.int32, bitcast=True)
# BITCAST: dtype-error.py:[[@LINE-1]]:9: error: cannot bitcast fp16 to int32: their sizes differ (16 and 32 bits)
