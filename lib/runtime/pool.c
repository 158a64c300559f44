/* pool.c: the thread pool that runs the programs of CPU launches.
 *
 * Workers are created lazily, on the first launch that wants them, and reused; the calling
 * thread takes part as worker 0. A job is a range 0..total-1 of linear program ids, handed
 * out in chunks through one atomic counter, so that uneven programs balance themselves.
 * One job runs at a time; a launch from inside a running program (or while the pool is
 * held by another thread's launch) is never queued behind itself: a launch from a pool
 * thread runs inline on that thread. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "tilert_int.h"

enum { MAX_THREADS = 1024, CHUNKS_PER_THREAD = 8 };

static struct {
	pthread_mutex_t lock; /* guards everything below but next */
	pthread_cond_t wake;  /* a new job, or stop */
	pthread_cond_t done;  /* the last worker of a job finished */
	pthread_t *threads;
	unsigned nthreads;    /* workers created (the caller is not one of them) */
	unsigned long generation;
	int stop;
	/* the current job */
	tilert_range_fn fn;
	void *ctx;
	int64_t total, chunk;
	atomic_llong next;
	unsigned job_threads; /* workers 1..job_threads-1 take part */
	unsigned running;     /* of those, the ones not finished */
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER };

/* Serializes jobs; held by the launching thread for the whole job. */
static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int in_pool;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static atomic_uint requested; /* tilert_set_num_threads / TILERT_NUM_THREADS; 0: cores */

static void run_chunks(unsigned worker)
{
	for (;;) {
		int64_t first = atomic_fetch_add(&pool.next, pool.chunk), last;

		if (first >= pool.total)
			return;
		last = pool.total - first < pool.chunk ? pool.total : first + pool.chunk;
		pool.fn(pool.ctx, worker, first, last);
	}
}

/* What a new worker starts from: its number, and the last job that is not its business
 * (a thread may start running after the job it was created for was published). */
typedef struct worker_start {
	unsigned self; /* 1-based: the caller is worker 0 */
	unsigned long generation;
} worker_start;

static void *worker_main(void *arg)
{
	worker_start *start = arg;
	unsigned self = start->self;
	unsigned long seen = start->generation;

	free(start);
	in_pool = 1;
	pthread_mutex_lock(&pool.lock);
	for (;;) {
		while (!pool.stop && pool.generation == seen)
			pthread_cond_wait(&pool.wake, &pool.lock);
		if (pool.stop)
			break;
		seen = pool.generation;
		if (self >= pool.job_threads)
			continue;
		pthread_mutex_unlock(&pool.lock);
		run_chunks(self);
		pthread_mutex_lock(&pool.lock);
		if (--pool.running == 0)
			pthread_cond_signal(&pool.done);
	}
	pthread_mutex_unlock(&pool.lock);
	return NULL;
}

/* Creates workers up to want-1 (the caller is the other one); returns how many threads a
 * job can use, fewer than want when the system refuses threads. Called with job_lock. */
static unsigned pool_grow(unsigned want)
{
	pthread_t *t;

	if (want - 1 <= pool.nthreads)
		return want;
	if (!(t = realloc(pool.threads, (want - 1) * sizeof *t)))
		return pool.nthreads + 1;
	pool.threads = t;
	/* CPU kernels keep their tiles on the stack (a 128x128 fp32 accumulator alone is
	 * 64 KiB), so workers get a generous stack rather than the platform default */
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, (size_t)64 << 20);
	pthread_mutex_lock(&pool.lock);
	while (pool.nthreads < want - 1) {
		worker_start *start = malloc(sizeof *start);

		if (!start)
			break;
		start->self = pool.nthreads + 1;
		start->generation = pool.generation;
		if (pthread_create(&pool.threads[pool.nthreads], &attr, worker_main, start) != 0) {
			free(start);
			break;
		}
		pool.nthreads++;
	}
	pthread_mutex_unlock(&pool.lock);
	pthread_attr_destroy(&attr);
	return pool.nthreads + 1;
}

void tilert_pool_run(int64_t total, unsigned nthreads, tilert_range_fn fn, void *ctx)
{
	unsigned use;

	if (total <= 0)
		return;
	if (nthreads <= 1 || total == 1 || in_pool) {
		fn(ctx, 0, 0, total);
		return;
	}
	pthread_mutex_lock(&job_lock);
	if (pool.stop) { /* after pool_fini: at exit, from another library's destructor */
		pthread_mutex_unlock(&job_lock);
		fn(ctx, 0, 0, total);
		return;
	}
	use = pool_grow(nthreads);
	if ((int64_t)use > total)
		use = (unsigned)total;
	pthread_mutex_lock(&pool.lock);
	pool.fn = fn;
	pool.ctx = ctx;
	pool.total = total;
	pool.chunk = total / ((int64_t)use * CHUNKS_PER_THREAD);
	if (pool.chunk < 1)
		pool.chunk = 1;
	atomic_store(&pool.next, 0);
	pool.job_threads = use;
	pool.running = use - 1;
	pool.generation++;
	pthread_cond_broadcast(&pool.wake);
	pthread_mutex_unlock(&pool.lock);

	in_pool = 1;
	run_chunks(0);
	in_pool = 0;

	pthread_mutex_lock(&pool.lock);
	while (pool.running > 0)
		pthread_cond_wait(&pool.done, &pool.lock);
	pthread_mutex_unlock(&pool.lock);
	pthread_mutex_unlock(&job_lock);
}

/* A forked child has none of the workers; it starts with an empty pool. */
static void pool_atfork_child(void)
{
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.wake, NULL);
	pthread_cond_init(&pool.done, NULL);
	pthread_mutex_init(&job_lock, NULL);
	free(pool.threads);
	pool.threads = NULL;
	pool.nthreads = 0;
	pool.running = 0;
}

static void pool_init(void)
{
	const char *env = getenv("TILERT_NUM_THREADS");
	char *end;

	pthread_atfork(NULL, NULL, pool_atfork_child);
	if (env && *env) {
		unsigned long n = strtoul(env, &end, 10);

		if (!*end)
			atomic_store(&requested, n > MAX_THREADS ? MAX_THREADS : (unsigned)n);
	}
}

/* Joins the workers when the library is unloaded or the process exits, so that no thread
 * is left running code of an unmapped libtilert.so. */
__attribute__((destructor)) static void pool_fini(void)
{
	pthread_mutex_lock(&job_lock);
	pthread_mutex_lock(&pool.lock);
	pool.stop = 1;
	pthread_cond_broadcast(&pool.wake);
	pthread_mutex_unlock(&pool.lock);
	for (unsigned i = 0; i < pool.nthreads; i++)
		pthread_join(pool.threads[i], NULL);
	free(pool.threads);
	pool.threads = NULL;
	pool.nthreads = 0;
	pthread_mutex_unlock(&job_lock);
}

int tilert_set_num_threads(unsigned n)
{
	pthread_once(&init_once, pool_init);
	atomic_store(&requested, n > MAX_THREADS ? MAX_THREADS : n);
	return TILERT_OK;
}

unsigned tilert_get_num_threads(void)
{
	unsigned n;

	pthread_once(&init_once, pool_init);
	if ((n = atomic_load(&requested)) == 0) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);

		n = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (unsigned)cores;
	}
	return n;
}
