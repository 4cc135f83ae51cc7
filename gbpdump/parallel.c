// SPDX-License-Identifier: BSD-2-Clause
/* parallel.c - gbpdump -j N (see parallel.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vxgbp_internal.h>

#include "parallel.h"

/* Stage 3 goes on in the batch's next output block when one has less than
 * this room left: one frame's text or JSON is far smaller (its headers are
 * bounded: VXGBP_MAX_NESTED, VXGBP_MAX_VLAN, ...), so a block never has to
 * write anything itself before its turn. */
#define STAGE_ROOM (64u * 1024)

/* How long a worker with a CPU of its own spins for its turn before it
 * sleeps (wait_turn()): some tens of microseconds. */
#define SPIN_MAX 4000u

struct batch {
	uint64_t seq;                 /* which batch of the run */
	const struct gd_frame_cfg *cfg;
	size_t n, cap_recs;
	struct gd_rec *recs;
	struct vxgbp_pkt *pkts;
	uint64_t *cross;
	uint8_t *match;               /* stage 1 matched */
	uint8_t *bytes;               /* the records' bytes (copied) */
	size_t used, cap_bytes;       /* record bytes in the batch; room for copies */
	size_t n_state;               /* frames [0, n_state) went through stage 2 */
	struct gd_out **blk;          /* stage 3's output: blocks [0, nused) */
	size_t nblk, nused;
	int oom;                      /* stage 3 ran out of memory */
};

/* A record read that did not fit the batch being filled: the next one's
 * first (its bytes stay valid: the source was not called since). */
struct pend {
	struct gd_rec rec;
	const struct gd_frame_cfg *cfg;
	int have;
};

struct par {
	struct gd_par_run *run;
	/* reading: one worker at a time walks the source (rmu) */
	pthread_mutex_t rmu;
	const struct gd_par_src *src;
	char *errbuf;                 /* the source's message (rr < 0) */
	struct pend pend;
	uint64_t nread;               /* batches read */
	int rr;                       /* the source's last return (1: more) */
	/* the tokens (mu) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	_Atomic uint64_t state_seq, out_seq; /* written under mu */
	int stopped, oom;
	int spin;                     /* a CPU for each worker */
	int trk_oom;                  /* a worker's own tracker could not be had */
	int own;                      /* stage 2 in each worker's own state */
	/* blocks (src->blocks): block s is capture bytes [x0 + s GD_PAR_CHUNK,
	 * x0 + (s + 1) GD_PAR_CHUNK).  A worker takes a ticket (claim) and the
	 * block after the last one taken (last_s), skipping those the walk is
	 * known to be past (walk_next: where it is); walk_seq: the ticket
	 * whose block the reader walks next (the walk token).  Under mu. */
	struct gd_reader *blk;
	uint64_t x0, claim, last_s, walk_next;
	_Atomic uint64_t walk_seq;
	size_t bcap;                  /* a block's buffer to start with: a block and a record */
};

unsigned gd_par_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) < 0 || (n = CPU_COUNT(&set)) < 1)
		return 1;
	return (unsigned)n;
}

static void batch_free(struct batch *b)
{
	free(b->recs);
	free(b->pkts);
	free(b->cross);
	free(b->match);
	free(b->bytes);
	for (size_t i = 0; i < b->nblk; i++)
		free(b->blk[i]);
	free(b->blk);
}

static int batch_alloc(struct batch *b, size_t bytes)
{
	memset(b, 0, sizeof(*b));
	b->cap_recs = GD_PAR_RECS;
	b->cap_bytes = bytes;
	b->recs = calloc(b->cap_recs, sizeof(*b->recs));
	b->pkts = calloc(b->cap_recs, sizeof(*b->pkts));
	b->cross = calloc(b->cap_recs, sizeof(*b->cross));
	b->match = calloc(b->cap_recs, 1);
	b->bytes = malloc(bytes);
	return b->recs && b->pkts && b->cross && b->match && b->bytes ? 0 : -1;
}

/* Output block k of the batch, empty.  NULL: out of memory. */
static struct gd_out *blk_get(struct batch *b, size_t k)
{
	if (k >= b->nblk) {
		struct gd_out **v = realloc(b->blk, (k + 1) * sizeof(*v));

		if (!v)
			return NULL;
		b->blk = v;
		if (!(v[k] = malloc(sizeof(*v[k]))))
			return NULL;
		b->nblk = k + 1;
	}
	out_init(b->blk[k], -1); /* written by batch_write() only */
	return b->blk[k];
}

