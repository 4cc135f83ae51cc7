// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_absorb.c - one VXGBP_TRACK_MATRIX tracker added to another
 * (vxgbp_track_absorb, vxgbp.h): trackers fed disjoint sets of a capture's
 * frames (gbpdump -j, a tracker per thread) end as the one tracker fed
 * them all would.
 *
 * Everything the matrix keeps is a sum (the run's counters, each group's,
 * each VNI's, each (source group, VNI, destination) pair's), but for one
 * thing it learns: an endpoint's group, the group of the last GBP frame
 * that endpoint sent (track_matrix.c's apply).  Each endpoint slot keeps
 * that frame's number in key word TRK_MFRAME, so the later one wins here,
 * in whatever order the frames were shared out.  Sums do not depend on the
 * order either, and what the reading functions give is sorted (counters by
 * key, the matrix by cell), so a slot's place in a table does not show.
 *
 * What one tracker would have dropped is the one thing that is not
 * additive: keys a full table refused depend on the order they came in.
 * So this is exact only while nothing was dropped, and it says so:
 * VXGBP_E_NOSPACE when either tracker dropped a key, when dst finds no room
 * for src's, or when the budget might have stopped one tracker fed every
 * frame (fits_alone below).  The caller then feeds the frames to one
 * tracker instead.
 */
#include "track.h"

/* Bytes a table of cap slots holds (tab_grow's slack included). */
static size_t tab_bytes(size_t cap)
{
	return cap ? cap * sizeof(struct trk_slot) + 63 : 0;
}

/*
 * Whether one tracker, fed every frame in any order, reaches the tables st
 * has now without the budget refusing a growth.  A table's size depends
 * only on the keys it holds (it doubles when a key would pass 3/4), so the
 * single tracker ends with these very tables; its last growth of table T
 * held the fixed part, the other tables at their size then (at most their
 * final size), T's old slots and asked for T's new ones.  When that bound
 * fits for every T, no growth was refused.
 */
static int fits_alone(const struct trk_state *st)
{
	const struct trk_tab *tabs[] = { &st->vnis, &st->pairs, &st->eps };
	size_t all = st->size, worst = 0;

	for (unsigned i = 0; i < sizeof(tabs) / sizeof(tabs[0]); i++) {
		size_t cap = tabs[i]->cap;

		if (tab_bytes(cap) > st->mem.budget)
			return 0;
		all += tab_bytes(cap);
		if (tab_bytes(cap / 2) > worst)
			worst = tab_bytes(cap / 2);
	}
	return all <= st->mem.budget && worst <= st->mem.budget - all;
}

static int dropped_any(const struct trk_state *st)
{
	return st->vnis.dropped || st->pairs.dropped || st->eps.dropped ||
	       st->dropped_pair_bytes;
}

/* dst's slot of src slot s's key, inserted when new (*is_new); NULL: no
 * room (the table counts the drop). */
static struct trk_slot *slot_of(struct trk_mem *m, struct trk_tab *t,
				const struct trk_slot *s, int *is_new)
{
	struct trk_slot *end, *d;

	*is_new = 0;
	if ((d = trk_tab_probe(t, s->k, TRK_KEY4, s->k[TRK_KEY4], &end)))
		return d;
	*is_new = 1;
	return trk_tab_put(m, t, end, s->k, s->k[TRK_KEY4]);
}

/* Slot s of src into d, dst's slot of its key (is_new: just made): the
 * counts summed (VNIs, pairs), or (an endpoint) the group of the later
 * frame. */
static void add_slot(struct trk_slot *d, const struct trk_slot *s, int is_new, int ep)
{
	if (!ep) {
		d->v.cnt.frames += s->v.cnt.frames;
		d->v.cnt.bytes += s->v.cnt.bytes;
	} else if (is_new || s->k[TRK_MFRAME] > d->k[TRK_MFRAME]) {
		d->k[TRK_MFRAME] = s->k[TRK_MFRAME];
		d->v.ep.mgroup = s->v.ep.mgroup;
	}
}

/* Table src into dst (ep: the endpoints).  0, or -1: no room. */
static int add_tab(struct trk_mem *m, struct trk_tab *dst, const struct trk_tab *src, int ep)
{
	for (size_t i = 0; i < src->cap; i++) {
		const struct trk_slot *s = &src->s[i];
		struct trk_slot *d;
		int is_new;

		if (!s->k[0])
			continue;
		if (!(d = slot_of(m, dst, s, &is_new)))
			return -1;
		add_slot(d, s, is_new, ep);
	}
	return 0;
}

static void add_groups(struct trk_state *dst, const struct trk_state *src)
{
	for (uint32_t i = 0; i < src->nseen; i++) {
		uint32_t g = src->seen[i];

		if (!dst->gc[g].frames)
			dst->seen[dst->nseen++] = g;
		dst->gc[g].frames += src->gc[g].frames;
		dst->gc[g].bytes += src->gc[g].bytes;
	}
}

int vxgbp_track_absorb(struct vxgbp_track *dst, const struct vxgbp_track *src)
{
	struct trk_state *d, *s;

	if (!dst || !src || !(d = dst->st) || !(s = src->st) || d == s ||
	    d->what != VXGBP_TRACK_MATRIX || s->what != VXGBP_TRACK_MATRIX)
		return VXGBP_E_INVAL;
	vxgbpi_matrix_flush(d); /* the frames the pipelines hold */
	vxgbpi_matrix_flush(s);
	if (dropped_any(d) || dropped_any(s))
		return VXGBP_E_NOSPACE;
	d->frames += s->frames;
	d->bytes += s->bytes;
	d->vxlan += s->vxlan;
	d->gbp += s->gbp;
	d->other += s->other;
	d->unparsed += s->unparsed;
	add_groups(d, s);
	if (add_tab(&d->mem, &d->vnis, &s->vnis, 0) < 0 ||
	    add_tab(&d->mem, &d->pairs, &s->pairs, 0) < 0 ||
	    add_tab(&d->mem, &d->eps, &s->eps, 1) < 0 || !fits_alone(d))
		return VXGBP_E_NOSPACE;
	return 0;
}
