// SPDX-License-Identifier: BSD-2-Clause
/*
 * stats.c - gbpdump --stats: frames and bytes per VNI and per group, and
 * the group-to-group matrix.
 *
 * A destination's group is learned from the frames that endpoint itself
 * sent: every VXLAN-GBP frame teaches "inner source (VNI, address) is in
 * group G".  Traffic is counted per (source group, VNI, inner destination)
 * while reading and resolved to (source group, destination group) at the
 * end, so a destination that speaks only later in the capture still gets
 * its group.  Memory grows with groups and endpoints, never with frames.
 */
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define NO_GROUP 0x10000u /* plain VXLAN: G clear */
#define UNKNOWN 0x20000u  /* destination never sent a GBP frame */

/* A key is four 64-bit words, built, hashed and compared a word at a time
 * (whole-word stores: a key assembled byte by byte and then read as words
 * stalls store forwarding):
 *   w[0] = VNI | aux << 32   (aux: pairs, the source group; endpoints, 0)
 *   w[1] = family            (4, 6, or 0 for a MAC address)
 *   w[2..3] = the address, in its bytes' order, zero-padded */
struct ep_key {
	uint64_t w[4];
};

static uint32_t key_vni(const struct ep_key *k)
{
	return (uint32_t)k->w[0];
}

static uint32_t key_aux(const struct ep_key *k)
{
	return (uint32_t)(k->w[0] >> 32);
}

/* One slot is one 64-byte cache line (the tables are allocated aligned):
 * a lookup that misses the cache costs one line, not two. */
struct slot {
	struct ep_key k;
	uint64_t frames, bytes;
	uint32_t group;
	uint32_t used;
	uint64_t pad;
};

_Static_assert(sizeof(struct ep_key) == 32, "ep_key: four words, no padding");
_Static_assert(sizeof(struct slot) == 64, "slot: one cache line");

struct table {
	struct slot *s;
	size_t cap, n;
	struct slot *last; /* the slot the previous lookup found (NULL) */
};

struct gd_stats {
	uint64_t frames, bytes, vxlan, gbp, other;
	uint64_t g_frames[NO_GROUP + 1], g_bytes[NO_GROUP + 1];
	uint32_t seen[NO_GROUP + 1]; /* the groups with frames, as first seen */
	uint32_t nseen;
	struct table vnis;      /* key.vni only */
	struct table endpoints; /* inner source -> group */
	struct table pairs;     /* (source group, inner destination) */
	int oom;
	/* A frame's table updates wait one frame (see stats_add). */
	struct pending {
		int n;          /* keys waiting: 0, 1 (VNI), 2 (+ pair), 3 (+ endpoint) */
		uint32_t g;
		uint32_t wirelen;
		struct ep_key vni, pair, ep;
		uint64_t h_vni, h_pair, h_ep;
	} pend;
};

/* Four independent multiplies, then the murmur3 finaliser's mixing. */
static uint64_t hash_key(const struct ep_key *k)
{
	uint64_t h = (k->w[0] * 0x9e3779b97f4a7c15ull) ^ (k->w[1] * 0xc2b2ae3d27d4eb4full) ^
		     (k->w[2] * 0x165667b19e3779f9ull) ^ (k->w[3] * 0xd6e8feb86659fd93ull);

	h ^= h >> 32;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 29;
	return h;
}

static int key_eq(const struct ep_key *a, const struct ep_key *b)
{
	return ((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]) | (a->w[2] ^ b->w[2]) |
		(a->w[3] ^ b->w[3])) == 0;
}

static int grow(struct gd_stats *st, struct table *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 1024, i;
	struct slot *ns = aligned_alloc(64, ncap * sizeof(*ns));

	if (!ns) {
		st->oom = 1;
		return -1;
	}
	memset(ns, 0, ncap * sizeof(*ns));
	for (size_t j = 0; j < t->cap; j++) {
		if (!t->s[j].used)
			continue;
		for (i = hash_key(&t->s[j].k) & (ncap - 1); ns[i].used; i = (i + 1) & (ncap - 1))
			;
		ns[i] = t->s[j];
	}
	free(t->s);
	t->s = ns;
	t->cap = ncap;
	t->last = NULL;
	return 0;
}