/* Room for one more record in b's arrays (a block: as many as start in
 * it).  0, or -1 out of memory. */
static int batch_grow(struct batch *b)
{
	size_t n = b->cap_recs * 2;
	void *p;

	if (b->n < b->cap_recs)
		return 0;
	if (!(p = realloc(b->recs, n * sizeof(*b->recs))))
		return -1;
	b->recs = p;
	if (!(p = realloc(b->pkts, n * sizeof(*b->pkts))))
		return -1;
	b->pkts = p;
	if (!(p = realloc(b->cross, n * sizeof(*b->cross))))
		return -1;
	b->cross = p;
	if (!(p = realloc(b->match, n)))
		return -1;
	b->match = p;
	b->cap_recs = n;
	return 0;
}

/* b empty, before it is filled again. */
static void batch_reset(struct batch *b)
{
	b->n = 0;
	b->used = 0;
	b->cfg = NULL;
}

static void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Wait (holding P->mu) until *seq reaches want.  A turn is most often
 * another worker's block read away, tens of microseconds, about what a
 * sleep and its wake-up cost: a worker with a CPU of its own spins that
 * long first. */
static void wait_turn(struct par *P, const _Atomic uint64_t *seq, uint64_t want)
{
	if (P->spin && atomic_load(seq) != want) {
		pthread_mutex_unlock(&P->mu);
		for (unsigned i = 0; i < SPIN_MAX; i++) {
			if (atomic_load_explicit(seq, memory_order_relaxed) == want)
				break;
			spin_pause();
		}
		pthread_mutex_lock(&P->mu);
	}
	while (atomic_load(seq) != want)
		pthread_cond_wait(&P->cv, &P->mu);
}

/* Stage 2 for a batch, on the thread holding the state token (stopped:
 * an earlier batch stopped the run).  Returns 1 when this one stops it. */
static int batch_state(struct par *P, struct batch *b, int stopped)
{
	struct gd_frame_state *fs = P->run->fs;

	b->n_state = 0;
	if (stopped)
		return 0;
	for (size_t i = 0; i < b->n; i++) {
		b->n_state = i + 1;
		if (!b->match[i])
			continue;
		b->cross[i] = gd_frame_state(fs, &b->recs[i], &b->pkts[i]);
		if (gd_frame_stop(fs))
			return 1;
	}
	return 0;
}

/* Stage 2 for a batch in capture order: wait for the state token, run
 * it, pass the token on. */
static void batch_turn(struct par *P, struct batch *b)
{
	int stopped, stop;

	pthread_mutex_lock(&P->mu);
	wait_turn(P, &P->state_seq, b->seq);
	stopped = P->stopped;
	pthread_mutex_unlock(&P->mu);
	stop = batch_state(P, b, stopped); /* the token: state_seq stays b->seq */
	pthread_mutex_lock(&P->mu);
	P->stopped |= stop;
	P->state_seq++;
	pthread_cond_broadcast(&P->cv);
	pthread_mutex_unlock(&P->mu);
}

/* Stages 1 and 2 for a batch into the worker's own state fs, no token:
 * the run's stage 2 is order-free (order_free()), so nothing in it stops
 * the run, and a frame's stage 2 runs right after its parse, while its
 * struct is in the cache.  A run that prints nothing needs no frame's
 * struct after that: one serves them all. */
static void batch_own(struct batch *b, struct gd_frame_state *fs)
{
	size_t keep = b->cfg->print ? 1 : 0;

	for (size_t i = 0; i < b->n; i++) {
		struct vxgbp_pkt *p = &b->pkts[i * keep];

		b->match[i] = (uint8_t)gd_frame_parse(b->cfg, &b->recs[i], p);
		if (b->match[i])
			b->cross[i] = gd_frame_state(fs, &b->recs[i], p);
	}
	b->n_state = b->n;
}

/* Stage 3 for a batch into its output blocks. */
static void batch_emit(struct batch *b, struct gd_print *pp)
{
	struct gd_out *o;

	b->nused = 0;
	b->oom = 0;
	if (!b->cfg->print)
		return;
	if (!(o = blk_get(b, 0))) {
		b->oom = 1;
		return;
	}
	b->nused = 1;
	for (size_t i = 0; i < b->n_state; i++) {
		if (!b->match[i])
			continue;
		gd_frame_emit(b->cfg, pp, o, &b->recs[i], &b->pkts[i], b->cross[i]);
		if (GD_OUT_CAP - o->len < STAGE_ROOM) {
			if (!(o = blk_get(b, b->nused))) {
				b->oom = 1;
				return;
			}
			b->nused++;
		}
	}
}

