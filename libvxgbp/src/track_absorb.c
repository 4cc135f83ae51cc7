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
 * (track.h), so this replays exactly that: every source's keys, in the
 * order of their first frames (in a frame: the VNI, the pair, the
 * endpoint, as track_matrix.c's apply), go into dst under dst's budget
 * through the tables' own insertion.  A key's first sighting anywhere
 * comes first: it is inserted, or it finds no room and drops every one of
 * its frames, as it would have frame by frame, and the table never grows
 * again; its sightings in later sources are then added to its slot, or
 * dropped too.  That needs every source to have kept every key it saw:
 * their budget must not bind (the caller gives them SIZE_MAX).
 *
 * Most often no table of one tracker could have been full (never_full():
 * the budget holds the tables for the sum of the sources' keys): then the
 * order does not matter, and dst takes the largest source's tables and
 * the others' keys are added to them, with no list and no sort.
 */
#include <stdint.h>

#include "track.h"
#include "track_sort.h"

enum { T_VNIS, T_PAIRS, T_EPS, T_N };

/* One source slot, by the frame that brought its key then its table. */
struct jkey {
	uint64_t key; /* first frame << 2 | table */
	const struct trk_slot *s;
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

/* Another source's sighting s of the key of slot d. */
static void add_slot(struct trk_slot *d, const struct trk_slot *s, unsigned tab)
{
	if (tab != T_EPS) {
		d->v.cnt.frames += s->v.cnt.frames;
		d->v.cnt.bytes += s->v.cnt.bytes;
		if (s->k[TRK_FIRST] < d->k[TRK_FIRST])
			d->k[TRK_FIRST] = s->k[TRK_FIRST];
		return;
	}
	d->v.ep.frame += s->v.ep.frame;
	if (s->k[TRK_KEY4] < d->k[TRK_KEY4])
		d->k[TRK_KEY4] = s->k[TRK_KEY4];
	if (s->k[TRK_MFRAME] > d->k[TRK_MFRAME]) {
		d->k[TRK_MFRAME] = s->k[TRK_MFRAME];
		d->v.ep.mgroup = s->v.ep.mgroup;
	}
}

/* Source slot s (table tab) into dst, its turn come. */
static void replay_one(struct trk_state *d, const struct trk_slot *s, unsigned tab)
{
	struct trk_tab *t = tab_of(d, tab);
	uint64_t h = slot_hash(s, tab);
	struct trk_slot *end, *ds;

	if ((ds = trk_tab_probe(t, s->k, TRK_KEY4, h, &end))) {
		add_slot(ds, s, tab);
	} else if ((ds = trk_tab_put(&d->mem, t, end, s->k, h))) {
		*ds = *s;
	} else { /* every frame of it dropped; the insertion counted one */
		t->dropped += (tab == T_EPS ? s->v.ep.frame : s->v.cnt.frames) - 1;
		if (tab == T_PAIRS)
			d->dropped_pair_bytes += s->v.cnt.bytes;
	}
}

static int jkey_cmp(const void *a, const void *b)
{
	const struct jkey *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static uint64_t jkey_key(const void *e)
{
	return ((const struct jkey *)e)->key;
}

/* The keys in order: a radix sort while they fit its digits (first
 * frames below 2^34), else the heapsort. */
static void keys_sort(struct jkey *k, struct jkey *tmp, size_t n, uint64_t max)
{
	if (max >> (TRK_RADIX_BITS * TRK_RADIX_MAXD) || n >= UINT32_MAX)
		TRK_SORT(k, n, jkey_cmp);
	else
		TRK_RADIX(k, tmp, (uint32_t)n, TRK_RADIX_MAXD, jkey_key);
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

/* Bytes a table of cap slots holds (tab_grow's slack included), and the
 * slots one that never failed to grow has for n keys. */
static size_t tab_bytes(size_t cap)
{
	return cap ? cap * sizeof(struct trk_slot) + 63 : 0;
}

static size_t tab_cap(size_t n)
{
	size_t cap = 0;

	while (n * 4 > cap * 3)
		cap = cap ? cap * 2 : TRK_TAB_MIN;
	return cap;
}

/* Whether one tracker fed every frame, in any order, grows every table it
 * needs under d's budget: a growth of table T holds the fixed part, the
 * other tables (at most their final size), T's old slots and its new ones;
 * the final sizes are at most those for the sum of the sources' keys. */
static int never_full(const struct trk_state *d, struct vxgbp_track *const *src, unsigned n)
{
	size_t all = d->size, worst = 0;

	for (unsigned i = 0; i < T_N; i++) {
		size_t keys = 0, cap;

		for (unsigned j = 0; j < n; j++) {
			if (tab_of(src[j]->st, i)->n > SIZE_MAX / 8 - keys)
				return 0;
			keys += tab_of(src[j]->st, i)->n;
		}
		cap = tab_cap(keys);
		if (tab_bytes(cap) > d->mem.budget - all)
			return 0;
		all += tab_bytes(cap);
		if (tab_bytes(cap / 2) > worst)
			worst = tab_bytes(cap / 2);
	}
	return worst <= d->mem.budget - all;
}

/* The source with the most keys that shares d's allocator, or NULL. */
static struct trk_state *largest(const struct trk_state *d, struct vxgbp_track *const *src,
				 unsigned n)
{
	struct trk_state *best = NULL;
	size_t most = 0;

	for (unsigned j = 0; j < n; j++) {
		struct trk_state *s = src[j]->st;
		size_t keys = s->vnis.n + s->pairs.n + s->eps.n;

		if (s->mem.zalloc == d->mem.zalloc && s->mem.free == d->mem.free &&
		    s->mem.ctx == d->mem.ctx && (!best || keys > most)) {
			best = s;
			most = keys;
		}
	}
	return best;
}

/* d takes s's tables (the same allocator), s keeps empty ones. */
static void adopt(struct trk_state *d, struct trk_state *s)
{
	for (unsigned i = 0; i < T_N; i++) {
		struct trk_tab *dt = tab_of(d, i), *st = tab_of(s, i);

		d->mem.held += st->raw_size;
		s->mem.held -= st->raw_size;
		*dt = *st;
		vxgbpi_tab_init(st, TRK_KEY4);
		st->rehash = dt->rehash;
	}
}

/* No table of one tracker would have been full (never_full()): the keys
 * in any order, into the tables of the largest source.  0, or -1: no
 * memory (d partly made). */
static int absorb_sum(struct trk_state *d, struct vxgbp_track *const *src, unsigned n)
{
	struct trk_state *big = largest(d, src, n);

	if (big)
		adopt(d, big);
	for (unsigned j = 0; j < n; j++) {
		if (src[j]->st == big)
			continue;
		for (unsigned i = 0; i < T_N; i++) {
			const struct trk_tab *t = tab_of(src[j]->st, i);
			struct trk_tab *dt = tab_of(d, i);

			for (size_t x = 0; x < t->cap; x++) {
				const struct trk_slot *s = &t->s[x];
				uint64_t h = slot_hash(s, i);
				struct trk_slot *end, *ds;

				if (!s->k[0])
					continue;
				if ((ds = trk_tab_probe(dt, s->k, TRK_KEY4, h, &end)))
					add_slot(ds, s, i);
				else if ((ds = trk_tab_put(&d->mem, dt, end, s->k, h)))
					*ds = *s;
				else
					return -1;
			}
		}
	}
	return 0;
}

/* Every slot of the sources, listed in k (room for all of them); the
 * largest key in *max.  Their number. */
static size_t keys_list(struct vxgbp_track *const *src, unsigned n, struct jkey *k,
			uint64_t *max)
{
	size_t nk = 0;

	*max = 0;
	for (unsigned j = 0; j < n; j++)
		for (unsigned i = 0; i < T_N; i++) {
			const struct trk_tab *t = tab_of(src[j]->st, i);

			for (size_t x = 0; x < t->cap; x++) {
				if (!t->s[x].k[0])
					continue;
				k[nk].key = slot_first(&t->s[x], i) << 2 | i;
				k[nk].s = &t->s[x];
				if (k[nk].key > *max)
					*max = k[nk].key;
				nk++;
			}
		}
	return nk;
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
	struct jkey *k;
	size_t all = 0, size;
	uint64_t max;
	int rc;

	if ((rc = absorb_check(dst, src, n)))
		return rc;
	d = dst->st;
	if ((rc = vxgbpi_mirrors_absorb(d, src, n))) /* track_mirror.c */
		return rc;
	if (never_full(d, src, n)) {
		rc = absorb_sum(d, src, n) < 0 ? VXGBP_E_NOSPACE : 0;
		for (unsigned j = 0; j < n; j++)
			add_counts(d, src[j]->st);
		return rc;
	}
	for (unsigned j = 0; j < n; j++)
		for (unsigned i = 0; i < T_N; i++)
			all += tab_of(src[j]->st, i)->n;
	/* the list and the radix sort's copy are scratch: the caller's
	 * allocator, outside the budget */
	m = d->mem;
	m.budget = SIZE_MAX;
	m.held = 0;
	if (all > SIZE_MAX / 2 / sizeof(*k))
		return VXGBP_E_NOSPACE;
	size = 2 * all * sizeof(*k);
	if (all && !(k = vxgbpi_mem_get(&m, size)))
		return VXGBP_E_NOSPACE;
	if (all) {
		all = keys_list(src, n, k, &max);
		/* a key's first frame is its earliest sighting in any source */
		keys_sort(k, k + all, all, max);
		for (size_t x = 0; x < all; x++)
			replay_one(d, k[x].s, (unsigned)(k[x].key & 3));
		vxgbpi_mem_put(&m, k, size);
	}
	for (unsigned j = 0; j < n; j++)
		add_counts(d, src[j]->st);
	return 0;
}

int vxgbp_track_init_like(struct vxgbp_track *t, const struct vxgbp_track *like, size_t budget)
{
	struct vxgbp_track_opts o = { .size = sizeof(o) };

	if (!t || !like || !like->st)
		return VXGBP_E_INVAL;
	o.what = like->st->what;
	o.budget = budget;
	o.zalloc = like->st->mem.zalloc;
	o.free = like->st->mem.free;
	o.ctx = like->st->mem.ctx;
	o.fabric = like->st->fabric;
	return vxgbp_track_init(t, &o);
}

int vxgbp_track_matrix_alone(const struct vxgbp_track *t)
{
	return t && t->st && t->st->pipeline;
}
