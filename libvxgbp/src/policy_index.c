// SPDX-License-Identifier: BSD-2-Clause
/*
 * policy_index.c - an index over a policy's rules in the caller's memory
 * (docs/policy.md, "Policies at scale"), so that judging a flow and
 * finding the rules that never decide cost no scan of every rule.
 *
 * The rules go into buckets by (src, dst, proto), the wildcards `*` and
 * `any` being keys of their own.  A flow, or a rule b, can only be matched
 * or covered by the rules of at most 8 buckets: each of the three either
 * its own value or the wildcard.  A rule's ports are its ranges sorted
 * and merged where they touch; a rule without ports is the range
 * 0-65536, one port past the last, because only a rule without ports
 * covers another without ports (vxgbpi_policy_ports_cover()).
 *
 * Judging: a bucket keeps, from port 0 up, the pieces of the port space
 * over which its first matching rule stays the same; a binary search.
 *
 * Shadowing: rule a covers a range [l, h] when one of a's merged ranges
 * has lo <= l and hi >= h.  One sweep over l per bucket, with a Fenwick
 * tree over hi holding the least rule index at or above each hi, gives
 * for every range of every rule the bucket may cover the bucket's first
 * rule that covers that range (and, at the range ends, the judging
 * pieces).  A rule of one range is covered first by exactly that rule.  A
 * rule of several ranges needs one rule covering all of them, which is no
 * earlier than the last of the ranges' firsts: that rule is tried, then
 * the bucket's later rules in order (the only part that is not near
 * linear; docs/policy.md).
 */
#include <stdint.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

#include "policy_index.h"

#define PIX_MAGIC 0x76787069u          /* "vxpi" */
#define PIX_ALL 65536u                 /* hi of a rule without ports */
#define PIX_FEN 65537u                 /* Fenwick positions: hi 0..PIX_ALL */
#define PIX_POINT VXGBPI_NO_RULE       /* a query that is a judging point */
#define PIX_MAX_SLOTS 0x7fffffffu      /* rules and ranges: 32-bit indices */

struct pix_bucket {
	uint32_t src, dst, proto;
	uint32_t seg; /* its first judging piece; the next bucket's ends it */
};

/* A rule's merged range, or a query: [lo, hi] of rule `who`. */
struct pix_iv {
	uint32_t lo, hi, who;
};

struct vxgbp_policy_index {
	uint32_t magic, n, nb, hmask;
	size_t bucket, hash, seglo, segrule, shadow; /* offsets from here */
};

/* Where each array lies in the caller's memory: what is kept, then the
 * working space of vxgbp_policy_index_init(). */
struct lay {
	size_t n, r, hcap, segs, q;
	size_t bucket, hash, seglo, segrule, shadow;
	size_t rb, bstart, order, ivstart, iv, feedstart, feed, qv, tmp, fen, acc;
	size_t total;
};

/* Room for count elements of size bytes at *at, 8-aligned: its offset in
 * *off.  -1 on overflow. */
static int take(size_t *at, size_t count, size_t size, size_t *off)
{
	size_t a = (*at + 7) & ~(size_t)7;

	if (a < *at || (size && count > (SIZE_MAX - a) / size))
		return -1;
	*off = a;
	*at = a + count * size;
	return 0;
}