/* The batch's output blocks to standard output (the output token held). */
static void batch_write(struct batch *b, struct gd_out *out)
{
	if (out->len)
		out_flush(out);
	for (size_t i = 0; i < b->nused && !out->err; i++) {
		b->blk[i]->fd = out->fd;
		if (out_flush(b->blk[i]) < 0)
			out->err = b->blk[i]->err;
	}
}

/* Stage 4: the batch's output after batch k-1's (the output token), and
 * its window dropped.  A run that prints nothing per frame takes no turn. */
static void batch_out(struct par *P, struct batch *b)
{
	if (b->cfg->print) {
		pthread_mutex_lock(&P->mu);
		wait_turn(P, &P->out_seq, b->seq);
		pthread_mutex_unlock(&P->mu);
		/* the output token: out_seq stays b->seq */
		if (!b->oom && !P->run->out->err)
			batch_write(b, P->run->out);
	}
	if (!b->cfg->print)
		return;
	pthread_mutex_lock(&P->mu);
	P->oom |= b->oom;
	if (P->run->out->err || P->oom)
		P->stopped = 1;
	P->out_seq++;
	pthread_cond_broadcast(&P->cv);
	pthread_mutex_unlock(&P->mu);
}

struct worker {
	struct par *P;
	pthread_t tid;
	struct gd_print pp;
	struct batch b;               /* the batch it reads, runs and prints */
	struct gd_frame_state fs;     /* its own stage 2 (P->own) */
	struct vxgbp_track *trk;      /* fs.trk, when the run has a tracker */
	uint8_t *rbuf;                /* blocks: the one it read (rcap bytes) */
	size_t rcap;
	char perr[GD_ERRBUF];         /* its read error, said when the walk gets there */
};

/* One batch through stages 1 to 4 (P->mu not held on entry or exit). */
static void batch_run(struct par *P, struct worker *w)
{
	struct batch *b = &w->b;

	if (P->own) {
		batch_own(b, &w->fs);
	} else {
		for (size_t i = 0; i < b->n; i++)
			b->match[i] = (uint8_t)gd_frame_parse(b->cfg, &b->recs[i], &b->pkts[i]);
		batch_turn(P, b);
	}
	batch_emit(b, &w->pp);
	batch_out(P, b);
}

/* Room for a record of n bytes in an empty batch: its buffer grows for a
 * record larger than GD_PAR_CHUNK.  0, or -1 out of memory. */
static int batch_room(struct batch *b, size_t n)
{
	uint8_t *nb;

	if (n <= b->cap_bytes)
		return 0;
	if (!(nb = realloc(b->bytes, n)))
		return -1;
	b->bytes = nb;
	b->cap_bytes = n;
	return 0;
}

/* rec into b (which has room), copied. */
static void batch_add(struct batch *b, const struct gd_rec *rec, const struct gd_frame_cfg *cfg)
{
	struct gd_rec *d = &b->recs[b->n++];

	*d = *rec;
	if (rec->caplen)
		memcpy(b->bytes + b->used, rec->data, rec->caplen);
	d->data = b->bytes + b->used;
	b->used += rec->caplen;
	b->cfg = cfg;
}

/* Does rec (of input cfg) go into b, or start the next? */
static int batch_fits(const struct batch *b, const struct gd_rec *rec,
		      const struct gd_frame_cfg *cfg)
{
	return !b->n || (b->n < b->cap_recs && cfg == b->cfg &&
			 b->used + rec->caplen <= GD_PAR_CHUNK);
}

/* One more record into b: 1 added, 0 the batch is full (the record waits
 * in P->pend), -1 the source ended (P->rr: 0, -1, or -2 out of memory). */
