// SPDX-License-Identifier: BSD-2-Clause
/*
 * track.c - the cross-frame tracker's entry points (vxgbp.h, "Cross-frame
 * analysis"): start, feed, sum up, give back.  The rules are in
 * track_rules.c, the counters and the matrix in track_matrix.c, the
 * tables and the memory budget in track_table.c.
 */
#include <stddef.h>
#include <string.h>

#include "size.h"
#include "track.h"

#define ROUND64(x) (((x) + 63) & ~(size_t)63)

/* The fixed part: the state, then (MATRIX) the per-group counters and the
 * list of groups seen, then (RULES) the recent-frame cache.  Returns its
 * size; with st, points the arrays into it. */
static size_t layout(struct trk_state *st, unsigned what)
{
	size_t off = ROUND64(sizeof(struct trk_state));
	unsigned char *base = (unsigned char *)st;

	if (what & VXGBP_TRACK_MATRIX) {
		if (st) {
			st->gc = (struct trk_gcount *)(void *)(base + off);
			st->seen = (uint32_t *)(void *)(st->gc + TRK_NGROUPS);
		}
		off += ROUND64(TRK_NGROUPS * (sizeof(struct trk_gcount) + sizeof(uint32_t)));
	}
	if (what & VXGBP_TRACK_RULES) {
		if (st)
			st->dup = (struct trk_dup *)(void *)(base + off);
		off += ROUND64(TRK_DUP_SLOTS * sizeof(struct trk_dup));
	}
	return off;
}

size_t vxgbp_track_size(void)
{
	return sizeof(struct vxgbp_track);
}

int vxgbp_track_init(struct vxgbp_track *t, const struct vxgbp_track_opts *o)
{
	const unsigned modes = VXGBP_TRACK_RULES | VXGBP_TRACK_MATRIX | VXGBP_TRACK_FLOWS |
			       VXGBP_TRACK_FIRSTS;
	struct trk_mem m;
	struct trk_state *st;
	size_t size;
	int r;

	if (!t)
		return VXGBP_E_INVAL;
	t->st = NULL;
	if (o && (r = vxgbpi_size_in(o, o->size, sizeof(*o), VXGBPI_TRACK_OPTS_SIZE_MIN)))
		return r;
	if (!o || !o->zalloc || !o->free || !o->what || (o->what & ~modes) ||
	    ((o->what & VXGBP_TRACK_FIRSTS) && !(o->what & VXGBP_TRACK_RULES)) ||
	    !vxgbp_fabric_name(o->fabric))
		return VXGBP_E_INVAL;
	m.zalloc = o->zalloc;
	m.free = o->free;
	m.ctx = o->ctx;
	m.budget = o->budget ? o->budget : VXGBP_TRACK_BUDGET_DEFAULT;
	m.held = 0;
	size = layout(NULL, o->what);
	if (!(st = vxgbpi_mem_get(&m, size)))
		return VXGBP_E_NOSPACE;
	st->mem = m;
	st->size = size;
	st->what = o->what;
	st->fabric = o->fabric;
	st->pipeline = o->what == VXGBP_TRACK_MATRIX;
	layout(st, o->what);
	vxgbpi_tab_init(&st->eps, TRK_KEY4);
	st->eps.rehash = st->pipeline; /* its word TRK_KEY4: the first frame */
	vxgbpi_tab_init(&st->flows, TRK_KEY6);
	vxgbpi_tab_init(&st->pairs, TRK_KEY4);
	vxgbpi_tab_init(&st->vnis, TRK_KEY4);
	vxgbpi_tab_init(&st->bflows, TRK_KEY6);
	vxgbpi_mirrors_init(st);
	if ((o->what & VXGBP_TRACK_FIRSTS) && vxgbpi_firsts_init(st) < 0) {
		m = st->mem; /* st itself goes back */
		vxgbpi_mem_put(&m, st, size);
		return VXGBP_E_NOSPACE;
	}
	t->st = st;
	return 0;
}

void vxgbp_track_fini(struct vxgbp_track *t)
{
	struct trk_state *st;
	struct trk_mem m;

	if (!t || !(st = t->st))
		return;
	vxgbpi_tab_free(&st->mem, &st->eps);
	vxgbpi_tab_free(&st->mem, &st->flows);
	vxgbpi_tab_free(&st->mem, &st->pairs);
	vxgbpi_tab_free(&st->mem, &st->vnis);
	vxgbpi_flows_free(st);
	vxgbpi_firsts_free(st);
	vxgbpi_mirrors_free(st);
	m = st->mem; /* st itself goes back last */
	vxgbpi_mem_put(&m, st, st->size);
	t->st = NULL;
}

/* Every frame's counters: 1 when it has a VXLAN header (the tables' part
 * follows), else it is counted as other. */
static inline int count_frame(struct trk_state *st, const struct vxgbp_pkt *p)
{
	st->frames++;
	st->bytes += p->wirelen;
	if (p->have & VXGBP_HAVE_VXLAN)
		return 1;
	st->other++;
	st->unparsed += p->err != 0;
	return 0;
}

/* vxgbp_track_frame() with RULES, FLOWS or MATRIX among others, arguments
 * checked.  Not inlined: its saved registers would be pushed for the
 * matrix alone too. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int frame_all(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
		     struct vxgbp_track_result *r)
{
	unsigned full = 0;

	if (!count_frame(st, p))
		return 0;
	st->vxlan++;
	st->gbp += vxgbp_hdr_has_gbp(&p->vx);
	if (st->what & VXGBP_TRACK_MATRIX)
		full |= vxgbpi_matrix_frame(st, p, frame);
	if ((st->what & VXGBP_TRACK_RULES) &&
	    (p->have & (VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3)))
		full |= vxgbpi_rules_frame(st, p, frame, r);
	if ((st->what & VXGBP_TRACK_FLOWS) && (p->have & VXGBP_HAVE_INNER_L3))
		full |= vxgbpi_flows_frame(st, p, frame);
	if (r)
		r->full = full;
	return full ? VXGBP_E_NOSPACE : 0;
}

/* p as the tracker sees it when its fabric header (vxgbp_pkt_fabric()) is
 * a nested one: that header and the frame it carries in place of the first
 * header's.  The tracker reads only the struct's head (no encap[], no
 * nested[]), so only the head is copied. */