static int lay_make(const struct vxgbp_policy *p, struct lay *l)
{
	size_t at = sizeof(struct vxgbp_policy_index), r = 0;
	int e = 0;

	for (size_t i = 0; i < p->n; i++) {
		unsigned k = p->v[i].n_ports;

		r += !k ? 1 : k > VXGBP_POLICY_MAX_PORTS ? VXGBP_POLICY_MAX_PORTS : k;
		if (r > PIX_MAX_SLOTS / 4)
			return -1;
	}
	if (p->n > PIX_MAX_SLOTS / 4)
		return -1;
	l->n = p->n;
	l->r = r;
	l->segs = p->n + 2 * r + 1;
	l->q = 3 * r + 1;
	for (l->hcap = 2; l->hcap < 2 * l->n; l->hcap *= 2)
		;
	e |= take(&at, l->n + 1, sizeof(struct pix_bucket), &l->bucket);
	e |= take(&at, l->hcap, sizeof(uint32_t), &l->hash);
	e |= take(&at, l->segs, sizeof(uint16_t), &l->seglo);
	e |= take(&at, l->segs, sizeof(uint32_t), &l->segrule);
	e |= take(&at, l->n, sizeof(uint32_t), &l->shadow);
	e |= take(&at, l->n, sizeof(uint32_t), &l->rb);
	e |= take(&at, l->n + 1, sizeof(uint32_t), &l->bstart);
	e |= take(&at, l->n, sizeof(uint32_t), &l->order);
	e |= take(&at, l->n + 1, sizeof(uint32_t), &l->ivstart);
	e |= take(&at, l->r, sizeof(struct pix_iv), &l->iv);
	e |= take(&at, l->n + 1, sizeof(uint32_t), &l->feedstart);
	e |= take(&at, 8 * l->n, sizeof(uint32_t), &l->feed);
	e |= take(&at, l->q, sizeof(struct pix_iv), &l->qv);
	e |= take(&at, l->q, sizeof(struct pix_iv), &l->tmp);
	e |= take(&at, PIX_FEN + 1, sizeof(uint32_t), &l->fen);
	e |= take(&at, l->n, sizeof(uint32_t), &l->acc);
	l->total = at;
	return e;
}

size_t vxgbp_policy_index_size(const struct vxgbp_policy *p)
{
	struct lay l;

	if (!p || (p->n && !p->v) || lay_make(p, &l) < 0)
		return 0;
	return l.total;
}

/* r's port ranges sorted and merged into lo/hi (16 each): their count, or
 * -1 for a rule the parser cannot make. */
static int rule_ranges(const struct vxgbp_policy_rule *r, uint32_t *lo, uint32_t *hi)
{
	unsigned n = 0, m = 0;

	if (!r->n_ports) {
		lo[0] = 0;
		hi[0] = PIX_ALL;
		return 1;
	}
	if (r->n_ports > VXGBP_POLICY_MAX_PORTS)
		return -1;
	for (unsigned k = 0; k < r->n_ports; k++, n++) {
		uint32_t a = r->port_lo[k], b = r->port_hi[k];
		unsigned j = n;

		if (a > b)
			return -1;
		for (; j > 0 && lo[j - 1] > a; j--) {
			lo[j] = lo[j - 1];
			hi[j] = hi[j - 1];
		}
		lo[j] = a;
		hi[j] = b;
	}
	for (unsigned k = 1; k < n; k++) {
		if (lo[k] <= hi[m] + 1) {
			if (hi[k] > hi[m])
				hi[m] = hi[k];
		} else {
			m++;
			lo[m] = lo[k];
			hi[m] = hi[k];
		}
	}
	return (int)m + 1;
}

/* ---- buckets ---- */

static uint32_t key_hash(uint32_t s, uint32_t d, uint32_t pr)
{
	uint64_t h = (uint64_t)s * 0x9e3779b97f4a7c15u;

	h ^= ((uint64_t)d << 17 | pr) * 0xc2b2ae3d27d4eb4fu;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9u;
	return (uint32_t)(h ^ h >> 32);
}

/* The hash slot that holds (s, d, pr), or the empty one where it goes. */
static uint32_t slot_of(const uint32_t *hash, uint32_t mask, const struct pix_bucket *bk,
			uint32_t s, uint32_t d, uint32_t pr)
{
	uint32_t at = key_hash(s, d, pr) & mask;

	for (;; at = (at + 1) & mask) {
		const struct pix_bucket *b;

		if (!hash[at])
			return at;
		b = &bk[hash[at] - 1];
		if (b->src == s && b->dst == d && b->proto == pr)
			return at;
	}
}

/* The keys (src, dst, proto) whose rules may match or cover (s, d, pr):
 * each its own value or the wildcard.  Their count (at most 8). */