static int read_one(struct par *P, struct batch *b)
{
	struct pend *q = &P->pend;

	if (!q->have) {
		if ((P->rr = P->src->next(P->src->ctx, &q->rec, &q->cfg, P->errbuf)) != 1)
			return -1;
		q->have = 1;
	}
	if (!batch_fits(b, &q->rec, q->cfg))
		return 0;
	if (!b->n && batch_room(b, q->rec.caplen) < 0) {
		snprintf(P->errbuf, GD_ERRBUF, "out of memory for a %u-byte record",
			 q->rec.caplen);
		P->rr = -2;
		return -1;
	}
	batch_add(b, &q->rec, q->cfg);
	q->have = 0;
	return 1;
}

/* The next batch of the run into b, read by this worker: the source is
 * walked by one worker at a time, so the records and errors are those of
 * one thread; the others parse, count and print meanwhile, and the walk
 * leaves the batch's records in this worker's cache for stage 1.  0 with
 * b->n records, or -1: no more (the end, an error, or the run stopped). */
static int batch_read(struct par *P, struct batch *b)
{
	int stopped;

	batch_reset(b);
	pthread_mutex_lock(&P->rmu);
	pthread_mutex_lock(&P->mu);
	stopped = P->stopped; /* -c, -w or the output: read no further */
	pthread_mutex_unlock(&P->mu);
	while (!stopped && P->rr == 1 && read_one(P, b) == 1)
		;
	if (b->n)
		b->seq = P->nread++;
	pthread_mutex_unlock(&P->rmu);
	return b->n ? 0 : -1;
}

/* The common records next in the lent block (reader.h's walk: no call a
 * record) into b (which has one: the input's), after it.  They start in the
 * block: the buffer holds no byte past the block's end but those of a
 * record that starts in it.  0, or -1 out of memory. */
static int block_plain(struct par *P, struct batch *b)
{
	struct gd_walk wk;
	int rc = 0;

	/* frame numbers as the source gives them: the last one's base */
	if (!reader_walk_begin(P->blk, &wk, b->recs[b->n - 1].no - P->blk->count))
		return 0;
	for (;;) {
		if (b->n == b->cap_recs && batch_grow(b) < 0) {
			rc = -1;
			break;
		}
		if (!gd_walk_next(&wk, &b->recs[b->n], 1))
			break;
		b->used += b->recs[b->n++].caplen;
	}
	reader_walk_end(P->blk, &wk);
	return rc;
}

/* The lent block's buffer could not hold the record at the reader's
 * position (reader.h: a pcapng block may be as long as libpcap allows):
 * the block and the batch's records into a buffer with room for a block
 * and that record, from now on the worker's.  0, or -1 (P->rr and errbuf
 * as the failed read left them, or out of memory). */
static int block_room(struct par *P, struct worker *w)
{
	struct batch *b = &w->b;
	size_t want = P->blk->lend_short, cap;
	uint8_t *nb;

	if (!want)
		return -1;
	if (want > SIZE_MAX - GD_PAR_CHUNK || !(nb = malloc(cap = GD_PAR_CHUNK + want))) {
		snprintf(P->errbuf, GD_ERRBUF, "out of memory for a %zu-byte record", want);
		P->rr = -2;
		return -1;
	}
	memcpy(nb, w->rbuf, P->blk->end);
	for (size_t i = 0; i < b->n; i++)
		b->recs[i].data = nb + (b->recs[i].data - w->rbuf);
	free(w->rbuf);
	w->rbuf = nb;
	w->rcap = cap;
	reader_relend(P->blk, nb, cap);
	P->rr = 1;
	return 0;
}

/* The records that start in block [at, at + GD_PAR_CHUNK), got bytes of
 * it in the worker's buffer (got < 0: its read failed), into its batch,
 * walked by the reader in that buffer.  Holding the walk token. */
static void block_walk(struct par *P, struct worker *w, uint64_t at, ssize_t got)
{
	struct batch *b = &w->b;
	uint64_t end = at + GD_PAR_CHUNK;
	const struct gd_frame_cfg *cfg;

	if (reader_next_off(P->blk) >= end) /* inside a record of an earlier block */
		return;
	if (got < 0) {
		snprintf(P->errbuf, GD_ERRBUF, "%s", w->perr);
		P->rr = -1;
		return;
	}
	reader_lend(P->blk, w->rbuf, (size_t)got, w->rcap, at);
	while (reader_next_off(P->blk) < end) {
		if (batch_grow(b) < 0 || (b->n && block_plain(P, b) < 0)) {
			snprintf(P->errbuf, GD_ERRBUF, "out of memory for a block's records");
			P->rr = -2;
			return;
		}
		if (reader_next_off(P->blk) >= end)
			break;
		if ((P->rr = P->src->next(P->src->ctx, &b->recs[b->n], &cfg, P->errbuf)) != 1) {
			if (P->rr < 0 && block_room(P, w) == 0)
				continue;
			return;
		}
		b->used += b->recs[b->n++].caplen;
		b->cfg = cfg;
	}
}

