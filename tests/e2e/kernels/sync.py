# Synchronization between programs (tests/e2e/sync.c): scalar atomics whose old value every
# thread of a program must see (a spin lock, a ticket counter, compare-and-swap loops), and
# atomics on tiles smaller than the program, whose elements are held by several threads.
# Compiled with 1, 4 and 8 warps: on a GPU a scalar atomic is performed by one thread and
# its result broadcast to the others.
import triton
import triton.language as tl


@triton.jit
def spin_lock(lock_ptr, count_ptr, acc_ptr, x_ptr, seen_ptr, n, BLOCK: tl.constexpr):
    # every program adds its row of x into acc under a lock, and counts itself
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + pid * n + offs, mask=mask)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    count = tl.load(count_ptr)
    acc = tl.load(acc_ptr + offs, mask=mask)
    tl.store(acc_ptr + offs, acc + x, mask=mask)
    tl.store(count_ptr, count + 1)
    tl.atomic_xchg(lock_ptr, 0, sem="release")
    tl.store(seen_ptr + pid, count)


@triton.jit
def tickets(counter_ptr, slots_ptr, out_ptr, row_ptr, sum_ptr, BLOCK: tl.constexpr,
            NSLOT: tl.constexpr):
    pid = tl.program_id(0)
    t = tl.atomic_add(counter_ptr, 1)
    offs = tl.arange(0, BLOCK)
    # the ticket as every thread holds it
    tl.store(out_ptr + pid * BLOCK + offs, tl.zeros([BLOCK], dtype=tl.int32) + t)
    # a small tile of atomics: each slot's olds over the programs are a permutation
    s = tl.arange(0, NSLOT)
    r = tl.atomic_add(slots_ptr + s, s + 1, sem="relaxed")
    tl.store(row_ptr + pid * NSLOT + s, r)
    tl.store(sum_ptr + pid, tl.sum(r, axis=0) + t)


@triton.jit
def cas_add(acc_ptr, v_ptr, tries_ptr, SCOPE: tl.constexpr):
    # acc += v[pid] by compare-and-swap, retried under contention
    pid = tl.program_id(0)
    v = tl.load(v_ptr + pid)
    old = tl.atomic_add(acc_ptr, 0, sem="acquire", scope=SCOPE)
    prev = tl.atomic_cas(acc_ptr, old, old + v, scope=SCOPE)
    tries = 1
    while prev != old:
        old = prev
        prev = tl.atomic_cas(acc_ptr, old, old + v, scope=SCOPE)
        tries += 1
    tl.store(tries_ptr + pid, tries)