/* The slot of k (hash h), inserted (zero counts) if new; NULL when memory
 * ran out.  Consecutive frames of one flow find it without probing. */
static struct slot *lookup(struct gd_stats *st, struct table *t, const struct ep_key *k,
			   uint64_t h)
{
	size_t i;

	if (t->last && key_eq(&t->last->k, k))
		return t->last;
	if ((t->n + 1) * 4 >= t->cap * 3 && grow(st, t) < 0) /* grow at 75% */
		return NULL;
	for (i = h & (t->cap - 1); t->s[i].used; i = (i + 1) & (t->cap - 1))
		if (key_eq(&t->s[i].k, k))
			return t->last = &t->s[i];
	t->s[i].used = 1;
	t->s[i].k = *k;
	t->n++;
	return t->last = &t->s[i];
}

#if defined(__GNUC__)
#define PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define PREFETCH_W(p) ((void)(p))
#endif

/* Ask for the slot a key hashes to; the frame's update comes one frame
 * later (stats_add). */
static void prefetch(const struct table *t, uint64_t h)
{
	if (t->cap)
		PREFETCH_W(&t->s[h & (t->cap - 1)]);
}

struct gd_stats *stats_new(void)
{
	return calloc(1, sizeof(struct gd_stats));
}

void stats_free(struct gd_stats *st)
{
	if (!st)
		return;
	free(st->vnis.s);
	free(st->endpoints.s);
	free(st->pairs.s);
	free(st);
}

/* The inner endpoint: IP address when there is one, else the MAC. */
static void inner_ep(struct ep_key *k, const struct vxgbp_pkt *p, int src, uint32_t aux)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;
	const uint8_t *a;
	uint64_t lo = 0, hi = 0;

	k->w[0] = p->vx.vni | (uint64_t)aux << 32;
	if (l3->off >= 0 && l3->version && l3->src) {
		a = src ? l3->src : l3->dst;
		k->w[1] = l3->version;
		if (l3->version == 6) {
			memcpy(&lo, a, 8);
			memcpy(&hi, a + 8, 8);
		} else {
			uint32_t v4;

			memcpy(&v4, a, 4);
			lo = v4;
		}
	} else if (l3->off >= 0 && l3->arp_spa) {
		uint32_t v4;

		memcpy(&v4, src ? l3->arp_spa : l3->arp_tpa, 4);
		k->w[1] = 4;
		lo = v4;
	} else {
		uint8_t mac[8] = { 0 };

		memcpy(mac, src ? p->inner.l2.src : p->inner.l2.dst, 6);
		memcpy(&lo, mac, 8);
		k->w[1] = 0;
	}
	k->w[2] = lo;
	k->w[3] = hi;
}

/* The waiting frame's table updates. */
static void apply(struct gd_stats *st)
{
	struct pending *q = &st->pend;
	struct slot *s;

	if (q->n >= 1 && (s = lookup(st, &st->vnis, &q->vni, q->h_vni))) {
		s->frames++;
		s->bytes += q->wirelen;
	}
	if (q->n >= 2 && (s = lookup(st, &st->pairs, &q->pair, q->h_pair))) {
		s->frames++;
		s->bytes += q->wirelen;
	}
	if (q->n >= 3 && (s = lookup(st, &st->endpoints, &q->ep, q->h_ep)))
		s->group = q->g;
	q->n = 0;
}

/*
 * Counters are added at once; the three table updates (VNI, pair and the
 * source endpoint's group) are a software pipeline one frame deep: this
 * frame's keys are hashed and their slots prefetched, then the previous
 * frame's updates are applied.  With 10,000 flows the endpoint slots miss
 * every cache, and this hides that wait behind a frame's parse (bench:
 * --stats 0.15 s -> see bench/RESULTS.md).  The order of updates is kept,
 * so the tables end the same.
 */
