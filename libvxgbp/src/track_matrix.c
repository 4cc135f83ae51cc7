// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_matrix.c - frames and bytes per VNI and per group, and the
 * group-to-group matrix.
 *
 * A destination's group is learned from the frames that endpoint itself
 * sent: every VXLAN-GBP frame teaches "inner source (VNI, address) is in
 * group G" (the address: the inner IP source, else the ARP sender, else
 * the source MAC).  Traffic is counted per (source group, VNI, inner
 * destination) while reading and resolved to (source group, destination
 * group) when the matrix is read, so a destination that speaks only later
 * in the capture still gets its group.
 *
 * With VXGBP_TRACK_MATRIX alone, a frame's updates (its group's counters,
 * then the VNI, pair and source endpoint tables) are a software pipeline one
 * frame deep: the previous frame's updates are applied, then the frame's
 * keys are hashed and their counters and slots prefetched.  With many
 * flows the slots miss every cache, and this hides that wait behind the
 * caller's parse of the next frame.  The order of updates is kept, so the
 * tables end the same; every reading function applies the waiting frame
 * first.
 */
#include <string.h>

#include "track.h"
#include "track_sort.h"

#if defined(__GNUC__)
#define MAT_INLINE static inline __attribute__((always_inline))
#else
#define MAT_INLINE static inline
#endif

/* The first slot key hash h probes in t (a table without slots yet gives
 * vxgbpi_slot_none, free), asked for when pf: with many flows it misses
 * every cache. */
MAT_INLINE struct trk_slot *first_slot(const struct trk_tab *t, uint64_t h, int pf)
{
	struct trk_slot *s = &t->s[h & t->mask];

	if (pf)
		TRK_PREFETCH_W(s);
	return s;
}

/* The frame's keys into q, hashed (the same values as trk_hash()), and
 * each table's first slot to probe: the VNI's; with an inner frame the
 * pair's (the inner destination, the source group g in word 0) and, for
 * a GBP frame, the source endpoint's (aux 0).  An endpoint is its IP
 * address when there is one, else its ARP address, else its MAC; both
 * sides are read with one look at which.  pf: prefetch the slots and the
 * group's counters (the pipeline).  A GPE frame carrying IP has no MAC:
 * its endpoints are its IP addresses.  The tables must not change until q
 * is applied: the slots are where the probes start. */
MAT_INLINE void frame_keys(struct trk_state *st, struct trk_pend *q, const struct vxgbp_pkt *p,
			   uint64_t frame, int pf)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;
	uint32_t g = vxgbp_hdr_has_gbp(&p->vx) ? p->vx.group : VXGBP_GROUP_NONE;
	uint64_t vni = TRK_USED | p->vx.vni, fam, d[2], a[2];
	const uint8_t *sa, *da;
	size_t len;

	q->g = g;
	q->wirelen = p->wirelen;
	q->frame = frame;
	q->vni = vni;
	q->h_vni = trk_hash4(vni, 0, 0, 0);
	q->s_vni = first_slot(&st->vnis, q->h_vni, pf);
	if (pf)
		TRK_PREFETCH_W(&st->gc[g]);
	if (!(p->have & (VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3))) {
		q->n = 1;
		return;
	}
	if (l3->off >= 0 && l3->version && l3->src) {
		fam = l3->version;
		sa = l3->src;
		da = l3->dst;
		len = fam == 6 ? 16 : 4;
	} else if (l3->off >= 0 && l3->arp_spa) {
		fam = 4;
		sa = l3->arp_spa;
		da = l3->arp_tpa;
		len = 4;
	} else if (p->have & VXGBP_HAVE_INNER_L2) {
		fam = 0;
		sa = p->inner.l2.src;
		da = p->inner.l2.dst;
		len = 6;
	} else { /* GPE carrying IP, cut short before its addresses */
		q->n = 1;
		return;
	}
	trk_addr_words(d, da, len);
	q->fam = fam;
	q->d[0] = d[0];
	q->d[1] = d[1];
	q->h_pair = trk_hash4(vni | (uint64_t)g << 32, fam, d[0], d[1]);
	q->s_pair = first_slot(&st->pairs, q->h_pair, pf);
	if (g == VXGBP_GROUP_NONE) {
		q->n = 2;
		return;
	}
	trk_addr_words(a, sa, len);
	q->a[0] = a[0];
	q->a[1] = a[1];
	q->h_ep = trk_hash4(vni, fam, a[0], a[1]);
	q->s_ep = first_slot(&st->eps, q->h_ep, pf);
	q->n = 3;
}

