# A plain assignment makes a Python number a scalar tensor, as Triton's code generator does
# (to_tensor: int32, uint32 or int64 by value; fp32, or fp64 outside fp32's range; int1), so
# such a local is strongly typed against tensors where the same literal is weak. The dtypes
# below are Triton 3.6's for the same kernel (triton.compile, static_print). `X:
# tl.constexpr = v` keeps v a compile-time value. tilecc also takes such a local where a
# compile-time integer is needed (Triton rejects `tl.arange(0, n)` there) and decides a
# condition on a constant local at compile time.
# RUN: %tilecc %s -k k -s "*fp16, *i8, *fp32" -o %t.tir 2>&1 | FileCheck %s
# RUN: FileCheck %s --check-prefix=IR --input-file %t.tir
# CHECK: static_print: local fp32 literal fp16
# CHECK: static_print: i8+n int32 i8+3 int8 i8+big uint32
# CHECK: static_print: n int32 big uint32 f fp64 t int1 c fp32
# CHECK: static_print: fp16+(c*0.5) fp32 fp16*int-local fp16 constexpr-local fp16
# IR-NOT: if
# IR: make_range {end = 16, start = 0}
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, i_ptr, y_ptr):
    o = tl.arange(0, 16)
    x = tl.load(x_ptr + o)
    s = 0.5
    tl.static_print("local", (x * s).dtype, "literal", (x * 0.5).dtype)
    xi = tl.load(i_ptr + o)
    n = 3
    big = 1 << 31
    tl.static_print("i8+n", (xi + n).dtype, "i8+3", (xi + 3).dtype, "i8+big", (xi + big).dtype)
    f = 1e300
    t = True
    c = 2
    tl.static_print("n", n.dtype, "big", big.dtype, "f", f.dtype, "t", t.dtype, "c", (c * 0.5).dtype)
    h: tl.constexpr = 0.5
    tl.static_print("fp16+(c*0.5)", (x + c * 0.5).dtype, "fp16*int-local", (x * c).dtype,
                    "constexpr-local", (x * h).dtype)
    DEBUG = False
    if DEBUG:
        x = x + 1
    m = 16
    tl.store(y_ptr + tl.arange(0, m), x * s)
