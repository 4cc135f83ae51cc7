// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_merge.c - the tracker's state for a mergeable summary (vxgbp.h,
 * "Since 1.2"): the first sightings VXGBP_TRACK_FIRSTS records, the
 * tables read back key by key, and a key's entries of two captures
 * appended, with the rules one tracker would have found between them.
 *
 * What it relies on in the other files (track.h): a table slot's key words
 * as track_rules.c and track_matrix.c build them (endpoints and pairs:
 * word 0 USED | VNI | aux << 32, word 1 the family 0/4/6, words 2-3 the
 * address as trk_addr_words() packs it; rules' flows: word 0 USED | VNI |
 * version << 24 | proto << 32, word 1 sport | dport << 16, words 2-5 the
 * addresses), v.ep (frame, group, flags, mgroup) and v.cnt, and the cache
 * slots (struct trk_dup).
 */
#include <string.h>

#include "track.h"

/* The records are held outside the budget (st->fmem): asking for a summary
 * must not change what the tracker finds.  They are bounded all the same:
 * one slot per key the tables hold, and the 2 MiB of the cache's first
 * frames. */
int vxgbpi_firsts_init(struct trk_state *st)
{
	st->fmem = st->mem;
	st->fmem.budget = SIZE_MAX;
	st->fmem.held = 0;
	vxgbpi_tab_init(&st->fst_eps, TRK_KEY4);
	vxgbpi_tab_init(&st->fst_flows, TRK_KEY6);
	st->dfirst = vxgbpi_mem_get(&st->fmem, TRK_DUP_SLOTS * sizeof(*st->dfirst));
	return st->dfirst ? 0 : -1;
}

void vxgbpi_firsts_free(struct trk_state *st)
{
	if (!st->dfirst)
		return;
	vxgbpi_tab_free(&st->fmem, &st->fst_eps);
	vxgbpi_tab_free(&st->fmem, &st->fst_flows);
	vxgbpi_mem_put(&st->fmem, st->dfirst, TRK_DUP_SLOTS * sizeof(*st->dfirst));
	st->dfirst = NULL;
}

void vxgbpi_first_touch(struct trk_state *st, const struct trk_dup *d, uint64_t hh,
			size_t len, const struct vxgbp_pkt *p, uint64_t frame)
{
	struct trk_dfirst *f = &st->dfirst[d - st->dup];

	if (f->frame)
		return;
	f->h = hh;
	f->frame = frame;
	f->len = (uint32_t)len;
	f->flags = p->vx.flags;
	f->group = p->vx.group;
	f->off = p->vxlan_off;
}

void vxgbpi_first_note(struct trk_state *st, const uint64_t *k, unsigned nw, uint64_t h,
		       const struct vxgbp_pkt *p, uint64_t frame)
{
	struct trk_tab *t = nw == TRK_KEY6 ? &st->fst_flows : &st->fst_eps;
	struct trk_slot *f;

	/* found: a key the rules' table could not hold, seen again */
	if (trk_tab_find(t, k, nw, h) || !(f = vxgbpi_tab_insert(&st->fmem, t, k, h)))
		return; /* not inserted: t->dropped says it (vxgbp_track_cache_next) */
	f->v.ep.frame = frame;
	f->v.ep.group = p->vx.group;
	if (nw == TRK_KEY6) { /* a flow: the ports the parser read on that frame too */
		f->v.ep.flags = p->vxlan_off >= 0 && p->vxlan_off < 0xffff
				? (uint16_t)p->vxlan_off : 0xffff;
		f->v.ep.mgroup = p->inner.l4.sport | (uint32_t)p->inner.l4.dport << 16;
	} else {
		f->v.ep.mgroup = (uint32_t)p->vxlan_off;
	}
}

/* ---- reading ---- */

/* The address trk_addr_words() packed into w: len 6, 4 or 16 bytes. */
static void words_addr(uint8_t *a, const uint64_t *w, size_t len)
{
	uint32_t lo = (uint32_t)w[0];
	uint16_t hi = (uint16_t)(w[0] >> 32);

	memset(a, 0, 16);
	if (len == 16) {
		memcpy(a, &w[0], 8);
		memcpy(a + 8, &w[1], 8);
		return;
	}
	memcpy(a, &lo, 4);
	if (len == 6)
		memcpy(a + 4, &hi, 2);
}

static size_t family_len(uint64_t family)
{
	return family == 6 ? 16 : family == 4 ? 4 : 6;
}

