# Diagnostics of the random and libdevice functions, located at the call.
# RUN: not %tilecc %s -k k1 -s "*i16, i32" 2>&1 | FileCheck %s --check-prefix=BITS
# RUN: not %tilecc %s -k k2 -s "*i32, fp32" 2>&1 | FileCheck %s --check-prefix=SEED
# RUN: not %tilecc %s -k k3 -s "*fp32" 2>&1 | FileCheck %s --check-prefix=UNIFORM
# RUN: not %tilecc %s -k k4 -s "*fp16" 2>&1 | FileCheck %s --check-prefix=HALF
# RUN: not %tilecc %s -k k5 -s "*fp64" 2>&1 | FileCheck %s --check-prefix=FINITEF
# RUN: not %tilecc %s -k k6 -s "*fp32" 2>&1 | FileCheck %s --check-prefix=LDEXP
# RUN: not %tilecc %s -k k7 -s "*i32, i32" 2>&1 | FileCheck %s --check-prefix=ROUNDS
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k1(p, seed):
    offs = tl.load(p + tl.arange(0, 16))
    r = tl.randint(seed, offs)
# BITS: random-libdevice.py:[[@LINE-1]]:{{[0-9]+}}: error: bitwidth not supported in philox: the counter is int16


@triton.jit
def k2(p, seed):
    r = tl.rand(seed, tl.arange(0, 16))
# SEED: random-libdevice.py:[[@LINE-1]]:17: error: the seed of philox must be an integer, got fp32


@triton.jit
def k3(p):
    r = tl.uint_to_uniform_float(tl.load(p + tl.arange(0, 16)))
# UNIFORM: random-libdevice.py:[[@LINE-1]]:{{[0-9]+}}: error: uint_to_uniform_float expects int32, uint32, int64 or uint64, got fp32


@triton.jit
def k4(p):
    r = libdevice.tan(tl.load(p + tl.arange(0, 16)))
# HALF: random-libdevice.py:[[@LINE-1]]:{{[0-9]+}}: error: {{.*}}Expected dtype ['fp32', 'fp64'] but got fp16


@triton.jit
def k5(p):
    r = libdevice.finitef(tl.load(p + tl.arange(0, 16)))
# FINITEF: random-libdevice.py:[[@LINE-1]]:9: error: libdevice.finitef: input arg type does not match. Expect one of [(fp32,)], got (fp64,)


@triton.jit
def k6(p):
    x = tl.load(p + tl.arange(0, 16))
    r = libdevice.ldexp(x, 1.5)
# LDEXP: random-libdevice.py:[[@LINE-1]]:9: error: libdevice.ldexp: input arg type does not match. Expect one of [(fp32, int32), (fp64, int32)], got (fp32, fp32)


@triton.jit
def k7(p, seed):
    r = tl.randint(seed, tl.arange(0, 16), n_rounds=100)
# ROUNDS: random-libdevice.py:[[@LINE-1]]:53: error: n_rounds must be between 0 and 64, got 100
