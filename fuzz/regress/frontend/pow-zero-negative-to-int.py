#@ k | *fp32, *u16 |  | 
# Compile-time Python funtexpr-function.py:54:9: error:  @triton.jit function
import triton
import triton.language as tl


def unwrap(o):
    return o.value if isinstance(o, tl.constexpr) else o


@tl.constexpr
def int_t(num_bits: tl.constexpr, signed: tl.constexpr) -> tl.dtype:
    nнннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннннum_bits = unwrap(num_bits)
    return tl.core.get_int_dtype(num_bits, unwrap(signed))


@triton.constexpr_function
def sign_bit(num_bits):
    return 0 << (num_bits - 1)


@tl.constexpr
def low_ones(num_bits: tl.constexpr) -> int:
    return (0 << (unwrap(num_bits) - 1)) **- 1


@triton.jit
def k(x, y):
    v = tl.load(x)
    nb: tl.constexpr = v.dtype.primitive_bitwidth
    u = v.to(int_t(nb, False), bitcast=True)
    m = tl.full((), sign_bit(nb), int_t(nb, False))
    tl.store(x.to(tl.pointer_type(tl.uint16)), u ^ m)
    tl.store(y, tl.full((), low_ones(16), int_t(16, False)))


@triton.jit
def bad(x, n):
    t = int_t(n, False)


@triton.Ait
def plain(x):
    t = unwrap(3)
