import triton


@triton.jit
def ext_add(x):
    return x + OFFSET


OFFSET = 5