void stats_add(struct gd_stats *st, const struct gd_rec *rec, const struct vxgbp_pkt *p)
{
	struct pending next;
	uint32_t g;

	st->frames++;
	st->bytes += rec->wirelen;
	if (!(p->have & VXGBP_HAVE_VXLAN)) {
		st->other++;
		return;
	}
	st->vxlan++;
	g = vxgbp_hdr_has_gbp(&p->vx) ? p->vx.group : NO_GROUP;
	if (g != NO_GROUP)
		st->gbp++;
	if (!st->g_frames[g]++)
		st->seen[st->nseen++] = g;
	st->g_bytes[g] += rec->wirelen;

	next.n = 1;
	next.g = g;
	next.wirelen = rec->wirelen;
	next.vni.w[0] = p->vx.vni;
	next.vni.w[1] = next.vni.w[2] = next.vni.w[3] = 0;
	next.h_vni = hash_key(&next.vni);
	if (p->have & VXGBP_HAVE_INNER_L2) {
		next.n = 2;
		inner_ep(&next.pair, p, 0, g);
		next.h_pair = hash_key(&next.pair);
		prefetch(&st->pairs, next.h_pair);
		if (g != NO_GROUP) {
			next.n = 3;
			inner_ep(&next.ep, p, 1, 0);
			next.h_ep = hash_key(&next.ep);
			prefetch(&st->endpoints, next.h_ep);
		}
	}
	apply(st);
	st->pend = next;
}

struct cell {
	uint32_t src, dst;
	uint64_t frames, bytes;
};

static int cell_cmp(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int slot_vni_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return key_vni(&x->k) < key_vni(&y->k) ? -1 : key_vni(&x->k) > key_vni(&y->k);
}

/* The matrix: (source group, destination group) cells, sorted. */
static struct cell *build_matrix(struct gd_stats *st, size_t *n)
{
	struct cell *c = malloc((st->pairs.n ? st->pairs.n : 1) * sizeof(*c));
	size_t m = 0;

	if (!c)
		return NULL;
	for (size_t i = 0; i < st->pairs.cap; i++) {
		const struct slot *ps = &st->pairs.s[i];
		struct ep_key k;
		const struct slot *es = NULL;

		if (!ps->used)
			continue;
		k = ps->k;
		k.w[0] = key_vni(&k); /* the endpoint: aux 0 */
		/* a read-only lookup: probe without inserting */
		if (st->endpoints.cap)
			for (size_t j = hash_key(&k) & (st->endpoints.cap - 1);
			     st->endpoints.s[j].used; j = (j + 1) & (st->endpoints.cap - 1))
				if (key_eq(&st->endpoints.s[j].k, &k)) {
					es = &st->endpoints.s[j];
					break;
				}
		c[m].src = key_aux(&ps->k);
		c[m].dst = es ? es->group : UNKNOWN;
		c[m].frames = ps->frames;
		c[m].bytes = ps->bytes;
		m++;
	}
	qsort(c, m, sizeof(*c), cell_cmp);
	/* merge equal cells */
	size_t w = 0;
	for (size_t i = 0; i < m; i++) {
		if (w && c[w - 1].src == c[i].src && c[w - 1].dst == c[i].dst) {
			c[w - 1].frames += c[i].frames;
			c[w - 1].bytes += c[i].bytes;
		} else {
			c[w++] = c[i];
		}
	}
	*n = w;
	return c;
}

static void text_group(struct gd_out *o, uint32_t g, const struct vxgbp_groups *groups)
{
	char buf[64];
	const char *name;
	int n;

	if (g == NO_GROUP)
		n = snprintf(buf, sizeof(buf), "(no gbp)");
	else if (g == UNKNOWN)
		n = snprintf(buf, sizeof(buf), "(unknown)");
	else if ((name = vxgbp_groups_name(groups, (uint16_t)g)))
		n = snprintf(buf, sizeof(buf), "0x%04x %s", g, name);
	else
		n = snprintf(buf, sizeof(buf), "0x%04x", g);
	out_printf(o, "%-24.*s", n, buf);
}

/* "KEY":ID[,"KEY_name":"NAME"]; null for plain VXLAN or an unknown group */
static void json_group(struct gd_out *o, const char *key, uint32_t g,
		       const struct vxgbp_groups *groups)
{
	const char *name;

	out_printf(o, "\"%s\":", key);
	if (g >= NO_GROUP) {
		out_str(o, "null");
		return;
	}
	out_u64(o, g);
	if ((name = vxgbp_groups_name(groups, (uint16_t)g))) {
		out_printf(o, ",\"%s_name\":", key);
		out_json_str(o, name);
	}
}