/* The next used slot of t at or after *it, or NULL. */
static const struct trk_slot *next_slot(const struct trk_tab *t, size_t *it)
{
	for (; *it < t->cap; (*it)++)
		if (t->s[*it].k[0])
			return &t->s[(*it)++];
	return NULL;
}

/* The rules' first sighting of key k (nw words) into e. */
static void first_of(const struct trk_state *st, const uint64_t *k, unsigned nw,
		     struct vxgbp_track_entry *e)
{
	const struct trk_tab *t = nw == TRK_KEY6 ? &st->fst_flows : &st->fst_eps;
	const struct trk_slot *f = trk_tab_find(t, k, nw, trk_hash(k, nw));

	if (!f)
		return;
	e->first_frame = f->v.ep.frame;
	e->first_group = f->v.ep.group;
	if (nw == TRK_KEY6) {
		e->first_off = f->v.ep.flags == 0xffff ? -1 : f->v.ep.flags;
		e->first_sport = (uint16_t)f->v.ep.mgroup;
		e->first_dport = (uint16_t)(f->v.ep.mgroup >> 16);
	} else {
		e->first_off = (int)(int32_t)f->v.ep.mgroup;
	}
}

static void endpoint_out(const struct trk_state *st, const struct trk_slot *s,
			 struct vxgbp_track_entry *e)
{
	e->vni = (uint32_t)(s->k[0] & VXGBP_VNI_MAX);
	e->family = (uint8_t)s->k[1];
	words_addr(e->addr, &s->k[2], family_len(s->k[1]));
	e->learned = s->v.ep.mgroup & TRK_LEARNED ? s->v.ep.mgroup & ~TRK_LEARNED
						  : VXGBP_GROUP_UNKNOWN;
	/* the rules' fields; the matrix alone counts frames there (track.h) */
	e->last_frame = st->pipeline ? 0 : s->v.ep.frame;
	e->last_group = s->v.ep.group;
	e->last_flags = s->v.ep.flags;
	first_of(st, s->k, TRK_KEY4, e);
}

static void flow_out(const struct trk_state *st, const struct trk_slot *s,
		     struct vxgbp_track_entry *e)
{
	size_t alen;

	e->vni = (uint32_t)(s->k[0] & VXGBP_VNI_MAX);
	e->family = (uint8_t)(s->k[0] >> 24);
	e->proto = (uint8_t)(s->k[0] >> 32);
	e->sport = (uint16_t)s->k[1];
	e->dport = (uint16_t)(s->k[1] >> 16);
	alen = e->family == 6 ? 16 : 4;
	words_addr(e->addr, &s->k[2], alen);
	words_addr(e->addr2, &s->k[4], alen);
	e->last_frame = s->v.ep.frame;
	e->last_group = s->v.ep.group;
	e->last_flags = s->v.ep.flags;
	first_of(st, s->k, TRK_KEY6, e);
}

int vxgbp_track_next(const struct vxgbp_track *t, enum vxgbp_track_kind kind, size_t *it,
		     struct vxgbp_track_entry *e)
{
	struct trk_state *st;
	const struct trk_tab *tab;
	const struct trk_slot *s;

	if (!t || !(st = t->st) || !it || !e)
		return VXGBP_E_INVAL;
	vxgbpi_matrix_flush(st);
	tab = kind == VXGBP_ENT_ENDPOINT ? &st->eps : kind == VXGBP_ENT_FLOW ? &st->flows
	      : kind == VXGBP_ENT_PAIR ? &st->pairs : kind == VXGBP_ENT_VNI ? &st->vnis : NULL;
	if (!tab)
		return VXGBP_E_INVAL;
	if (!(s = next_slot(tab, it)))
		return 0;
	memset(e, 0, sizeof(*e));
	e->first_off = -1;
	if (kind == VXGBP_ENT_ENDPOINT) {
		endpoint_out(st, s, e);
	} else if (kind == VXGBP_ENT_FLOW) {
		flow_out(st, s, e);
	} else {
		e->vni = (uint32_t)(s->k[0] & VXGBP_VNI_MAX);
		e->frames = s->v.cnt.frames;
		e->bytes = s->v.cnt.bytes;
		if (kind == VXGBP_ENT_PAIR) {
			e->src_group = (uint32_t)((s->k[0] & ~TRK_USED) >> 32);
			e->family = (uint8_t)s->k[1];
			words_addr(e->addr, &s->k[2], family_len(s->k[1]));
		}
	}
	return 1;
}