static const struct vxgbp_pkt *fabric_view(const struct vxgbp_pkt *p, unsigned mode,
					   struct vxgbp_pkt *v)
{
	const unsigned inner = VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3 | VXGBP_HAVE_INNER_L4;
	const struct vxgbp_nested *n;
	int k = vxgbp_pkt_fabric(p, mode);

	if (k <= 0)
		return p;
	n = &p->nested[k - 1];
	memcpy(v, p, offsetof(struct vxgbp_pkt, encap));
	v->vx = n->vx;
	v->inner = n->inner;
	v->vxlan_off = n->off;
	v->vx_kind = n->kind;
	v->have = (p->have & ~inner) | (n->have & inner);
	return v;
}

/* A frame with tunnel layers or nested headers: its mirror counted
 * (MATRIX), then the frame as its fabric header shows it.  Not on the common frame's
 * path (no view on its stack). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int frame_mirrored(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
			  struct vxgbp_track_result *r)
{
	struct vxgbp_pkt view;
	unsigned mfull = st->what & VXGBP_TRACK_MATRIX ? vxgbpi_mirror_frame(st, p, frame) : 0;
	int rc;

	if (p->n_nested && st->fabric != VXGBP_FABRIC_FIRST)
		p = fabric_view(p, st->fabric, &view);
	if (!st->pipeline)
		rc = frame_all(st, p, frame, r);
	else if (!count_frame(st, p))
		rc = 0;
	else
		rc = vxgbpi_matrix_vxlan(st, p, frame, r);
	if (mfull && r)
		r->full |= mfull;
	return mfull ? VXGBP_E_NOSPACE : rc;
}

int vxgbp_track_frame(struct vxgbp_track *t, const struct vxgbp_pkt *p, uint64_t frame,
		      struct vxgbp_track_result *r)
{
	struct trk_state *st;

	if (r) {
		r->findings = 0;
		r->n_hits = 0;
		r->full = 0;
		r->unjudged = 0;
	}
	if (!t || !(st = t->st) || !p || !frame)
		return VXGBP_E_INVAL;
	if (p->n_nested || p->n_encap)
		return frame_mirrored(st, p, frame, r);
	if (!st->pipeline)
		return frame_all(st, p, frame, r);
	/* MATRIX alone: counted here, the tables' part one straight function
	 * (no dispatch and no calls between) */
	if (!count_frame(st, p))
		return 0;
	return vxgbpi_matrix_vxlan(st, p, frame, r);
}

static unsigned full_of(const struct trk_state *st)
{
	return (st->eps.dropped ? VXGBP_TRACK_FULL_ENDPOINTS : 0) |
	       (st->flows.dropped ? VXGBP_TRACK_FULL_FLOWS : 0) |
	       (st->pairs.dropped ? VXGBP_TRACK_FULL_PAIRS : 0) |
	       (st->vnis.dropped ? VXGBP_TRACK_FULL_VNIS : 0) |
	       (st->bflows.dropped ? VXGBP_TRACK_FULL_BIFLOWS : 0) |
	       (st->mirrors.dropped ? VXGBP_TRACK_FULL_MIRRORS : 0);
}

int vxgbp_track_summary(const struct vxgbp_track *t, struct vxgbp_track_summary *s)
{
	struct trk_state *st;
	uint32_t size;
	int r;

	if (!s)
		return VXGBP_E_INVAL;
	if ((r = vxgbpi_size_out(&s->size, sizeof(*s), VXGBPI_TRACK_SUMMARY_SIZE_MIN)))
		return r;
	size = s->size;
	memset(s, 0, sizeof(*s));
	s->size = size;
	if (!t || !(st = t->st))
		return 0;
	vxgbpi_matrix_flush(st);
	s->frames = st->frames;
	s->bytes = st->bytes;
	s->vxlan = st->vxlan;
	s->gbp = st->gbp;
	s->other = st->other;
	s->unparsed = st->unparsed;
	s->endpoints = st->eps.n;
	s->flows = st->flows.n;
	s->vnis = st->vnis.n;
	s->groups = st->nseen;
	s->pairs = st->pairs.n;
	s->dropped_endpoints = st->eps.dropped;
	s->dropped_flows = st->flows.dropped;
	s->dropped_vnis = st->vnis.dropped;
	s->dropped_pairs = st->pairs.dropped;
	s->dropped_pair_bytes = st->dropped_pair_bytes;
	s->full = full_of(st);
	s->mem = st->mem.held;
	s->mirror_frames = st->mirror_frames;
	s->mirror_bytes = st->mirror_bytes;
	s->mirrors = st->mirrors.n;
	s->dropped_mirrors = st->mirrors.dropped;
	s->dropped_mirror_bytes = st->dropped_mirror_bytes;
	return 0;
}

const char *vxgbp_track_key_name(enum vxgbp_track_key key)
{
	switch (key) {
	case VXGBP_KEY_FRAME:
		return "inner frame";
	case VXGBP_KEY_MAC:
		return "source MAC";
	case VXGBP_KEY_IP:
		return "source IP";
	case VXGBP_KEY_FLOW:
		return "flow";
	}
	return NULL;
}
