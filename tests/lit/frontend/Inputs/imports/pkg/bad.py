import triton


@triton.jit
def broken(x):
    return x + not_defined_anywhere
