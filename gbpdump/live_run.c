// SPDX-License-Identifier: BSD-2-Clause
/*
 * live_run.c - several live capture workers (gbpdump -i IFACE -j N): one
 * thread per fanout socket (live.h), each running the frame stages of
 * frame.h on the frames of its own ring:
 *
 *   parse  in the worker, on the frame in place in the ring;
 *   state  under one mutex (the tracker, --check, -w, -c), where the frame
 *          also gets its number: numbers ascend in the order frames enter
 *          the state stage.  Frames of different sockets have no order
 *          between them (each ring is in arrival order; the fanout hash
 *          keeps a flow's frames on one socket, so a flow's frames stay in
 *          order);
 *   emit   in the worker, into its own output buffer, which goes to
 *          standard output under a second mutex, whole records only: when
 *          it is half full, and whenever its ring is empty (so a slow
 *          capture still shows its frames at once).
 *
 * The main thread waits for a signal, -c, an output error or a worker's
 * error, then tells every worker to stop and joins them.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "frame.h"
#include "live.h"

struct lrun;

struct lworker {
	struct lrun *run;
	unsigned i;                 /* the socket */
	pthread_t th;
	int started;
	struct gd_out *out;
	struct gd_print pp;
	struct vxgbp_pkt pkt;
	uint64_t taken;             /* frames taken from the ring */
	uint64_t discarded;         /* taken after the stop: not analysed */
	int rc;                     /* 0, or -1 (errbuf) */
	char errbuf[GD_ERRBUF];
};

struct lrun {
	struct gd_reader *rd;
	const struct gd_frame_cfg *fc;
	struct gd_frame_state *fs;
	struct gd_out *out;         /* the shared one: its fd, its err */
	pthread_mutex_t state_mu, out_mu;
	atomic_int halt;            /* every worker: stop now */
	uint64_t seq;               /* frame numbers (under state_mu) */
};

/* The worker's buffer to standard output, whole records. */
static void wflush(struct lworker *w)
{
	struct lrun *r = w->run;

	if (!w->out->len)
		return;
	pthread_mutex_lock(&r->out_mu);
	if (out_flush(w->out) < 0 && !r->out->err)
		r->out->err = w->out->err;
	pthread_mutex_unlock(&r->out_mu);
	if (w->out->err)
		atomic_store(&r->halt, 1);
}

/* The state stage of one frame under the mutex: 1 when the frame went
 * through, 0 when the run had stopped (the frame is discarded). */
static int wstate(struct lworker *w, struct gd_rec *rec, uint64_t *cross)
{
	struct lrun *r = w->run;
	int ok = 0;

	pthread_mutex_lock(&r->state_mu);
	if (!atomic_load(&r->halt)) {
		rec->no = ++r->seq;
		*cross = gd_frame_state(r->fs, rec, &w->pkt);
		if (gd_frame_stop(r->fs))
			atomic_store(&r->halt, 1);
		ok = 1;
	}
	pthread_mutex_unlock(&r->state_mu);
	return ok;
}

static void *worker(void *arg)
{
	struct lworker *w = arg;
	struct lrun *r = w->run;
	struct gd_rec rec;
	uint64_t cross = 0;
	int rc;

	for (;;) {
		if (!live_ready(r->rd->lv, w->i))
			wflush(w);
		if ((rc = live_next(r->rd->lv, w->i, &rec, NULL, &r->halt, w->errbuf)) <= 0)
			break;
		w->taken++;
		rec.no = 0; /* numbered in the state stage (frames that match) */
		if (!gd_frame_parse(r->fc, &rec, &w->pkt))
			continue;
		if (!wstate(w, &rec, &cross)) {
			w->discarded++;
			break;
		}
		gd_frame_emit(r->fc, &w->pp, w->out, &rec, &w->pkt, cross);
		if (w->out->len > GD_OUT_CAP / 2)
			wflush(w);
	}
	wflush(w);
	if (rc < 0) {
		w->rc = -1;
		atomic_store(&r->halt, 1);
	}
	return NULL;
}

/* Wait until a signal (*stop: its handler runs on this thread, the
 * workers block the signals) or a worker stops the run. */
