// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_flows.c - bidirectional inner flows (VXGBP_TRACK_FLOWS), what a
 * policy audit judges.
 *
 * A flow's key holds both sides in a fixed order (the endpoint whose
 * address, then port, sorts first is side 0), so the two directions of
 * one conversation find one slot; the slot's value is the index of its
 * record in `recs`, an array that doubles like the tables and within the
 * same budget.  The initiator is the side of the first frame, until a TCP
 * SYN without ACK names one (the first such SYN only).
 *
 * The responder's group is resolved when the flows are read: the group
 * its address last sent GBP with in the VNI, as the matrix learns it (the
 * same endpoint slots: with MATRIX on, the matrix writes them; without,
 * this file writes them for the IP frames it sees).
 */
#include <string.h>

#include "track.h"
#include "track_sort.h"

/* One frame's flow: the key, its hash, and the side its sender is. */
struct fkey {
	uint64_t k[TRK_KEY6];
	uint64_t h;
	unsigned side;
};

static void fkey_make(struct fkey *f, const struct vxgbp_pkt *p)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;
	size_t alen = l3->version == 6 ? 16 : 4;
	uint16_t sp = 0, dp = 0;
	int c;

	if ((p->have & VXGBP_HAVE_INNER_L4) && (l3->proto == 6 || l3->proto == 17)) {
		sp = p->inner.l4.sport;
		dp = p->inner.l4.dport;
	}
	c = memcmp(l3->src, l3->dst, alen);
	f->side = c > 0 || (c == 0 && sp > dp);
	f->k[0] = TRK_USED | p->vx.vni | (uint64_t)l3->version << 24 | (uint64_t)l3->proto << 32;
	f->k[1] = f->side ? (uint64_t)dp | (uint64_t)sp << 16 : (uint64_t)sp | (uint64_t)dp << 16;
	trk_addr_words(f->k + 2, f->side ? l3->dst : l3->src, alen);
	trk_addr_words(f->k + 4, f->side ? l3->src : l3->dst, alen);
	f->h = trk_hash(f->k, TRK_KEY6);
}

/* Room for one more record: 0, or -1 (budget, allocator). */
static int recs_room(struct trk_state *st)
{
	size_t ncap = st->caprecs ? st->caprecs * 2 : TRK_TAB_MIN;
	struct trk_flowrec *nv;

	if (st->nrecs < st->caprecs)
		return 0;
	if (ncap > SIZE_MAX / sizeof(*nv) || !(nv = vxgbpi_mem_get(&st->mem, ncap * sizeof(*nv))))
		return -1;
	if (st->nrecs)
		memcpy(nv, st->recs, st->nrecs * sizeof(*nv));
	vxgbpi_mem_put(&st->mem, st->recs, st->caprecs * sizeof(*nv));
	st->recs = nv;
	st->caprecs = ncap;
	return 0;
}

void vxgbpi_flows_free(struct trk_state *st)
{
	vxgbpi_tab_free(&st->mem, &st->bflows);
	vxgbpi_mem_put(&st->mem, st->recs, st->caprecs * sizeof(*st->recs));
	st->recs = NULL;
	st->nrecs = st->caprecs = 0;
}

/* The record of f, made when new; NULL when it found no room. */
static struct trk_flowrec *rec_get(struct trk_state *st, const struct fkey *f, uint64_t frame)
{
	struct trk_slot *s = trk_tab_find(&st->bflows, f->k, TRK_KEY6, f->h);
	struct trk_flowrec *r;

	if (s)
		return &st->recs[s->v.cnt.frames];
	if (recs_room(st) < 0) {
		st->bflows.dropped++;
		st->bflows.stuck = 1;
		return NULL;
	}
	if (!(s = vxgbpi_tab_insert(&st->mem, &st->bflows, f->k, f->h)))
		return NULL;
	s->v.cnt.frames = st->nrecs;
	r = &st->recs[st->nrecs++];
	memset(r, 0, sizeof(*r));
	r->first = frame;
	r->init = (uint8_t)f->side;
	return r;
}

/* Without the matrix, learn the sender's group as the matrix would. */
static unsigned learn(struct trk_state *st, const struct vxgbp_pkt *p)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;
	uint64_t k[TRK_KEY4];
	struct trk_slot *s;
	int is_new;

	k[0] = TRK_USED | p->vx.vni;
	k[1] = l3->version;
	trk_addr_words(k + 2, l3->src, l3->version == 6 ? 16 : 4);
	s = trk_tab_get(&st->mem, &st->eps, k, TRK_KEY4, trk_hash(k, TRK_KEY4), &is_new);
	if (!s)
		return VXGBP_TRACK_FULL_ENDPOINTS;
	s->v.ep.mgroup = TRK_LEARNED | p->vx.group;
	return 0;
}