/* The next block's batch into w->b: read by this worker in parallel with
 * the others, walked in block order.  0 with b->n records (possibly 0: a
 * block inside one record), -1: no more. */
static int block_read(struct par *P, struct worker *w)
{
	struct batch *b = &w->b;
	uint64_t k, s;
	ssize_t got;
	int go;

	batch_reset(b);
	pthread_mutex_lock(&P->mu);
	go = !P->stopped && P->rr == 1;
	k = P->claim++; /* claimed: its walk token is passed on whatever happens */
	/* blocks between the last one taken and the walk's position hold no
	 * record start */
	s = (P->walk_next - P->x0) / GD_PAR_CHUNK;
	if (k && s <= P->last_s)
		s = P->last_s + 1;
	P->last_s = s;
	pthread_mutex_unlock(&P->mu);
	got = go ? reader_pread(P->blk, w->rbuf, GD_PAR_CHUNK, P->x0 + s * GD_PAR_CHUNK,
				w->perr) : 0;
	pthread_mutex_lock(&P->mu);
	wait_turn(P, &P->walk_seq, k);
	go = !P->stopped && P->rr == 1;
	pthread_mutex_unlock(&P->mu);
	if (go)
		block_walk(P, w, P->x0 + s * GD_PAR_CHUNK, got); /* the token: walk_seq stays k */
	if (b->n)
		b->seq = P->nread++;
	pthread_mutex_lock(&P->mu);
	P->walk_next = reader_next_off(P->blk);
	P->walk_seq++;
	pthread_cond_broadcast(&P->cv);
	pthread_mutex_unlock(&P->mu);
	return b->n || go ? 0 : -1;
}

static int own_open(struct par *P, struct worker *w);

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	if (w->P->own && own_open(w->P, w) < 0) {
		pthread_mutex_lock(&w->P->mu);
		w->P->trk_oom = w->P->stopped = 1;
		pthread_mutex_unlock(&w->P->mu);
		return NULL;
	}
	if (w->P->blk) {
		while (block_read(w->P, w) == 0)
			if (w->b.n)
				batch_run(w->P, w);
		return NULL;
	}
	while (batch_read(w->P, &w->b) == 0)
		batch_run(w->P, w);
	return NULL;
}

/* Stage 2 needs no capture order: nothing but the matched count (a sum)
 * and a tracker of the matrix alone (sums, and what vxgbp_track_absorb()
 * makes exact).  -c, -w, --check, --report, the tracker's rules and flows
 * need the order. */
static int order_free(const struct gd_frame_state *s)
{
	return (!s->trk || vxgbp_track_matrix_alone(s->trk)) && !s->chk && !s->rep && !s->wr &&
	       !s->count;
}

/* Worker w's own stage 2, made on its own thread when it starts (a worker
 * whose thread cannot be had needs none): the run's objects, and for a run
 * with a tracker one of its own, like the run's but with no budget (it
 * must drop nothing: the sum applies the run's, vxgbp_track_absorb()).
 * 0, or -1 out of memory. */
static int own_open(struct par *P, struct worker *w)
{
	w->fs = *P->run->fs;
	w->fs.matched = 0;
	if (!w->fs.trk)
		return 0;
	if (!(w->trk = malloc(vxgbp_track_size())))
		return -1;
	if (vxgbp_track_init_like(w->trk, w->fs.trk, SIZE_MAX) != 0) {
		free(w->trk);
		w->trk = NULL;
		return -1;
	}
	w->fs.trk = w->trk;
	return 0;
}

/* The workers' own states into the run's.  0, or -1 out of memory. */
static int own_join(struct par *P, struct worker *w, unsigned jobs)
{
	struct gd_frame_state *fs = P->run->fs;
	struct vxgbp_track **t;
	unsigned n = 0;
	int rc;

	for (unsigned i = 0; i < jobs; i++)
		fs->matched += w[i].fs.matched;
	if (!fs->trk)
		return 0;
	if (!(t = calloc(jobs, sizeof(*t))))
		return -1;
	for (unsigned i = 0; i < jobs; i++)
		if (w[i].trk) /* its thread started */
			t[n++] = w[i].trk;
	rc = vxgbp_track_absorb(fs->trk, t, n);
	free(t);
	return rc ? -1 : 0;
}