static void wait_stop(struct lrun *r, volatile sig_atomic_t *stop)
{
	struct timespec ts = { 0, 20 * 1000000L };

	while (!atomic_load(&r->halt) && !(stop && *stop))
		nanosleep(&ts, NULL);
	atomic_store(&r->halt, 1);
}

/* The workers' counts and first error into the run; 0 or -1 (errbuf). */
static int collect(struct lrun *r, struct lworker *w, unsigned n, char *errbuf)
{
	int rc = 0;

	for (unsigned i = 0; i < n; i++) {
		if (w[i].started)
			pthread_join(w[i].th, NULL);
		r->rd->count += w[i].taken - w[i].discarded;
		r->rd->lv->discarded += w[i].discarded;
		if (w[i].rc < 0 && rc == 0) {
			memcpy(errbuf, w[i].errbuf, GD_ERRBUF);
			rc = -1;
		}
		free(w[i].out);
	}
	return rc;
}

int live_run(struct gd_reader *rd, const struct gd_frame_cfg *fc, struct gd_frame_state *fs,
	     struct gd_out *out, volatile sig_atomic_t *stop, char *errbuf)
{
	struct lrun r = { rd, fc, fs, out, PTHREAD_MUTEX_INITIALIZER,
			  PTHREAD_MUTEX_INITIALIZER, 0, 0 };
	unsigned n = rd->lv->nsock;
	struct lworker *w = calloc(n, sizeof(*w));
	char werr[GD_ERRBUF];
	sigset_t sigs, old;
	int rc = 0;

	if (!w) {
		snprintf(errbuf, GD_ERRBUF, "%s: out of memory", rd->name);
		return -1;
	}
	/* the filter (or none) before any worker reads */
	if (!rd->lv->armed && live_set_filter(rd->lv, NULL, errbuf) < 0) {
		free(w);
		return -1;
	}
	out_flush(out);
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old); /* the workers inherit it */
	for (unsigned i = 0; i < n && !rc; i++) {
		w[i].run = &r;
		w[i].i = i;
		gd_frame_print_copy(&w[i].pp, fc->pp);
		if (!(w[i].out = malloc(sizeof(*w[i].out)))) {
			snprintf(errbuf, GD_ERRBUF, "%s: out of memory", rd->name);
			rc = -1;
			break;
		}
		out_init(w[i].out, out->fd);
		if (pthread_create(&w[i].th, NULL, worker, &w[i]) != 0) {
			snprintf(errbuf, GD_ERRBUF, "%s: cannot start worker %u", rd->name, i + 1);
			rc = -1;
			break;
		}
		w[i].started = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		atomic_store(&r.halt, 1);
	wait_stop(&r, stop);
	if (collect(&r, w, n, werr) < 0 && !rc) {
		memcpy(errbuf, werr, GD_ERRBUF);
		rc = -1;
	}
	free(w);
	return rc;
}

/* The options (live.h): here, not in live.c, which the reader fuzzer links
 * without common/. */
int live_opt(struct gd_live_opts *lo, int which, const char *arg)
{
	unsigned long long v;
	size_t sz;

	if (which == 'j') {
		if (cli_parse_num(arg, GD_LIVE_MAX_SOCKS, &v) || v == 0) {
			fprintf(stderr, "gbpdump: -j: expected 1-%d workers, got '%s'\n",
				GD_LIVE_MAX_SOCKS, arg);
			return -1;
		}
		lo->workers = (unsigned)v;
		return 0;
	}
	if (which == 'B') /* KiB, as tcpdump */
		sz = cli_parse_num(arg, GD_LIVE_RING_MAX / 1024, &v) ? 0 : (size_t)v * 1024;
	else if (cli_parse_size(arg, &sz))
		sz = 0;
	if (sz >= GD_LIVE_RING_MIN && sz <= GD_LIVE_RING_MAX) {
		lo->ring_bytes = sz;
		return 0;
	}
	fprintf(stderr, "gbpdump: %s: expected a ring size of %u KiB to %u MiB%s, got '%s'\n",
		which == 'B' ? "-B" : "--ring-size", GD_LIVE_RING_MIN / 1024,
		GD_LIVE_RING_MAX >> 20, which == 'B' ? " (in KiB)" : " (k, M, G suffixes)", arg);
	return -1;
}