int vxgbp_track_cache_next(const struct vxgbp_track *t, int first, size_t *it,
			   struct vxgbp_track_cached *c)
{
	const struct trk_state *st;

	if (!t || !(st = t->st) || !it || !c || !st->dup || (first && !st->dfirst))
		return VXGBP_E_INVAL;
	if (first && (st->fst_eps.dropped || st->fst_flows.dropped))
		return VXGBP_E_NOSPACE;
	for (; *it < TRK_DUP_SLOTS; (*it)++) {
		size_t i = *it;

		if (first ? !st->dfirst[i].frame : !st->dup[i].frame)
			continue;
		memset(c, 0, sizeof(*c));
		c->slot = (uint32_t)i;
		if (first) {
			c->hash = st->dfirst[i].h;
			c->len = st->dfirst[i].len;
			c->frame = st->dfirst[i].frame;
			c->flags = st->dfirst[i].flags;
			c->group = st->dfirst[i].group;
			c->off = st->dfirst[i].off;
		} else {
			c->hash = st->dup[i].h;
			c->len = st->dup[i].len;
			c->frame = st->dup[i].frame;
			c->flags = st->dup[i].flags;
			c->group = st->dup[i].group;
			c->off = -1;
		}
		(*it)++;
		return 1;
	}
	return 0;
}

unsigned vxgbp_track_cache_judge(const struct vxgbp_track_cached *prev,
				 const struct vxgbp_track_cached *cur)
{
	if (!prev || !cur || !prev->frame || prev->slot != cur->slot ||
	    prev->hash != cur->hash || prev->len != cur->len)
		return 0;
	return trk_dup_rule(prev->flags, prev->group, cur->flags, cur->group);
}

/* ---- appending across captures ---- */

/* *v += d, or -1 past UINT64_MAX. */
static int add_u64(uint64_t *v, uint64_t d)
{
	if (*v > UINT64_MAX - d)
		return -1;
	*v += d;
	return 0;
}

/* A frame number of the later capture moved up by off (0 stays 0: none). */
static int shift_frame(uint64_t *frame, uint64_t off)
{
	return *frame ? add_u64(frame, off) : 0;
}

/* x's and y's sightings of one endpoint or flow into *o (x's copy). */
static void sightings(struct vxgbp_track_entry *o, const struct vxgbp_track_entry *y,
		      int flow)
{
	if (!flow && y->learned != VXGBP_GROUP_UNKNOWN)
		o->learned = y->learned;
	if (y->last_frame) {
		o->last_frame = y->last_frame;
		o->last_group = y->last_group;
		o->last_flags = y->last_flags;
	}
	if (!o->first_frame) {
		o->first_frame = y->first_frame;
		o->first_group = y->first_group;
		o->first_off = y->first_off;
		o->first_sport = y->first_sport;
		o->first_dport = y->first_dport;
	}
}

int vxgbp_track_entry_append(struct vxgbp_track_entry *out, const struct vxgbp_track_entry *x,
			     const struct vxgbp_track_entry *y, enum vxgbp_track_kind kind,
			     uint64_t off)
{
	struct vxgbp_track_entry e, o;
	int flow = kind == VXGBP_ENT_FLOW;
	unsigned rule;

	if (!out || !y || kind < VXGBP_ENT_ENDPOINT || kind > VXGBP_ENT_VNI)
		return VXGBP_E_INVAL;
	if (kind == VXGBP_ENT_PAIR || kind == VXGBP_ENT_VNI) {
		o = x ? *x : *y;
		if (x && (add_u64(&o.frames, y->frames) < 0 || add_u64(&o.bytes, y->bytes) < 0))
			return VXGBP_E_INVAL;
		*out = o;
		return 0;
	}
	e = *y;
	if (shift_frame(&e.first_frame, off) < 0 || shift_frame(&e.last_frame, off) < 0)
		return VXGBP_E_INVAL;
	if (!x) {
		*out = e;
		return 0;
	}
	o = *x;
	sightings(&o, &e, flow);
	rule = e.first_frame ? trk_group_rule(x->last_frame, x->last_group, e.first_group,
					      flow ? VXGBP_R_FLOW_GROUP_CHANGE
						   : VXGBP_R_GROUP_CONFLICT)
			     : 0;
	*out = o;
	return (int)rule;
}