static unsigned gens(uint32_t s, uint32_t d, uint32_t pr, uint32_t k[8][3])
{
	uint32_t so[2] = { s, VXGBP_POLICY_ANY_GROUP }, dop[2] = { d, VXGBP_POLICY_ANY_GROUP };
	uint32_t po[2] = { pr, VXGBP_POLICY_ANY_PROTO };
	unsigned ns = 1 + (s != so[1]), nd = 1 + (d != dop[1]), np = 1 + (pr != po[1]), n = 0;

	for (unsigned i = 0; i < ns; i++)
		for (unsigned j = 0; j < nd; j++)
			for (unsigned m = 0; m < np; m++, n++) {
				k[n][0] = so[i];
				k[n][1] = dop[j];
				k[n][2] = po[m];
			}
	return n;
}

/* ---- the build ---- */

struct build {
	const struct vxgbp_policy_rule *v;
	uint32_t n, nb, hmask, nseg;
	struct pix_bucket *bk;
	uint32_t *hash, *segrule, *shadow;
	uint16_t *seglo;
	uint32_t *rb, *bstart, *order, *ivstart, *feedstart, *feed, *fen, *acc;
	struct pix_iv *iv, *q, *tmp;
};

/* Stable sort by lo: insertion sort of runs of 16, then merges through
 * tmp. */