static void par_free(struct par *P, struct worker *w, unsigned jobs)
{
	for (unsigned i = 0; w && i < jobs; i++) {
		batch_free(&w[i].b);
		free(w[i].rbuf);
		if (w[i].trk) {
			vxgbp_track_fini(w[i].trk);
			free(w[i].trk);
		}
	}
	free(w);
	pthread_cond_destroy(&P->cv);
	pthread_mutex_destroy(&P->mu);
	pthread_mutex_destroy(&P->rmu);
}

/* The workers and their batches.  0, or -1 out of memory. */
static int par_alloc(struct par *P, struct worker **wp, unsigned jobs)
{
	struct worker *w;

	if (!(*wp = w = calloc(jobs, sizeof(*w))))
		return -1;
	for (unsigned i = 0; i < jobs; i++) {
		w[i].P = P;
		gd_frame_print_copy(&w[i].pp, P->run->pp);
		/* blocks: the records point into the worker's block */
		if (batch_alloc(&w[i].b, P->blk ? 1 : GD_PAR_CHUNK) < 0 ||
		    (P->blk && !(w[i].rbuf = malloc(w[i].rcap = P->bcap))))
			return -1;
	}
	return 0;
}

/* Threads 1..jobs-1 (the caller is worker 0), held at the start until all
 * are made (P->rmu held).  One that cannot be had (a low ulimit -v, a
 * thread limit) leaves the run to those started, the caller at least:
 * fewer workers give the same output.  0, or the pthread_create() error. */
static int par_start(struct par *P, struct worker *w, unsigned jobs, unsigned *started)
{
	int e = 0;

	pthread_mutex_lock(&P->rmu);
	while (*started + 1 < jobs &&
	       !(e = pthread_create(&w[*started + 1].tid, NULL, worker_main, &w[*started + 1])))
		(*started)++;
	pthread_mutex_unlock(&P->rmu);
	return e;
}

int gd_par_run(struct gd_par_run *p, const struct gd_par_src *src, char *errbuf)
{
	struct par P;
	struct worker *w = NULL;
	unsigned started = 0;
	int rr, e;

	memset(&P, 0, sizeof(P));
	P.run = p;
	P.src = src;
	P.errbuf = errbuf;
	P.rr = 1;
	pthread_mutex_init(&P.rmu, NULL);
	pthread_mutex_init(&P.mu, NULL);
	pthread_cond_init(&P.cv, NULL);
	P.own = order_free(p->fs);
	P.spin = p->jobs <= gd_par_cpus();
	if ((P.blk = src->blocks)) {
		P.x0 = P.walk_next = reader_next_off(P.blk);
		P.bcap = GD_PAR_CHUNK + 16 + P.blk->maxcap;
	}
	if (par_alloc(&P, &w, p->jobs) < 0) {
		par_free(&P, w, p->jobs);
		snprintf(errbuf, GD_ERRBUF, "-j %u: out of memory for the workers' batches "
			 "(fewer jobs need less)", p->jobs);
		return -2;
	}
	if ((e = par_start(&P, w, p->jobs, &started)))
		fprintf(stderr, "gbpdump: -j %u: thread %u cannot be started (%s): %u go on\n",
			p->jobs, started + 2, strerror(e), started + 1);
	if (!started) /* one worker: the run's own state is its */
		P.own = 0;
	worker_main(&w[0]);
	for (unsigned i = 1; i <= started; i++)
		pthread_join(w[i].tid, NULL);
	rr = P.rr;
	if (P.blk) /* before the blocks go */
		reader_unlend(P.blk);
	if (P.oom) {
		snprintf(errbuf, GD_ERRBUF, "-j %u: out of memory for a batch's output",
			 p->jobs);
		rr = -2;
	} else if (P.stopped && rr != -2) {
		rr = 1;
	}
	if (P.own && rr != -2 && (P.trk_oom || own_join(&P, w, p->jobs) < 0)) {
		snprintf(errbuf, GD_ERRBUF, "-j %u: out of memory for the workers' cross-frame "
			 "tables", p->jobs);
		rr = -2;
	}
	par_free(&P, w, p->jobs);
	return rr;
}
