/* event.c: timing events (tilert_event_*), for benchmarks and the autotuner that
 * `tilecc --tune` writes (docs/abi.md, "Autotuning").
 *
 * An event takes the clock of the stream it is recorded on: on a stream that carries GPU
 * launches, a driver event (cuEventRecord, hipEventRecord) queued behind them, made on the
 * first such record; elsewhere (a stream with CPU launches only, the default stream), the
 * host's monotonic clock, read after the stream's queued work is done. CPU launches are
 * synchronous, so the host clock times them exactly. Two events of different clocks cannot
 * be compared. */
#include <stdlib.h>
#include <time.h>

#include "tilert_int.h"

struct tilert_event {
	const tilert_gpu *gpu; /* the driver of ev, or NULL */
	void *ev;              /* the driver's event, made on the first GPU record */
	int recorded;          /* 0: never; 1: on the host clock; 2: on gpu's clock */
	double host_ms;        /* the host clock at the last host record */
};

int tilert_event_create(tilert_event **out)
{
	if (!out)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tilert_event_create: NULL out");
	tilert_event *e = calloc(1, sizeof *e);
	if (!e)
		return tilert_fail(TILERT_ERR_OUT_OF_MEMORY, "tilert_event_create: out of memory");
	*out = e;
	return TILERT_OK;
}

int tilert_event_destroy(tilert_event *e)
{
	if (!e)
		return TILERT_OK;
	if (e->ev)
		e->gpu->event_free(e->ev);
	free(e);
	return TILERT_OK;
}

int tilert_event_record(tilert_event *e, tilert_stream *s)
{
	const tilert_gpu *d = NULL;
	void *gs = NULL;
	int rc;

	if (!e)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tilert_event_record: NULL event");
	if (s)
		tilert_gpu_stream_peek(s, &d, &gs);
	if (!d) {
		struct timespec ts;
		if ((rc = tilert_stream_synchronize(s)) != TILERT_OK)
			return rc;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		e->host_ms = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
		e->recorded = 1;
		return TILERT_OK;
	}
	if (e->ev && e->gpu != d)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tilert_event_record: the event "
		                   "belongs to %s, the stream to %s", e->gpu->name, d->name);
	if (!e->ev) {
		if ((rc = d->event_create(&e->ev)) != TILERT_OK)
			return rc;
		e->gpu = d;
	}
	if ((rc = d->event_record(e->ev, gs)) != TILERT_OK)
		return rc;
	e->recorded = 2;
	return TILERT_OK;
}

int tilert_event_elapsed_ms(tilert_event *start, tilert_event *end, float *ms)
{
	if (!start || !end || !ms)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tilert_event_elapsed_ms: NULL argument");
	if (!start->recorded || !end->recorded)
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT,
		                   "tilert_event_elapsed_ms: an event was never recorded");
	if (start->recorded != end->recorded || (start->recorded == 2 && start->gpu != end->gpu))
		return tilert_fail(TILERT_ERR_INVALID_ARGUMENT, "tilert_event_elapsed_ms: the events "
		                   "were recorded on different clocks (a GPU stream and the host)");
	if (start->recorded == 1) {
		*ms = (float)(end->host_ms - start->host_ms);
		return TILERT_OK;
	}
	return start->gpu->event_elapsed(start->ev, end->ev, ms);
}
