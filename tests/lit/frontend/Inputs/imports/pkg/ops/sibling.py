import triton


@triton.jit
def twice(x):
    return x * FACTOR


FACTOR = 2
