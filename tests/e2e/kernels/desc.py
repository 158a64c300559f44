# Tensor descriptors made in the kernel, run by tests/e2e/desc.c: blocks of an M x N
# tensor read with desc.load (zero outside the tensor), written with desc.store (dropped
# outside), and accumulated with desc.atomic_add, at awkward M, N and strides.
import triton
import triton.language as tl


@triton.jit
def desc_copy(x_ptr, y_ptr, acc_ptr, M, N, stride_xm, stride_ym, stride_1,
              BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    xd = tl.make_tensor_descriptor(x_ptr, [M, N], [stride_xm, stride_1], [BM, BN])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[stride_ym, 1], block_shape=[BM, BN])
    ad = tl.make_tensor_descriptor(acc_ptr, [M, N], [N, 1], [BM, BN])
    tl.static_assert(xd.block_shape == (BM, BN) and xd.dtype == x_ptr.dtype.element_ty)
    om = pid_m * BM
    on = pid_n * BN
    x = xd.load([om, on])
    # the block one row up and one column left: reads before the tensor's start give 0
    xs = xd.load([om - 1, on - 1])
    yd.store([om, on], x * 2 + xs)
    ad.atomic_add([om, on], x)


# Host-made descriptors (tensordesc<fp32[BM, BN]> parameters, built by the harness with
# tilert_tensor_desc_init): y = 2 x + (x one row up and one column right), where a shifted
# read outside the tensor gives x's padding (0, or NaN with padding "nan", which the kernel
# turns into -7 so that it differs from the poison); the descriptor's shape and strides are
# written to info by program (0, 0).
@triton.jit
def desc_host(x_desc, y_desc, info_ptr, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    tl.static_assert(x_desc.block_shape == (BM, BN) and y_desc.dtype == tl.float32)
    om = pid_m * BM
    on = pid_n * BN
    x = x_desc.load([om, on])
    xs = x_desc.load([om - 1, on + 1])
    y = tl.where(xs != xs, -7.0, x * 2 + xs)
    y_desc.store([om, on], y)
    if pid_m == 0 and pid_n == 0:
        M, N = x_desc.shape
        tl.store(info_ptr + 0, M)
        tl.store(info_ptr + 1, N)
        tl.store(info_ptr + 2, x_desc.strides[0].to(tl.int32))
        tl.store(info_ptr + 3, y_desc.strides[0].to(tl.int32))
        tl.store(info_ptr + 4, y_desc.strides[1].to(tl.int32))
