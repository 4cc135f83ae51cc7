// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_mirror.c - frames and bytes per mirror (vxgbp_track_mirrors): the
 * session a frame arrived through (vxgbp_pkt_mirror()), an AWS or Azure
 * mirror's VXLAN VNI, a provider underlay's, a Geneve VNI, an ERSPAN
 * session.
 *
 * The table is held outside the budget, so that counting mirrors changes
 * no other count: a capture has a few sessions, and the table is bounded
 * on its own (TRK_MIRROR_MEM: 6,144 keys), unless the tracker's budget is
 * SIZE_MAX (vxgbp_track_absorb's sources must drop nothing).  A key is
 * {USED | kind << 32 | id, 0, 0, 0}; its slot keeps the frame that brought
 * it (TRK_FIRST), so trackers fed disjoint frames add up to one fed them
 * all, what a full table drops included: the keys are replayed in the
 * order they came.
 */
#include <stdint.h>

#include "track.h"

#define TRK_MIRROR_MEM ((size_t)1 << 20)

void vxgbpi_mirrors_init(struct trk_state *st)
{
	st->mmem = st->mem;
	st->mmem.budget = st->mem.budget == SIZE_MAX ? SIZE_MAX : TRK_MIRROR_MEM;
	st->mmem.held = 0;
	vxgbpi_tab_init(&st->mirrors, TRK_KEY4);
}

void vxgbpi_mirrors_free(struct trk_state *st)
{
	vxgbpi_tab_free(&st->mmem, &st->mirrors);
}

/* frames and bytes of key k (first seen at frame first) into d's table:
 * found, inserted, or dropped (every one of its frames). */
static void mirror_add(struct trk_state *d, uint64_t k0, uint64_t first, uint64_t frames,
		       uint64_t bytes)
{
	const uint64_t k[TRK_KEY4] = { k0, 0, 0, 0 };
	uint64_t h = trk_hash4(k0, 0, 0, 0);
	struct trk_slot *s, *end;

	if (!(s = trk_tab_probe(&d->mirrors, k, TRK_KEY4, h, &end)) &&
	    (s = trk_tab_put(&d->mmem, &d->mirrors, end, k, h)))
		s->k[TRK_FIRST] = first;
	if (!s) { /* the insertion counted one of its frames */
		d->mirrors.dropped += frames - 1;
		d->dropped_mirror_bytes += bytes;
		return;
	}
	if (first < s->k[TRK_FIRST])
		s->k[TRK_FIRST] = first;
	s->v.cnt.frames += frames;
	s->v.cnt.bytes += bytes;
}

unsigned vxgbpi_mirror_frame(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame)
{
	uint32_t id;
	int kind = vxgbp_pkt_mirror(p, st->fabric, &id);
	uint64_t dropped = st->mirrors.dropped;

	if (kind <= 0)
		return 0;
	st->mirror_frames++;
	st->mirror_bytes += p->wirelen;
	mirror_add(st, TRK_USED | (uint64_t)kind << 32 | id, frame, 1, p->wirelen);
	return st->mirrors.dropped != dropped ? VXGBP_TRACK_FULL_MIRRORS : 0;
}

/* One source slot, by the frame that brought its key. */
struct mkey {
	uint64_t first;
	const struct trk_slot *s;
};

static int mkey_cmp(const void *a, const void *b)
{
	const struct mkey *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

int vxgbpi_mirrors_absorb(struct trk_state *d, struct vxgbp_track *const *src, unsigned n)
{
	struct trk_mem m = d->mem;
	struct mkey *k = NULL;
	size_t all = 0, size, x = 0;

	for (unsigned j = 0; j < n; j++) {
		if (src[j]->st->mirrors.dropped)
			return VXGBP_E_NOSPACE;
		all += src[j]->st->mirrors.n;
	}
	/* the list is scratch: the caller's allocator, outside the budget */
	m.budget = SIZE_MAX;
	m.held = 0;
	size = all * sizeof(*k);
	if (all && (all > SIZE_MAX / sizeof(*k) || !(k = vxgbpi_mem_get(&m, size))))
		return VXGBP_E_NOSPACE;
	for (unsigned j = 0; j < n; j++) {
		const struct trk_tab *t = &src[j]->st->mirrors;

		d->mirror_frames += src[j]->st->mirror_frames;
		d->mirror_bytes += src[j]->st->mirror_bytes;
		for (size_t i = 0; i < t->cap; i++)
			if (t->s[i].k[0])
				k[x++] = (struct mkey){ t->s[i].k[TRK_FIRST], &t->s[i] };
	}
	/* a key's first sighting anywhere decides whether it finds room */
	vxgbpi_sort(k, x, sizeof(*k), mkey_cmp);
	for (size_t i = 0; i < x; i++)
		mirror_add(d, k[i].s->k[0], k[i].first, k[i].s->v.cnt.frames, k[i].s->v.cnt.bytes);
	vxgbpi_mem_put(&m, k, size);
	return 0;
}

static int mirror_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_mirror *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

int vxgbp_track_mirrors(const struct vxgbp_track *t, struct vxgbp_track_mirror *out, size_t n)
{
	const struct trk_state *st;
	size_t m = 0;

	if (!t || !(st = t->st))
		return VXGBP_E_INVAL;
	if (n < st->mirrors.n || st->mirrors.n > INT32_MAX)
		return VXGBP_E_NOSPACE;
	for (size_t i = 0; i < st->mirrors.cap; i++) {
		const struct trk_slot *s = &st->mirrors.s[i];

		if (!s->k[0])
			continue;
		out[m].kind = (uint32_t)((s->k[0] & ~TRK_USED) >> 32);
		out[m].id = (uint32_t)s->k[0];
		out[m].frames = s->v.cnt.frames;
		out[m].bytes = s->v.cnt.bytes;
		m++;
	}
	vxgbpi_sort(out, m, sizeof(*out), mirror_cmp);
	return (int)m;
}