unsigned vxgbpi_flows_frame(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;
	int gbp = vxgbp_hdr_has_gbp(&p->vx);
	const struct vxgbp_l4 *l4 = &p->inner.l4;
	unsigned full = 0;
	struct trk_flowrec *r;
	struct fkey f;

	if ((l3->version != 4 && l3->version != 6) || !l3->src || !l3->dst)
		return 0;
	if (gbp && !(st->what & VXGBP_TRACK_MATRIX))
		full |= learn(st, p);
	fkey_make(&f, p);
	if (!(r = rec_get(st, &f, frame)))
		return full | VXGBP_TRACK_FULL_BIFLOWS;
	r->frames[f.side]++;
	r->bytes[f.side] += p->wirelen;
	r->group[f.side] = gbp ? p->vx.group : VXGBP_GROUP_NONE;
	if (l3->proto == 6 && (p->have & VXGBP_HAVE_INNER_L4) && !r->syn &&
	    (l4->tcp_flags & 0x12) == 0x02) {
		r->init = (uint8_t)f.side;
		r->syn = 1;
	}
	if (gbp && (p->vx.flags & VXGBP_F_A)) {
		if (!r->a_frames++)
			r->first_a = frame;
	}
	return full;
}

/* ---- reading ---- */

static int flow_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_flow *x = a, *y = b;

	return x->first_frame < y->first_frame ? -1 : x->first_frame > y->first_frame;
}

/* The group the address in words w (VNI vni, IP version v) last sent
 * GBP with, or VXGBP_GROUP_UNKNOWN. */
static uint32_t learned(const struct trk_state *st, uint32_t vni, unsigned v, const uint64_t *w)
{
	uint64_t k[TRK_KEY4] = { TRK_USED | vni, v, w[0], w[1] };
	const struct trk_slot *es = trk_tab_find(&st->eps, k, TRK_KEY4, trk_hash(k, TRK_KEY4));

	if (!es || !(es->v.ep.mgroup & TRK_LEARNED))
		return VXGBP_GROUP_UNKNOWN;
	return es->v.ep.mgroup & ~TRK_LEARNED;
}

/* The address trk_addr_words() made words w of. */
static void addr_of(uint8_t *a, const uint64_t *w, size_t alen)
{
	uint32_t lo = (uint32_t)w[0];

	if (alen == 16) {
		memcpy(a, &w[0], 8);
		memcpy(a + 8, &w[1], 8);
	} else {
		memcpy(a, &lo, 4);
	}
}

/* One flow out of its slot and record. */
static void flow_out(const struct trk_state *st, const struct trk_slot *s,
		     struct vxgbp_track_flow *o)
{
	const struct trk_flowrec *r = &st->recs[s->v.cnt.frames];
	unsigned i = r->init, j = !r->init, v = (unsigned)(s->k[0] >> 24) & 0xff;
	size_t alen = v == 6 ? 16 : 4;

	memset(o, 0, sizeof(*o));
	o->first_frame = r->first;
	o->frames[0] = r->frames[i];
	o->frames[1] = r->frames[j];
	o->bytes[0] = r->bytes[i];
	o->bytes[1] = r->bytes[j];
	o->a_frames = r->a_frames;
	o->first_a_frame = r->first_a;
	o->vni = (uint32_t)(s->k[0] & VXGBP_VNI_MAX);
	o->ip_version = (uint8_t)v;
	o->proto = (uint8_t)(s->k[0] >> 32);
	o->syn = r->syn;
	o->sport = (uint16_t)(s->k[1] >> (16 * i));
	o->dport = (uint16_t)(s->k[1] >> (16 * j));
	addr_of(o->src, &s->k[2 + 2 * i], alen);
	addr_of(o->dst, &s->k[2 + 2 * j], alen);
	o->src_group = r->group[i];
	o->dst_group = learned(st, o->vni, v, &s->k[2 + 2 * j]);
}

/* The started tracker's state with the waiting frame applied, if it keeps
 * flows; else NULL. */
static struct trk_state *flows_of(const struct vxgbp_track *t)
{
	if (!t || !t->st || !(t->st->what & VXGBP_TRACK_FLOWS))
		return NULL;
	vxgbpi_matrix_flush(t->st);
	return t->st;
}

int vxgbp_track_flow_stats(const struct vxgbp_track *t, size_t *held, uint64_t *dropped)
{
	const struct trk_state *st = flows_of(t);

	if (!st)
		return VXGBP_E_INVAL;
	if (held)
		*held = st->bflows.n;
	if (dropped)
		*dropped = st->bflows.dropped;
	return 0;
}

int vxgbp_track_flows(const struct vxgbp_track *t, struct vxgbp_track_flow *out, size_t n)
{
	const struct trk_state *st = flows_of(t);
	size_t m = 0;

	if (!st)
		return VXGBP_E_INVAL;
	if (n < st->bflows.n || st->bflows.n > INT32_MAX)
		return VXGBP_E_NOSPACE;
	for (size_t i = 0; i < st->bflows.cap; i++)
		if (st->bflows.s[i].k[0])
			flow_out(st, &st->bflows.s[i], &out[m++]);
	TRK_SORT(out, m, flow_cmp);
	return (int)m;
}
