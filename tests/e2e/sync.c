/* sync.c: synchronization between programs (kernels/sync.py), each kernel compiled with 1,
 * 4 and 8 warps per program.
 *
 *   spin_lock  every program takes a lock (an atomic_cas loop), adds its row of x into acc,
 *              counts itself, and releases the lock: acc is the exact sum of the rows, the
 *              counter the number of programs, and the counts each program saw a
 *              permutation of 0..P-1 (a program that ran without the lock breaks these)
 *   tickets    atomic_add on one counter: the ticket every thread of a program stores is the
 *              same, and the tickets are a permutation; atomic_add on a tile of 16 slots
 *              (smaller than the program): each slot's olds are k * (slot + 1) for a
 *              permutation of k, and tl.sum of them is right
 *   cas_add    acc += v by a compare-and-swap loop under contention (scopes gpu, cta, sys):
 *              the exact sum, at least one try per program (cta: one program, the scope
 *              promising nothing between programs) */
#include "e2e.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the n values at p (int32) are a permutation of 0..n-1; reports the first
 * offender. */
static void check_permutation(const char *what, const int32_t *p, int n)
{
	char *seen = calloc((size_t)n + 1, 1);
	for (int i = 0; i < n; i++) {
		if (p[i] < 0 || p[i] >= n || seen[p[i]]) {
			e2e_fail("%s: element %d is %d, not part of a permutation of 0..%d", what, i, p[i], n - 1);
			break;
		}
		seen[p[i]] = 1;
	}
	free(seen);
}

static void test_spin_lock(const char *variant, int P, int n, uint64_t seed)
{
	enum { BLOCK = 64 };
	e2e_begin("spin_lock %s programs=%d n=%d", variant, P, n);
	tilert_kernel *k = e2e_kernel(variant, "spin_lock");
	e2e_rng r = e2e_rng_new(seed);
	int32_t *lock = e2e_alloc(4), *count = e2e_alloc(4), *acc = e2e_alloc(BLOCK * 4);
	int32_t *x = e2e_alloc((size_t)P * n * 4), *seen = e2e_alloc((size_t)P * 4);
	*lock = 0;
	*count = 0;
	int64_t want[BLOCK], wcount = P;
	for (int j = 0; j < n; j++)
		want[j] = acc[j] = (int32_t)e2e_randint(&r, -1000000, 1000000);
	for (int p = 0; p < P; p++)
		for (int j = 0; j < n; j++) {
			x[(size_t)p * n + j] = (int32_t)e2e_randint(&r, -1000000, 1000000);
			want[j] += x[(size_t)p * n + j];
		}
	e2e_poison(seen, (size_t)P * 4);
	void *args[] = {&lock, &count, &acc, &x, &seen, &n};
	if (!e2e_launch(k, (unsigned)P, 1, 1, args, 6)) {
		int64_t wlock = 0;
		e2e_cmp_int("counter", count, &wcount, 1, 4, 1);
		e2e_cmp_int("lock released", lock, &wlock, 1, 4, 1);
		e2e_cmp_int("acc (sum of the rows)", acc, want, (size_t)n, 4, 1);
		check_permutation("counts seen", seen, P);
	}
	e2e_end();
}

