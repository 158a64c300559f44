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