int stats_print(struct gd_stats *st, struct gd_out *o, const struct vxgbp_groups *groups,
		int json)
{
	struct slot *v;
	struct cell *c;
	size_t nv = 0, nc = 0;

	apply(st); /* the last frame's updates */
	/* groups in ascending order (plain VXLAN, 0x10000, last), without
	 * walking all 65537 counters */
	qsort(st->seen, st->nseen, sizeof(st->seen[0]), u32_cmp);
	v = malloc((st->vnis.n ? st->vnis.n : 1) * sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < st->vnis.cap; i++)
		if (st->vnis.s[i].used)
			v[nv++] = st->vnis.s[i];
	qsort(v, nv, sizeof(*v), slot_vni_cmp);
	if (!(c = build_matrix(st, &nc))) {
		free(v);
		return -1;
	}

	if (json) {
		out_printf(o, "{\"stats\":{\"frames\":%llu,\"bytes\":%llu,\"vxlan\":%llu,"
			   "\"gbp\":%llu,\"other\":%llu,\"vni\":[",
			   (unsigned long long)st->frames, (unsigned long long)st->bytes,
			   (unsigned long long)st->vxlan, (unsigned long long)st->gbp,
			   (unsigned long long)st->other);
		for (size_t i = 0; i < nv; i++)
			out_printf(o, "%s{\"vni\":%u,\"frames\":%llu,\"bytes\":%llu}", i ? "," : "",
				   key_vni(&v[i].k), (unsigned long long)v[i].frames,
				   (unsigned long long)v[i].bytes);
		out_str(o, "],\"groups\":[");
		for (uint32_t i = 0, g; i < st->nseen; i++) {
			g = st->seen[i];
			out_str(o, i ? ",{" : "{");
			json_group(o, "group", g, groups);
			out_printf(o, ",\"frames\":%llu,\"bytes\":%llu}",
				   (unsigned long long)st->g_frames[g],
				   (unsigned long long)st->g_bytes[g]);
		}
		out_str(o, "],\"matrix\":[");
		for (size_t i = 0; i < nc; i++) {
			out_str(o, i ? ",{" : "{");
			json_group(o, "src", c[i].src, groups);
			out_putc(o, ',');
			json_group(o, "dst", c[i].dst, groups);
			out_printf(o, ",\"frames\":%llu,\"bytes\":%llu}",
				   (unsigned long long)c[i].frames, (unsigned long long)c[i].bytes);
		}
		out_str(o, "]}}\n");
	} else {
		out_printf(o, "%llu frames, %llu bytes: %llu VXLAN (%llu with GBP), %llu other\n",
			   (unsigned long long)st->frames, (unsigned long long)st->bytes,
			   (unsigned long long)st->vxlan, (unsigned long long)st->gbp,
			   (unsigned long long)st->other);
		out_str(o, "\nPer VNI:\n       VNI       frames         bytes\n");
		for (size_t i = 0; i < nv; i++)
			out_printf(o, "  %8u %12llu %13llu\n", key_vni(&v[i].k),
				   (unsigned long long)v[i].frames, (unsigned long long)v[i].bytes);
		out_str(o, "\nPer group:\n  group                         frames         bytes\n");
		for (uint32_t i = 0, g; i < st->nseen; i++) {
			g = st->seen[i];
			out_str(o, "  ");
			text_group(o, g, groups);
			out_printf(o, " %12llu %13llu\n", (unsigned long long)st->g_frames[g],
				   (unsigned long long)st->g_bytes[g]);
		}
		out_str(o, "\nGroup to group (destination group learned from its own frames):\n"
			   "  source                   destination                    frames         bytes\n");
		for (size_t i = 0; i < nc; i++) {
			out_str(o, "  ");
			text_group(o, c[i].src, groups);
			out_putc(o, ' ');
			text_group(o, c[i].dst, groups);
			out_printf(o, "  %12llu %13llu\n", (unsigned long long)c[i].frames,
				   (unsigned long long)c[i].bytes);
		}
	}
	free(v);
	free(c);
	return st->oom ? -1 : 0;
}