/* The slot of a matrix key (k0-k3, hash h) in t, its probe starting at s
 * (first_slot(), the table unchanged since), inserted when new with words
 * TRK_KEY4 and TRK_FIRST w4 and w5; NULL when it is new and finds no room.
 * one: the keys of this table have words 1-3 zero (the VNIs'), so word 0
 * decides.  The same slots as trk_tab_get(): a new key goes into the free
 * slot that ended the probe unless the table grows.  A free slot is all
 * zero (zalloc'd, never emptied), so only the key's words that are not
 * zero are written. */
MAT_INLINE struct trk_slot *mat_get(struct trk_mem *m, struct trk_tab *t, struct trk_slot *s,
				    uint64_t k0, uint64_t k1, uint64_t k2, uint64_t k3, uint64_t h,
				    int one, uint64_t w4, uint64_t w5)
{
	for (; s->k[0]; s = s + 1 == t->end ? t->s : s + 1)
		if (s->k[0] == k0 &&
		    (one || ((s->k[1] ^ k1) | (s->k[2] ^ k2) | (s->k[3] ^ k3)) == 0))
			return s;
	/* a table without slots (s is vxgbpi_slot_none) fails this: it grows */
	if ((t->n + 1) * 4 <= t->cap * 3) {
		s->k[0] = k0;
		if (!one) {
			s->k[1] = k1;
			s->k[2] = k2;
			s->k[3] = k3;
		}
		s->k[TRK_KEY4] = w4;
		s->k[TRK_FIRST] = w5;
		t->n++;
		return s;
	}
	{
		const uint64_t k[TRK_KEY4] = { k0, k1, k2, k3 };

		if ((s = vxgbpi_tab_insert(m, t, k, h))) {
			s->k[TRK_KEY4] = w4;
			s->k[TRK_FIRST] = w5;
		}
		return s;
	}
}

/* A frame's table updates (q as frame_keys() left it): its group's
 * counters, then the VNI, pair and source endpoint tables.  pipe: the
 * tracker is of the matrix alone (its endpoint slots: track.h). */
MAT_INLINE unsigned apply(struct trk_state *st, struct trk_pend *q, int pipe)
{
	struct trk_slot *s;
	unsigned full = 0, n = q->n;
	uint32_t g = q->g, wl = q->wirelen;
	uint64_t vni = q->vni;

	if (!n)
		return 0;
	q->n = 0;
	if (!st->gc[g].frames++)
		st->seen[st->nseen++] = g;
	st->gc[g].bytes += wl;
	if ((s = mat_get(&st->mem, &st->vnis, q->s_vni, vni, 0, 0, 0, q->h_vni, 1, q->h_vni,
			 q->frame))) {
		s->v.cnt.frames++;
		s->v.cnt.bytes += wl;
	} else {
		full |= VXGBP_TRACK_FULL_VNIS;
	}
	if (n < 2)
		return full;
	if ((s = mat_get(&st->mem, &st->pairs, q->s_pair, vni | (uint64_t)g << 32, q->fam,
			 q->d[0], q->d[1], q->h_pair, 0, q->h_pair, q->frame))) {
		s->v.cnt.frames++;
		s->v.cnt.bytes += wl;
	} else {
		full |= VXGBP_TRACK_FULL_PAIRS;
		st->dropped_pair_bytes += wl;
	}
	if (n < 3)
		return full;
	if ((s = mat_get(&st->mem, &st->eps, q->s_ep, vni, q->fam, q->a[0], q->a[1], q->h_ep, 0,
			 pipe ? q->frame : q->h_ep, q->frame))) {
		s->v.ep.mgroup = TRK_LEARNED | g;
		s->k[TRK_MFRAME] = q->frame;
		if (pipe) /* the rules' own fields otherwise */
			s->v.ep.frame++;
	} else {
		full |= VXGBP_TRACK_FULL_ENDPOINTS;
	}
	return full;
}

