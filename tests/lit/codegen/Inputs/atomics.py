import triton
import triton.language as tl


@triton.jit
def sem_scope(p, q, f, h, SEM: tl.constexpr, SCOPE: tl.constexpr):
    a = tl.atomic_add(p, 1, sem=SEM, scope=SCOPE)
    b = tl.atomic_cas(p + 1, a, 2, sem=SEM, scope=SCOPE)
    c = tl.atomic_max(q, b.to(tl.int64), sem=SEM, scope=SCOPE)
    d = tl.atomic_add(f, 1.5, sem=SEM, scope=SCOPE)
    e = tl.atomic_max(f + 1, d, sem=SEM, scope=SCOPE)
    g = tl.atomic_add(h, e.to(tl.float16), sem=SEM, scope=SCOPE)
    tl.store(q + 1, c + e.to(tl.int64) + g.to(tl.int64))


@triton.jit
def scalar_then_load(p, out):
    tl.store(p, 5)
    x = tl.load(p)
    offs = tl.arange(0, 256)
    tl.store(out + offs, x + offs)