static void iv_sort(struct pix_iv *a, size_t n, struct pix_iv *tmp)
{
	struct pix_iv *src = a, *dst = tmp, *t;

	for (size_t i = 0; i < n; i += 16) {
		size_t e = n - i < 16 ? n : i + 16;

		for (size_t j = i + 1; j < e; j++) {
			struct pix_iv x = a[j];
			size_t k = j;

			for (; k > i && a[k - 1].lo > x.lo; k--)
				a[k] = a[k - 1];
			a[k] = x;
		}
	}
	for (size_t w = 16; w < n; w *= 2) {
		for (size_t i = 0; i < n; i += 2 * w) {
			size_t m = n - i < w ? n : i + w, e = n - i < 2 * w ? n : i + 2 * w;
			size_t x = i, y = m, k = i;

			while (x < m && y < e)
				dst[k++] = src[y].lo < src[x].lo ? src[y++] : src[x++];
			while (x < m)
				dst[k++] = src[x++];
			while (y < e)
				dst[k++] = src[y++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/* counts -> starts; c[nb] the total. */
static void prefix(uint32_t *c, uint32_t nb)
{
	uint32_t sum = 0;

	for (uint32_t i = 0; i <= nb; i++) {
		uint32_t k = i < nb ? c[i] : 0;

		c[i] = sum;
		sum += k;
	}
}

/* Every rule into its bucket: the buckets, their rules in file order
 * (order, bstart) and merged ranges sorted by lo (iv, ivstart). */
static int build_buckets(struct build *bd)
{
	uint32_t lo[VXGBP_POLICY_MAX_PORTS], hi[VXGBP_POLICY_MAX_PORTS];

	memset(bd->hash, 0, ((size_t)bd->hmask + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < bd->n; i++) {
		const struct vxgbp_policy_rule *r = &bd->v[i];
		uint32_t s = slot_of(bd->hash, bd->hmask, bd->bk, r->src, r->dst, r->proto);
		int k = rule_ranges(r, lo, hi);

		if (k < 0)
			return VXGBP_E_INVAL;
		if (!bd->hash[s]) {
			bd->bk[bd->nb] = (struct pix_bucket){ r->src, r->dst, r->proto, 0 };
			bd->bstart[bd->nb] = bd->ivstart[bd->nb] = 0;
			bd->hash[s] = ++bd->nb;
		}
		bd->rb[i] = bd->hash[s] - 1;
		bd->bstart[bd->rb[i]]++;
		bd->ivstart[bd->rb[i]] += (uint32_t)k;
	}
	prefix(bd->bstart, bd->nb);
	prefix(bd->ivstart, bd->nb);
	/* acc and feedstart are free until later: the fill cursors */
	memcpy(bd->acc, bd->bstart, bd->nb * sizeof(uint32_t));
	memcpy(bd->feedstart, bd->ivstart, bd->nb * sizeof(uint32_t));
	for (uint32_t i = 0; i < bd->n; i++) {
		uint32_t b = bd->rb[i];
		int k = rule_ranges(&bd->v[i], lo, hi);

		bd->order[bd->acc[b]++] = i;
		for (int j = 0; j < k; j++)
			bd->iv[bd->feedstart[b]++] = (struct pix_iv){ lo[j], hi[j], i };
	}
	for (uint32_t b = 0; b < bd->nb; b++)
		iv_sort(bd->iv + bd->ivstart[b], bd->ivstart[b + 1] - bd->ivstart[b], bd->tmp);
	return 0;
}

/* For each bucket A, the buckets whose rules A's rules may cover (A's key
 * is one of their gens()): feed[feedstart[A] ...].  The lookups of the
 * first pass are kept in q's room for the second. */
static void build_feeds(struct build *bd)
{
	uint32_t k[8][3], *seen = (uint32_t *)bd->q;

	memset(bd->feedstart, 0, ((size_t)bd->nb + 1) * sizeof(uint32_t));
	for (uint32_t b = 0; b < bd->nb; b++) {
		unsigned n = gens(bd->bk[b].src, bd->bk[b].dst, bd->bk[b].proto, k);

		for (unsigned j = 0; j < 8; j++) {
			uint32_t a = j < n ? bd->hash[slot_of(bd->hash, bd->hmask, bd->bk, k[j][0],
							      k[j][1], k[j][2])] : 0;

			seen[8 * (size_t)b + j] = a;
			if (a)
				bd->feedstart[a - 1]++;
		}
	}
	prefix(bd->feedstart, bd->nb);
	memcpy(bd->acc, bd->feedstart, bd->nb * sizeof(uint32_t));
	for (uint32_t b = 0; b < bd->nb; b++)
		for (unsigned j = 0; j < 8; j++)
			if (seen[8 * (size_t)b + j])
				bd->feed[bd->acc[seen[8 * (size_t)b + j] - 1]++] = b;
}

/* ---- the sweep of one bucket ---- */

static void fen_put(uint32_t *f, uint32_t hi, uint32_t rule)
{
	for (uint32_t x = PIX_FEN - hi; x <= PIX_FEN; x += x & -x)
		if (rule < f[x])
			f[x] = rule;
}

static void fen_clear(uint32_t *f, uint32_t hi)
{
	for (uint32_t x = PIX_FEN - hi; x <= PIX_FEN; x += x & -x)
		f[x] = VXGBPI_NO_RULE;
}

/* The least rule of a range with hi >= h among those put. */
static uint32_t fen_min(const uint32_t *f, uint32_t h)
{
	uint32_t m = VXGBPI_NO_RULE;

	for (uint32_t x = PIX_FEN - h; x; x -= x & -x)
		if (f[x] < m)
			m = f[x];
	return m;
}

/* A's queries into q, sorted by lo: every range of every rule it may
 * cover, and the judging points (port 0, each range's lo and hi + 1).
 * Their count. */
static size_t sweep_queries(struct build *bd, uint32_t a)
{
	size_t n = 0;

	for (uint32_t f = bd->feedstart[a]; f < bd->feedstart[a + 1]; f++) {
		uint32_t b = bd->feed[f];

		for (uint32_t i = bd->ivstart[b]; i < bd->ivstart[b + 1]; i++)
			bd->q[n++] = bd->iv[i];
		for (uint32_t i = bd->bstart[b]; i < bd->bstart[b + 1]; i++)
			bd->acc[bd->order[i]] = 0;
	}
	bd->q[n++] = (struct pix_iv){ 0, 0, PIX_POINT };
	for (uint32_t i = bd->ivstart[a]; i < bd->ivstart[a + 1]; i++) {
		uint32_t lo = bd->iv[i].lo, end = bd->iv[i].hi + 1;

		bd->q[n++] = (struct pix_iv){ lo, lo, PIX_POINT };
		if (end < PIX_ALL)
			bd->q[n++] = (struct pix_iv){ end, end, PIX_POINT };
	}
	iv_sort(bd->q, n, bd->tmp);
	return n;
}

/* Rule b: is it covered by a rule of bucket a, earlier than the best
 * found so far?  acc[b] is the last of its ranges' first covers in a. */
static void resolve(struct build *bd, uint32_t a, uint32_t b)
{
	uint32_t c = bd->acc[b], *best = &bd->shadow[b];
	size_t lo = bd->bstart[a], hi = bd->bstart[a + 1];

	if (c >= b || c >= *best)
		return;
	if (vxgbpi_policy_ports_cover(&bd->v[c], &bd->v[b])) {
		*best = c;
		return;
	}
	while (lo < hi) { /* the first of a's rules after c */
		size_t mid = lo + (hi - lo) / 2;

		if (bd->order[mid] <= c)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < bd->bstart[a + 1]; lo++) {
		uint32_t r = bd->order[lo];

		if (r >= b || r >= *best)
			return;
		if (vxgbpi_policy_ports_cover(&bd->v[r], &bd->v[b])) {
			*best = r;
			return;
		}
	}
}

/* A bucket of one rule that covers no other: its pieces straight from
 * its ranges (merged ones never touch). */
static void sweep_one(struct build *bd, uint32_t a)
{
	uint32_t next = 0;

	bd->bk[a].seg = bd->nseg;
	for (uint32_t k = bd->ivstart[a]; k < bd->ivstart[a + 1]; k++) {
		const struct pix_iv *iv = &bd->iv[k];

		if (iv->lo > next) {
			bd->seglo[bd->nseg] = (uint16_t)next;
			bd->segrule[bd->nseg++] = VXGBPI_NO_RULE;
		}
		bd->seglo[bd->nseg] = (uint16_t)iv->lo;
		bd->segrule[bd->nseg++] = iv->who;
		next = iv->hi + 1;
	}
	if (next < PIX_ALL) {
		bd->seglo[bd->nseg] = (uint16_t)next;
		bd->segrule[bd->nseg++] = VXGBPI_NO_RULE;
	}
}

static void sweep(struct build *bd, uint32_t a)
{
	size_t n = sweep_queries(bd, a), k = bd->ivstart[a], end = bd->ivstart[a + 1];

	bd->bk[a].seg = bd->nseg;
	for (size_t i = 0; i < n; i++) {
		const struct pix_iv *q = &bd->q[i];
		uint32_t first;

		for (; k < end && bd->iv[k].lo <= q->lo; k++)
			fen_put(bd->fen, bd->iv[k].hi, bd->iv[k].who);
		first = fen_min(bd->fen, q->hi);
		if (q->who != PIX_POINT) {
			if (first > bd->acc[q->who])
				bd->acc[q->who] = first; /* none (NO_RULE) stays */
		} else if (bd->nseg == bd->bk[a].seg || bd->segrule[bd->nseg - 1] != first) {
			bd->seglo[bd->nseg] = (uint16_t)q->lo;
			bd->segrule[bd->nseg++] = first;
		}
	}
	for (k = bd->ivstart[a]; k < end; k++)
		fen_clear(bd->fen, bd->iv[k].hi);
	for (uint32_t f = bd->feedstart[a]; f < bd->feedstart[a + 1]; f++) {
		uint32_t b = bd->feed[f];

		for (uint32_t i = bd->bstart[b]; i < bd->bstart[b + 1]; i++)
			resolve(bd, a, bd->order[i]);
	}
}

static void build_map(struct build *bd, char *m, const struct lay *l,
		      const struct vxgbp_policy *p)
{
	memset(bd, 0, sizeof(*bd));
	bd->v = p->v;
	bd->n = (uint32_t)p->n;
	bd->hmask = (uint32_t)(l->hcap - 1);
	bd->bk = (struct pix_bucket *)(m + l->bucket);
	bd->hash = (uint32_t *)(m + l->hash);
	bd->seglo = (uint16_t *)(m + l->seglo);
	bd->segrule = (uint32_t *)(m + l->segrule);
	bd->shadow = (uint32_t *)(m + l->shadow);
	bd->rb = (uint32_t *)(m + l->rb);
	bd->bstart = (uint32_t *)(m + l->bstart);
	bd->order = (uint32_t *)(m + l->order);
	bd->ivstart = (uint32_t *)(m + l->ivstart);
	bd->iv = (struct pix_iv *)(m + l->iv);
	bd->feedstart = (uint32_t *)(m + l->feedstart);
	bd->feed = (uint32_t *)(m + l->feed);
	bd->q = (struct pix_iv *)(m + l->qv);
	bd->tmp = (struct pix_iv *)(m + l->tmp);
	bd->fen = (uint32_t *)(m + l->fen);
	bd->acc = (uint32_t *)(m + l->acc);
}

int vxgbp_policy_index_init(struct vxgbp_policy *p, void *mem, size_t len)
{
	struct vxgbp_policy_index *ix = mem;
	struct build bd;
	int r, fen_ready = 0;
	struct lay l;

	if (!p)
		return VXGBP_E_INVAL;
	p->index = NULL;
	if (!mem || ((uintptr_t)mem & 7) || (p->n && !p->v) || lay_make(p, &l) < 0)
		return VXGBP_E_INVAL;
	if (len < l.total)
		return VXGBP_E_NOSPACE;
	build_map(&bd, mem, &l, p);
	if ((r = build_buckets(&bd)) < 0)
		return r;
	build_feeds(&bd);
	memset(bd.shadow, 0xff, l.n * sizeof(uint32_t));
	for (uint32_t a = 0; a < bd.nb; a++) {
		if (bd.bstart[a + 1] - bd.bstart[a] == 1 && bd.feedstart[a + 1] - bd.feedstart[a] == 1) {
			sweep_one(&bd, a);
			continue;
		}
		if (!fen_ready) /* (256 KiB: only when a bucket needs it) */
			memset(bd.fen, 0xff, (PIX_FEN + 1) * sizeof(uint32_t));
		fen_ready = 1;
		sweep(&bd, a);
	}
	bd.bk[bd.nb].seg = bd.nseg;
	*ix = (struct vxgbp_policy_index){ PIX_MAGIC, bd.n, bd.nb, bd.hmask, l.bucket, l.hash,
					   l.seglo, l.segrule, l.shadow };
	p->index = ix;
	return 0;
}

/* ---- the answers ---- */

const struct vxgbp_policy_index *vxgbpi_policy_index(const struct vxgbp_policy *p)
{
	const struct vxgbp_policy_index *ix = p->index;

	return ix && ix->magic == PIX_MAGIC && ix->n == p->n ? ix : NULL;
}

#define PIX_AT(ix, type, off) ((const type *)((const char *)(ix) + (ix)->off))

/* The first rule of bucket a that matches port. */
static uint32_t bucket_judge(const struct vxgbp_policy_index *ix, uint32_t a, uint16_t port)
{
	const struct pix_bucket *bk = PIX_AT(ix, struct pix_bucket, bucket);
	const uint16_t *seglo = PIX_AT(ix, uint16_t, seglo);
	uint32_t lo = bk[a].seg + 1, hi = bk[a + 1].seg;

	/* the last piece starting at or below port (the first starts at 0) */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (seglo[mid] <= port)
			lo = mid + 1;
		else
			hi = mid;
	}
	return PIX_AT(ix, uint32_t, segrule)[lo - 1];
}

uint32_t vxgbpi_policy_index_judge(const struct vxgbp_policy_index *ix, uint32_t src,
				   uint32_t dst, uint8_t proto, uint16_t dport)
{
	const struct pix_bucket *bk = PIX_AT(ix, struct pix_bucket, bucket);
	const uint32_t *hash = PIX_AT(ix, uint32_t, hash);
	uint32_t k[8][3], best = VXGBPI_NO_RULE;
	unsigned n = gens(src, dst, proto, k);

	for (unsigned j = 0; j < n; j++) {
		uint32_t a = hash[slot_of(hash, ix->hmask, bk, k[j][0], k[j][1], k[j][2])], r;

		if (a && (r = bucket_judge(ix, a - 1, dport)) < best)
			best = r;
	}
	return best;
}

uint32_t vxgbpi_policy_index_shadowed(const struct vxgbp_policy_index *ix, size_t i)
{
	return PIX_AT(ix, uint32_t, shadow)[i];
}