unsigned vxgbpi_matrix_flush(struct trk_state *st)
{
	return apply(st, &st->pend, st->pipeline);
}

/* With other trackers: the frame's updates now. */
unsigned vxgbpi_matrix_frame(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame)
{
	frame_keys(st, &st->pend, p, frame, 0);
	return apply(st, &st->pend, 0);
}

/* A VXLAN frame of MATRIX alone (vxgbp_track_frame() checks and counts
 * first): the frame before's updates are applied first, then this frame's
 * keys hashed and their slots prefetched: they wait for the next call (or
 * a reading function), so the cache misses overlap the caller's parse of
 * the next frame.  Not inlined: the frames that are not VXLAN would save
 * its registers too.  GCC's straight-line vectoriser is off here: it builds
 * each pair and endpoint key in two vector registers, every frame, for
 * the stores of the insertion path, which most frames never take. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((noinline, optimize("no-tree-slp-vectorize")))
#elif defined(__GNUC__)
__attribute__((noinline))
#endif
int vxgbpi_matrix_vxlan(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
			struct vxgbp_track_result *r)
{
	unsigned full;

	st->vxlan++;
	st->gbp += vxgbp_hdr_has_gbp(&p->vx);
	full = apply(st, &st->pend, 1);
	frame_keys(st, &st->pend, p, frame, 1);
	if (r)
		r->full = full;
	return full ? VXGBP_E_NOSPACE : 0;
}

static int count_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_count *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static int cell_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_cell *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

/* Radix keys (track_sort.h): a VNI or group in three 9-bit digits; a
 * cell's (src, dst), each a group ID, VXGBP_GROUP_NONE or _UNKNOWN, in
 * four.  9-bit digits: a capture's VNIs and groups mostly share the top
 * digit, so two passes sort them. */
#define COUNT_DIGITS 3
#define CELL_DIGITS 4
#define CELL_DST_BITS 18

_Static_assert(TRK_RADIX_BITS * COUNT_DIGITS >= 24 && VXGBP_VNI_MAX < (1u << 24) &&
	       VXGBP_GROUP_NONE < (1u << 24),
	       "count_key: every VNI and group");
_Static_assert(VXGBP_GROUP_NONE < (1u << CELL_DST_BITS) &&
	       VXGBP_GROUP_UNKNOWN < (1u << CELL_DST_BITS) &&
	       TRK_RADIX_BITS * CELL_DIGITS >= 2 * CELL_DST_BITS && CELL_DIGITS <= TRK_RADIX_MAXD,
	       "cell_key: every (src, dst)");

static uint64_t count_key(const void *e)
{
	return ((const struct vxgbp_track_count *)e)->key;
}

/* (src, dst) as one number: the order of cell_cmp() */
static uint64_t cell_key(const void *e)
{
	const struct vxgbp_track_cell *c = e;

	return (uint64_t)c->src << CELL_DST_BITS | c->dst;
}

/* Sort read-out rows (counters or cells, size bytes each) by key: the
 * radix sort (nd digits of key()) when the budget has room for its copy,
 * else the heapsort by cmp, the same order (n < 2^31: the callers'
 * tables). */
#define SORT_ROW_MAX 32
_Static_assert(sizeof(struct vxgbp_track_count) <= SORT_ROW_MAX &&
	       sizeof(struct vxgbp_track_cell) <= SORT_ROW_MAX, "rows_sort: a row in one[]");

static inline void rows_sort(struct trk_state *st, void *out, size_t n, size_t size,
			     int (*cmp)(const void *, const void *), unsigned nd,
			     uint64_t (*key)(const void *))
{
	unsigned char *tmp, one[SORT_ROW_MAX];
	size_t bytes = n * size;

	if (n < 64 || !(tmp = vxgbpi_mem_get(&st->mem, bytes))) {
		trk_heapsort(out, n, size, one, cmp);
		return;
	}
	trk_radix(out, tmp, (uint32_t)n, size, nd, key);
	vxgbpi_mem_put(&st->mem, tmp, bytes);
}

