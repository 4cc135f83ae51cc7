// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_absorb.c - VXGBP_TRACK_MATRIX trackers fed disjoint frames of one
 * capture (gbpdump -j: one a thread) made into the one tracker fed every
 * frame in order (vxgbp_track_absorb, vxgbp_internal.h).
 *
 * The matrix keeps sums (the run's counters, each group's, each VNI's and
 * each (source group, VNI, destination) pair's) and one thing it learns:
 * an endpoint's group, that of the last GBP frame it sent; its slot keeps
 * that frame's number (TRK_MFRAME), so the later one wins here.
 *
 * What a budget drops is not a sum: a table that cannot grow (the budget
 * full when it would) keeps the keys it holds and drops every frame of a
 * key that comes later.  Whether it can grow depends on the sizes of the
 * other tables at that moment, so on the order in which new keys came, in
 * all three tables.  Each slot keeps the frame that brought its key
 * (track.h), so this replays exactly that: the sources' keys united (the
 * earliest first frame, the counts summed, the latest group), then
 * inserted into dst in the order of their first frames (in a frame: the
 * VNI, the pair, the endpoint, as track_matrix.c's apply), under dst's
 * budget, through the tables' own insertion.  A key that finds no room
 * drops every one of its frames, as it would have frame by frame.  That
 * needs every source to have kept every key it saw: their budget must not
 * bind (the caller gives them SIZE_MAX).
 */
#include <stdint.h>

#include "track.h"

enum { T_VNIS, T_PAIRS, T_EPS, T_N };

/* One united key, for the replay. */
struct jkey {
	uint64_t first;
	const struct trk_slot *s;
	unsigned tab;
};

static struct trk_tab *tab_of(struct trk_state *st, unsigned i)
{
	return i == T_VNIS ? &st->vnis : i == T_PAIRS ? &st->pairs : &st->eps;
}

/* The hash of a slot's key and the frame that brought it (track.h). */
static uint64_t slot_hash(const struct trk_slot *s, unsigned tab)
{
	return tab == T_EPS ? trk_hash(s->k, TRK_KEY4) : s->k[TRK_KEY4];
}

static uint64_t slot_first(const struct trk_slot *s, unsigned tab)
{
	return tab == T_EPS ? s->k[TRK_KEY4] : s->k[TRK_FIRST];
}

static uint64_t slot_frames(const struct trk_slot *s, unsigned tab)
{
	return tab == T_EPS ? s->v.ep.frame : s->v.cnt.frames;
}

/* Source slot s into the union table u.  0, or -1: no memory. */
static int unite(struct trk_mem *m, struct trk_tab *u, const struct trk_slot *s, unsigned tab)
{
	uint64_t h = slot_hash(s, tab);
	struct trk_slot *end, *d;

	if (!(d = trk_tab_probe(u, s->k, TRK_KEY4, h, &end))) {
		if (!(d = trk_tab_put(m, u, end, s->k, h)))
			return -1;
		*d = *s;
		return 0;
	}
	if (tab != T_EPS) {
		d->v.cnt.frames += s->v.cnt.frames;
		d->v.cnt.bytes += s->v.cnt.bytes;
		if (s->k[TRK_FIRST] < d->k[TRK_FIRST])
			d->k[TRK_FIRST] = s->k[TRK_FIRST];
		return 0;
	}
	d->v.ep.frame += s->v.ep.frame;
	if (s->k[TRK_KEY4] < d->k[TRK_KEY4])
		d->k[TRK_KEY4] = s->k[TRK_KEY4];
	if (s->k[TRK_MFRAME] > d->k[TRK_MFRAME]) {
		d->k[TRK_MFRAME] = s->k[TRK_MFRAME];
		d->v.ep.mgroup = s->v.ep.mgroup;
	}
	return 0;
}

static int jkey_cmp(const void *a, const void *b)
{
	const struct jkey *x = a, *y = b;

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->tab < y->tab ? -1 : x->tab > y->tab;
}

/* The united keys into dst in the order they came (k: n of them). */
static void replay(struct trk_state *d, struct jkey *k, size_t n)
{
	vxgbpi_sort(k, n, sizeof(*k), jkey_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct trk_slot *s = k[i].s;
		struct trk_tab *t = tab_of(d, k[i].tab);
		struct trk_slot *ds = vxgbpi_tab_insert(&d->mem, t, s->k, slot_hash(s, k[i].tab));

		if (ds) {
			*ds = *s;
			continue;
		}
		t->dropped += slot_frames(s, k[i].tab) - 1; /* the insertion counted one */
		if (k[i].tab == T_PAIRS)
			d->dropped_pair_bytes += s->v.cnt.bytes;
	}
}

static void add_counts(struct trk_state *d, const struct trk_state *s)
{
	d->frames += s->frames;
	d->bytes += s->bytes;
	d->vxlan += s->vxlan;
	d->gbp += s->gbp;
	d->other += s->other;
	d->unparsed += s->unparsed;
	for (uint32_t i = 0; i < s->nseen; i++) {
		uint32_t g = s->seen[i];

		if (!d->gc[g].frames)
			d->seen[d->nseen++] = g;
		d->gc[g].frames += s->gc[g].frames;
		d->gc[g].bytes += s->gc[g].bytes;
	}
}

/* The sources' keys united in u (memory m), listed in *keys.  0, or -1. */
static int unite_all(struct trk_mem *m, struct trk_tab *u, struct vxgbp_track *const *src,
		     unsigned n, struct jkey **keys, size_t *nk)
{
	size_t all = 0;

	for (unsigned j = 0; j < n; j++)
		for (unsigned i = 0; i < T_N; i++) {
			const struct trk_tab *t = tab_of(src[j]->st, i);

			for (size_t x = 0; x < t->cap; x++)
				if (t->s[x].k[0] && unite(m, &u[i], &t->s[x], i) < 0)
					return -1;
		}
	for (unsigned i = 0; i < T_N; i++)
		all += u[i].n;
	*nk = 0;
	if (!all)
		return 0;
	if (all > SIZE_MAX / sizeof(**keys) || !(*keys = vxgbpi_mem_get(m, all * sizeof(**keys))))
		return -1;
	for (unsigned i = 0; i < T_N; i++)
		for (size_t x = 0; x < u[i].cap; x++)
			if (u[i].s[x].k[0])
				(*keys)[(*nk)++] = (struct jkey){ slot_first(&u[i].s[x], i),
								   &u[i].s[x], i };
	return 0;
}

/* dst is a matrix-alone tracker that has seen nothing; each source one of
 * the matrix alone too, other than dst, that dropped nothing. */
static int absorb_check(struct vxgbp_track *dst, struct vxgbp_track *const *src, unsigned n)
{
	struct trk_state *d;

	if (!dst || !(d = dst->st) || !d->pipeline || d->frames || d->pend.n || (n && !src))
		return VXGBP_E_INVAL;
	for (unsigned j = 0; j < n; j++) {
		struct trk_state *s;

		if (!src[j] || !(s = src[j]->st) || s == d || !s->pipeline)
			return VXGBP_E_INVAL;
		vxgbpi_matrix_flush(s);
		if (s->vnis.dropped || s->pairs.dropped || s->eps.dropped)
			return VXGBP_E_NOSPACE;
	}
	return 0;
}

int vxgbp_track_absorb(struct vxgbp_track *dst, struct vxgbp_track *const *src, unsigned n)
{
	struct trk_state *d;
	struct trk_mem m;
	struct trk_tab u[T_N];
	struct jkey *keys = NULL;
	size_t nk = 0;
	int rc;

	if ((rc = absorb_check(dst, src, n)))
		return rc;
	d = dst->st;
	/* the union is scratch: the caller's allocator, outside the budget */
	m = d->mem;
	m.budget = SIZE_MAX;
	m.held = 0;
	for (unsigned i = 0; i < T_N; i++)
		vxgbpi_tab_init(&u[i], TRK_KEY4);
	u[T_EPS].rehash = 1;
	if (unite_all(&m, u, src, n, &keys, &nk) < 0) {
		rc = VXGBP_E_NOSPACE;
	} else {
		replay(d, keys, nk);
		for (unsigned j = 0; j < n; j++)
			add_counts(d, src[j]->st);
	}
	if (keys)
		vxgbpi_mem_put(&m, keys, nk * sizeof(*keys));
	for (unsigned i = 0; i < T_N; i++)
		vxgbpi_tab_free(&m, &u[i]);
	return rc;
}

int vxgbp_track_matrix_alone(const struct vxgbp_track *t)
{
	return t && t->st && t->st->pipeline;
}
