# `is None` folded at compile time, None in the signature and as a default, the attributes
# and methods of dtypes and block types, runtime values passed to a helper's tl.constexpr
# parameter, and tl.range's scheduling keywords recorded on the for op.
# RUN: %tilecc %s -k k -s "*fp32, None, *fp32, *u32, i32, 1, None, 64" -o %t.tir
# RUN: FileCheck %s --input-file %t.tir
# RUN: %tilecc %t.tir -O0 --emit=tir | diff %t.tir -
# The runtime parameters without the one that defaults to None: s_ptr stays None.
# RUN: %tilecc %s -k k -s "*fp32, *fp32, *fp32, *u32, i32" -D HAS_B=1 --emit=tir | FileCheck %s --check-prefix=BIAS
# -D works for None too.
# RUN: %tilecc %s -k k -s "*fp32, *fp32, *fp32, *u32, i32, 1, *fp32, 64" -D b_ptr=None --emit=tir | FileCheck %s --check-prefix=DNONE
import triton
import triton.language as tl


@triton.jit
def helper(x, offs_m: tl.constexpr, N: tl.constexpr):
    # offs_m receives a tensor: an ordinary value here, as in Triton
    return x + offs_m * N


@triton.jit
def k(x_ptr, b_ptr, out_ptr, u_ptr, n, HAS_B: tl.constexpr, s_ptr=None, BLOCK: tl.constexpr = 64):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if b_ptr is not None:
        x += tl.load(b_ptr + offs, mask=mask)
    if s_ptr is None:
        x = x * 2.0
    else:
        x = x * tl.load(s_ptr)
    # a tensor is never None, and is itself
    tl.static_assert(x is not None)
    tl.static_assert(not (x is None))
    tl.static_assert(x is x)
    # dtypes: comparisons, methods and fields
    tl.static_assert(x.dtype == tl.float32 and x.dtype != tl.float16)
    tl.static_assert(x.dtype.is_fp32() and x.dtype.is_floating() and not x.dtype.is_fp16())
    tl.static_assert(not x.dtype.is_int() and x.dtype.is_standard_floating())
    tl.static_assert(x_ptr.type.element_ty == tl.float32)
    tl.static_assert(x_ptr.dtype.element_ty == tl.float32 and x_ptr.dtype.is_ptr())
    tl.static_assert(x_ptr.type.is_ptr() and not x_ptr.type.is_block())
    tl.static_assert(x.type.is_block() and not x.type.is_fp32() and not x.dtype.is_block())
    tl.static_assert(x.type.scalar == tl.float32 and x.type.element_ty == tl.float32)
    tl.static_assert(x.type.scalar.primitive_bitwidth == 32 and x.dtype.itemsize == 4)
    tl.static_assert(x.type.shape[0] == BLOCK and x.type.numel == BLOCK)
    tl.static_assert(x.type.get_block_shapes() == (BLOCK,))
    tl.static_assert(u_ptr.dtype.element_ty.is_int_unsigned())
    tl.static_assert(u_ptr.dtype.element_ty.is_uint32() and not u_ptr.dtype.element_ty.is_int32())
    tl.static_assert(u_ptr.dtype.element_ty.int_bitwidth == 32)
    tl.static_assert(tl.int8.get_int_min_value() == -128 and tl.uint16.get_int_max_value() == 65535)
    tl.static_assert(tl.int64.is_int64() and tl.int64.is_int_signed() and tl.int1.is_bool())
    tl.static_assert(tl.int1.is_int_unsigned() and tl.bfloat16.is_bf16())
    tl.static_assert(x.dtype.fp_mantissa_width == 23 and x.dtype.exponent_bias == 127)
    tl.static_assert(tl.float16.fp_mantissa_width == 10 and tl.float64.is_fp64())
    tl.static_assert(x.dtype.name == "fp32" and tl.uint8.name == "uint8")
    tl.static_assert(x.type.with_element_ty(tl.float16).scalar == tl.float16)
    u = tl.load(u_ptr + offs, mask=mask)
    # weak Python ints: uint32 stays uint32 (% 7, & 0xFF, >> 3)
    r = u % 7
    tl.static_assert(r.dtype == tl.uint32)
    q = (u & 0xFF) >> 3
    tl.static_assert(q.dtype == tl.uint32)
    y = helper(x, offs, 3)
    # .to() with a dtype taken from a pointer, and with a block type (its element)
    y = y.to(x_ptr.dtype.element_ty).to(x.type)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in tl.range(0, n, 1, num_stages=2, loop_unroll_factor=4, disallow_acc_multi_buffer=True,
                      flatten=True, warp_specialize=True):
        acc += y
    for i in tl.range(0, n, num_stages=None, loop_unroll_factor=None):
        acc += 1.0
    tl.store(out_ptr + offs, acc, mask=mask)
    tl.store(u_ptr + offs, r + q, mask=mask)

# b_ptr and s_ptr are None: gone from the function's parameters
# CHECK-LABEL: func @k(%x_ptr: ptr<f32>, %out_ptr: ptr<f32>, %u_ptr: ptr<u32>, %n: i32)
# b_ptr is None: no second load; s_ptr is None: x * 2.0
# CHECK: %x = load
# CHECK-NOT: load
# CHECK: %x_1 = mulf %x, %{{.*}} : tile<64xf32>
# CHECK: %u = load
# CHECK: %r = remi %u, %{{.*}} : tile<64xu32>
# CHECK: andi %u, %{{.*}} : tile<64xu32>
# CHECK: %q = shri %{{.*}} : tile<64xu32>
# the helper's offs_m * N on the runtime tensor
# CHECK: muli %offs, %{{.*}} : tile<64xi32>
# CHECK: for {{.*}} {disallow_acc_multi_buffer, flatten, num_stages = 2, unroll = 4, warp_specialize} : tile<64xf32> {
# CHECK: for {{.*}}, %acc_{{[0-9]+}} : tile<64xf32> {

# BIAS-LABEL: func @k(%x_ptr: ptr<f32>, %b_ptr: ptr<f32>, %out_ptr: ptr<f32>, %u_ptr: ptr<u32>, %n: i32)
# BIAS: %x = load
# BIAS: load
# BIAS: mulf

# DNONE-LABEL: func @k(%x_ptr: ptr<f32>, %out_ptr: ptr<f32>, %u_ptr: ptr<u32>, %n: i32, %s_ptr: ptr<f32>)
# DNONE: %x = load
# DNONE-NEXT: load %s_ptr