static void count_sort(struct trk_state *st, struct vxgbp_track_count *out, size_t n)
{
	rows_sort(st, out, n, sizeof(*out), count_cmp, COUNT_DIGITS, count_key);
}

/* Matrix rows by (src, dst). */
static void cell_sort(struct trk_state *st, struct vxgbp_track_cell *out, size_t n)
{
	rows_sort(st, out, n, sizeof(*out), cell_cmp, CELL_DIGITS, cell_key);
}

/* The started tracker's state with the waiting frame applied, or NULL. */
static struct trk_state *flushed(const struct vxgbp_track *t)
{
	if (!t || !t->st)
		return NULL;
	vxgbpi_matrix_flush(t->st);
	return t->st;
}

int vxgbp_track_vnis(const struct vxgbp_track *t, struct vxgbp_track_count *out, size_t n)
{
	struct trk_state *st = flushed(t);
	size_t m = 0;

	if (!st)
		return VXGBP_E_INVAL;
	if (n < st->vnis.n || st->vnis.n > INT32_MAX)
		return VXGBP_E_NOSPACE;
	for (size_t i = 0; i < st->vnis.cap; i++) {
		const struct trk_slot *s = &st->vnis.s[i];

		if (!s->k[0])
			continue;
		out[m].key = (uint32_t)(s->k[0] & VXGBP_VNI_MAX);
		out[m].frames = s->v.cnt.frames;
		out[m].bytes = s->v.cnt.bytes;
		m++;
	}
	count_sort(st, out, m);
	return (int)m;
}

int vxgbp_track_groups(const struct vxgbp_track *t, struct vxgbp_track_count *out, size_t n)
{
	struct trk_state *st = flushed(t);

	if (!st)
		return VXGBP_E_INVAL;
	if (n < st->nseen)
		return VXGBP_E_NOSPACE;
	for (uint32_t i = 0; i < st->nseen; i++) {
		out[i].key = st->seen[i];
		out[i].frames = st->gc[st->seen[i]].frames;
		out[i].bytes = st->gc[st->seen[i]].bytes;
	}
	count_sort(st, out, st->nseen);
	return (int)st->nseen;
}

/* The endpoint table as pair_dst() reads it, copied into locals once (the
 * rows' stores might change the state's words as far as GCC knows, so it
 * read them again for every pair): the slots and the mask as a byte
 * offset (a probe steps by adding a slot and masking, no compare for the
 * wrap). */
struct ep_view {
	const unsigned char *base;
	size_t omask; /* eps.mask * slot size */
};

static inline struct ep_view ep_view(const struct trk_state *st)
{
	struct ep_view ev = { (const unsigned char *)st->eps.s,
			      st->eps.mask * sizeof(struct trk_slot) };

	return ev;
}

/* The destination group of a pair: what its endpoint last sent with.
 * The endpoint's key is the pair's with the group out of word 0; built,
 * hashed and compared in registers (not through trk_tab_find(): this runs
 * once a pair). */
static inline uint32_t pair_dst(struct ep_view ev, const struct trk_slot *ps)
{
	const struct trk_slot *es;
	uint64_t k0 = TRK_USED | (ps->k[0] & VXGBP_VNI_MAX), k1 = ps->k[1], k2 = ps->k[2],
		 k3 = ps->k[3];
	size_t o = (size_t)trk_hash4(k0, k1, k2, k3) * sizeof(*es) & ev.omask;

	/* no slots: vxgbpi_slot_none (omask 0), free, ends the probe */
	for (; (es = (const struct trk_slot *)(const void *)(ev.base + o))->k[0];
	     o = (o + sizeof(*es)) & ev.omask) {
		if (es->k[0] == k0 && ((es->k[1] ^ k1) | (es->k[2] ^ k2) | (es->k[3] ^ k3)) == 0)
			return es->v.ep.mgroup & TRK_LEARNED ? es->v.ep.mgroup & ~TRK_LEARNED
							     : VXGBP_GROUP_UNKNOWN;
	}
	return VXGBP_GROUP_UNKNOWN;
}

