# Compile-time Python functions: a function decorated @tl.constexpr (Triton wraps it in a
# constexpr and calls it at compile time) or @triton.constexpr_function runs on the
# constexpr values at compile time, and may call the plain Python functions of its module
# (FlagGems' sort.py: get_int_t -> unwrap_if_constexpr, tl.core.get_int_dtype).
# RUN: %tilecc %s -k k -s "*fp32, *u16" --emit=tir | FileCheck %s
# RUN: not %tilecc %s -k bad -s "*fp32, i32" --emit=tir 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: not %tilecc %s -k plain -s "*fp32" --emit=tir 2>&1 | FileCheck %s --check-prefix=PLAIN
# CHECK: bitcast %{{.*}} : u32
# CHECK: constant {value = 2147483648} : u32
# CHECK: constant {value = 32767} : u16
# BAD: constexpr-function.py:49:15: error: the @tl.constexpr function 'int_t' runs at compile time, but this argument is a runtime int32 scalar
# PLAIN: constexpr-function.py:54:9: error: 'unwrap' cannot be evaluated at compile time: 'unwrap' is a Python function, not a @triton.jit function
import triton
import triton.language as tl


def unwrap(o):
    return o.value if isinstance(o, tl.constexpr) else o


@tl.constexpr
def int_t(num_bits: tl.constexpr, signed: tl.constexpr) -> tl.dtype:
    num_bits = unwrap(num_bits)
    return tl.core.get_int_dtype(num_bits, unwrap(signed))


@triton.constexpr_function
def sign_bit(num_bits):
    return 1 << (num_bits - 1)


@tl.constexpr
def low_ones(num_bits: tl.constexpr) -> int:
    return (1 << (unwrap(num_bits) - 1)) - 1


@triton.jit
def k(x, y):
    v = tl.load(x)
    nb: tl.constexpr = v.dtype.primitive_bitwidth
    u = v.to(int_t(nb, False), bitcast=True)
    m = tl.full((), sign_bit(nb), int_t(nb, False))
    tl.store(x.to(tl.pointer_type(tl.uint32)), u ^ m)
    tl.store(y, tl.full((), low_ones(16), int_t(16, False)))


@triton.jit
def bad(x, n):
    t = int_t(n, False)


@triton.jit
def plain(x):
    t = unwrap(3)