static void test_tickets(const char *variant, int P)
{
	enum { BLOCK = 128, NSLOT = 16 };
	e2e_begin("tickets %s programs=%d", variant, P);
	tilert_kernel *k = e2e_kernel(variant, "tickets");
	int32_t *counter = e2e_alloc(4), *slots = e2e_alloc(NSLOT * 4);
	int32_t *out = e2e_alloc((size_t)P * BLOCK * 4), *row = e2e_alloc((size_t)P * NSLOT * 4);
	int32_t *sum = e2e_alloc((size_t)P * 4);
	*counter = 0;
	memset(slots, 0, NSLOT * 4);
	e2e_poison(out, (size_t)P * BLOCK * 4);
	e2e_poison(row, (size_t)P * NSLOT * 4);
	e2e_poison(sum, (size_t)P * 4);
	void *args[] = {&counter, &slots, &out, &row, &sum};
	if (!e2e_launch(k, (unsigned)P, 1, 1, args, 5)) {
		int64_t wcounter = P;
		e2e_cmp_int("counter", counter, &wcounter, 1, 4, 1);
		int32_t *t = malloc((size_t)P * 4), *ks = malloc((size_t)P * 4);
		for (int p = 0; p < P; p++) {
			t[p] = out[(size_t)p * BLOCK];
			for (int j = 1; j < BLOCK; j++)
				if (out[(size_t)p * BLOCK + j] != t[p]) {
					e2e_fail("program %d: thread copies of the ticket differ: [0] = %d, [%d] = %d", p,
						 t[p], j, out[(size_t)p * BLOCK + j]);
					break;
				}
		}
		check_permutation("tickets", t, P);
		for (int s = 0; s < NSLOT; s++) {
			int64_t wslot = (int64_t)P * (s + 1);
			e2e_cmp_int("slot total", slots + s, &wslot, 1, 4, 1);
			for (int p = 0; p < P; p++) {
				int32_t o = row[(size_t)p * NSLOT + s];
				ks[p] = o % (s + 1) == 0 ? o / (s + 1) : -1;
			}
			check_permutation("slot olds / (slot + 1)", ks, P);
		}
		int64_t *wsum = malloc((size_t)P * sizeof(int64_t));
		for (int p = 0; p < P; p++) {
			wsum[p] = t[p];
			for (int s = 0; s < NSLOT; s++)
				wsum[p] += row[(size_t)p * NSLOT + s];
		}
		e2e_cmp_int("tl.sum of the olds + ticket", sum, wsum, (size_t)P, 4, 1);
		free(t);
		free(ks);
		free(wsum);
	}
	e2e_end();
}

static void test_cas_add(const char *variant, int P, uint64_t seed)
{
	e2e_begin("cas_add %s programs=%d", variant, P);
	tilert_kernel *k = e2e_kernel(variant, "cas_add");
	e2e_rng r = e2e_rng_new(seed);
	int32_t *acc = e2e_alloc(4), *v = e2e_alloc((size_t)P * 4), *tries = e2e_alloc((size_t)P * 4);
	int64_t want = *acc = (int32_t)e2e_randint(&r, -1000, 1000);
	for (int p = 0; p < P; p++)
		want += v[p] = (int32_t)e2e_randint(&r, 1, 1000000);
	e2e_poison(tries, (size_t)P * 4);
	void *args[] = {&acc, &v, &tries};
	if (!e2e_launch(k, (unsigned)P, 1, 1, args, 3)) {
		e2e_cmp_int("acc", acc, &want, 1, 4, 1);
		for (int p = 0; p < P; p++)
			if (tries[p] < 1 || tries[p] > P) {
				e2e_fail("program %d made %d tries", p, tries[p]);
				break;
			}
	}
	e2e_end();
}

int main(int argc, char **argv)
{
	e2e_init(argc, argv);
	static const char *const w[] = {"w1", "w4", "w8"};
	static const int programs[] = {1, 7, 300};
	for (size_t i = 0; i < E2E_ARRAY_SIZE(w); i++) {
		char lock[32], tick[32], cas[32];
		snprintf(lock, sizeof lock, "spin_lock_%s", w[i]);
		snprintf(tick, sizeof tick, "tickets_%s", w[i]);
		snprintf(cas, sizeof cas, "cas_add_%s", w[i]);
		for (size_t j = 0; j < E2E_ARRAY_SIZE(programs); j++) {
			int P = programs[j];
			E2E_RUN(test_spin_lock(lock, P, j == 0 ? 1 : j == 1 ? 37 : 64, 700 + i * 10 + j));
			E2E_RUN(test_tickets(tick, P));
			E2E_RUN(test_cas_add(cas, P, 800 + i * 10 + j));
		}
	}
	/* cta scope promises atomicity among one program's threads only: one program */
	E2E_RUN(test_cas_add("cas_add_cta", 1, 901));
	E2E_RUN(test_cas_add("cas_add_sys", 97, 902));
	return e2e_finish();
}