/* One pair's cell into the rows out[0, *w), merged with the row of the
 * same (src, dst) that idx (open addressing, mask + 1 entries: row + 1,
 * 0 free) finds, else appended. */
static void cell_add(struct vxgbp_track_cell *out, size_t *w, uint32_t *idx, size_t mask,
		     uint32_t src, uint32_t dst, const struct trk_slot *ps)
{
	uint64_t key = (uint64_t)src << 32 | dst;
	size_t i = (size_t)(((key * 0x9e3779b97f4a7c15ull) >> 32) & mask);

	for (; idx[i]; i = (i + 1) & mask) {
		struct vxgbp_track_cell *c = &out[idx[i] - 1];

		if (c->src == src && c->dst == dst) {
			c->frames += ps->v.cnt.frames;
			c->bytes += ps->v.cnt.bytes;
			return;
		}
	}
	out[*w].src = src;
	out[*w].dst = dst;
	out[*w].frames = ps->v.cnt.frames;
	out[*w].bytes = ps->v.cnt.bytes;
	idx[i] = (uint32_t)++*w;
}

/* The matrix merged while the pairs are read (a diverse capture has some
 * 20 pairs a cell: sorting the pairs cost more than the rest of the run's
 * tracker), then only its rows sorted.  Sums do not depend on the order
 * of the pairs, so it is the same matrix the sort-and-merge gives.  -1:
 * no room for the index. */
static int matrix_hashed(struct trk_state *st, struct vxgbp_track_cell *out)
{
	const struct ep_view ev = ep_view(st);
	const struct trk_slot *ps = st->pairs.s, *pe = ps + st->pairs.cap;
	size_t cap = TRK_TAB_MIN, size, w = 0;
	uint32_t *idx;

	while (cap < 2 * st->pairs.n)
		cap *= 2;
	size = cap * sizeof(*idx);
	if (!(idx = vxgbpi_mem_get(&st->mem, size)))
		return -1;
	for (; ps < pe; ps++)
		if (ps->k[0])
			cell_add(out, &w, idx, cap - 1,
				 (uint32_t)((ps->k[0] & ~TRK_USED) >> 32), pair_dst(ev, ps), ps);
	vxgbpi_mem_put(&st->mem, idx, size);
	cell_sort(st, out, w);
	return (int)w;
}

/* Without room for matrix_hashed's index: every pair, sorted, then the
 * equal cells merged. */
static int matrix_sorted(const struct trk_state *st, struct vxgbp_track_cell *out)
{
	const struct ep_view ev = ep_view(st);
	size_t m = 0, w = 0;

	for (size_t i = 0; i < st->pairs.cap; i++) {
		const struct trk_slot *ps = &st->pairs.s[i];

		if (!ps->k[0])
			continue;
		out[m].src = (uint32_t)((ps->k[0] & ~TRK_USED) >> 32);
		out[m].dst = pair_dst(ev, ps);
		out[m].frames = ps->v.cnt.frames;
		out[m].bytes = ps->v.cnt.bytes;
		m++;
	}
	TRK_SORT(out, m, cell_cmp);
	for (size_t i = 0; i < m; i++) {
		if (w && out[w - 1].src == out[i].src && out[w - 1].dst == out[i].dst) {
			out[w - 1].frames += out[i].frames;
			out[w - 1].bytes += out[i].bytes;
		} else {
			out[w++] = out[i];
		}
	}
	return (int)w;
}

int vxgbp_track_matrix(const struct vxgbp_track *t, struct vxgbp_track_cell *out, size_t n)
{
	struct trk_state *st = flushed(t);
	int w;

	if (!st)
		return VXGBP_E_INVAL;
	if (n < st->pairs.n || st->pairs.n > INT32_MAX)
		return VXGBP_E_NOSPACE;
	if (!st->pairs.n)
		return 0;
	if ((w = matrix_hashed(st, out)) >= 0)
		return w;
	return matrix_sorted(st, out);
}
