# Control flow (tests/e2e/control.c): a 2-D grid with tl.num_programs, early return,
# runtime if/elif/else merging values, the conditional expression, runtime for loops with
# carried tiles and scalars (positive and negative steps, tl.range), tl.static_range,
# while with a carried tile, and jit helpers with tuple, keyword and default arguments.
import triton
import triton.language as tl


@triton.jit
def _stats(x, mask, SQUARE: tl.constexpr = False):
    s = tl.sum(tl.where(mask, x, 0.0), axis=0)
    m = tl.max(tl.where(mask, x, -float("inf")), axis=0)
    if SQUARE:
        s = s * s
    return s, m


@triton.jit
def _twice(x):
    return x + x


@triton.jit
def control(x_ptr, out_ptr, cnt_ptr, grid_ptr, n, k, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    pid_y = tl.program_id(axis=1)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    # every program records that it ran, and the grid it saw
    tl.store(grid_ptr + pid_y * nx + pid, pid + 100 * pid_y + 10000 * nx + 1000000 * ny)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0) * (pid_y + 1)
    # runtime if/elif/else: each branch gives scale a value
    if k > 3:
        scale = 2.0
    elif k < -3:
        scale = 0.5
    else:
        scale = 1.0
    x = x * scale
    y = x if k > 0 else -x
    # for with a carried tile and a carried scalar; the loop variable is used
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    cnt = 0
    for i in range(0, k, 2):
        acc += y * i
        cnt += 1
    # negative step with tl.range
    for j in tl.range(k, 0, -1, num_stages=2):
        acc = acc - 1.0
        cnt += 10
    # unrolled: adds 0, 1, 2 times y
    for s in tl.static_range(3):
        acc = acc + y * s
    # while with a carried tile and counter
    t = 0
    w = y
    while t < k:
        w = w * 0.5 + 1.0
        t += 3
    acc = acc + w
    # helpers: tuple return, keyword and default arguments
    a, b = _stats(y, mask)
    c, d = _stats(y, mask=mask, SQUARE=True)
    acc = _twice(acc)
    row = out_ptr + pid_y * n
    tl.store(row + offs, acc + t, mask=mask)
    base = cnt_ptr + (pid_y * nx + pid) * 5
    tl.store(base + 0, cnt)
    tl.store(base + 1, a)
    tl.store(base + 2, b)
    tl.store(base + 3, c)
    tl.store(base + 4, d)
