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

struct ep_key {
	uint32_t vni;
	uint32_t aux; /* pairs: the source group; endpoints: 0 */
	uint8_t fam;  /* 4, 6, or 0 for a MAC address */
	uint8_t addr[16];
};

struct slot {
	struct ep_key k;
	int used;
	uint32_t group;
	uint64_t frames, bytes;
};

struct table {
	struct slot *s;
	size_t cap, n;
};

struct gd_stats {
	uint64_t frames, bytes, vxlan, gbp, other;
	uint64_t g_frames[NO_GROUP + 1], g_bytes[NO_GROUP + 1];
	struct table vnis;      /* key.vni only */
	struct table endpoints; /* inner source -> group */
	struct table pairs;     /* (source group, inner destination) */
	int oom;
};

/* The key's bytes (padding included: keys are memset before use) a word at
 * a time, multiplied and mixed (the murmur3 finaliser at the end). */
static uint64_t hash_key(const struct ep_key *k)
{
	const uint8_t *b = (const uint8_t *)k;
	uint64_t h = 0x9e3779b97f4a7c15ull, w;
	size_t i = 0;

	for (; i + 8 <= sizeof(*k); i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	for (; i < sizeof(*k); i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

static struct slot *lookup(struct gd_stats *st, struct table *t, const struct ep_key *k)
{
	size_t i;

	if ((t->n + 1) * 4 >= t->cap * 3) { /* grow at 75% */
		size_t ncap = t->cap ? t->cap * 2 : 1024;
		struct slot *ns = calloc(ncap, sizeof(*ns));

		if (!ns) {
			st->oom = 1;
			return NULL;
		}
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
	}
	for (i = hash_key(k) & (t->cap - 1); t->s[i].used; i = (i + 1) & (t->cap - 1))
		if (!memcmp(&t->s[i].k, k, sizeof(*k)))
			return &t->s[i];
	t->s[i].used = 1;
	t->s[i].k = *k;
	t->n++;
	return &t->s[i];
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
static void inner_ep(struct ep_key *k, const struct vxgbp_pkt *p, int src)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;

	memset(k, 0, sizeof(*k));
	k->vni = p->vx.vni;
	if (l3->off >= 0 && l3->version && l3->src) {
		k->fam = l3->version;
		memcpy(k->addr, src ? l3->src : l3->dst, l3->version == 6 ? 16 : 4);
	} else if (l3->off >= 0 && l3->arp_spa) {
		k->fam = 4;
		memcpy(k->addr, src ? l3->arp_spa : l3->arp_tpa, 4);
	} else {
		memcpy(k->addr, src ? p->inner.l2.src : p->inner.l2.dst, 6);
	}
}

void stats_add(struct gd_stats *st, const struct gd_rec *rec, const struct vxgbp_pkt *p)
{
	struct ep_key k;
	struct slot *s;
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
	st->g_frames[g]++;
	st->g_bytes[g] += rec->wirelen;

	memset(&k, 0, sizeof(k));
	k.vni = p->vx.vni;
	if ((s = lookup(st, &st->vnis, &k))) {
		s->frames++;
		s->bytes += rec->wirelen;
	}
	if (!(p->have & VXGBP_HAVE_INNER_L2))
		return;
	if (g != NO_GROUP) {
		inner_ep(&k, p, 1);
		if ((s = lookup(st, &st->endpoints, &k)))
			s->group = g;
	}
	inner_ep(&k, p, 0);
	k.aux = g;
	if ((s = lookup(st, &st->pairs, &k))) {
		s->frames++;
		s->bytes += rec->wirelen;
	}
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

static int slot_vni_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	return x->k.vni < y->k.vni ? -1 : x->k.vni > y->k.vni;
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
		k.aux = 0;
		/* a read-only lookup: probe without inserting */
		if (st->endpoints.cap)
			for (size_t j = hash_key(&k) & (st->endpoints.cap - 1);
			     st->endpoints.s[j].used; j = (j + 1) & (st->endpoints.cap - 1))
				if (!memcmp(&st->endpoints.s[j].k, &k, sizeof(k))) {
					es = &st->endpoints.s[j];
					break;
				}
		c[m].src = ps->k.aux;
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
	struct slot *v = malloc((st->vnis.n ? st->vnis.n : 1) * sizeof(*v));
	struct cell *c;
	size_t nv = 0, nc = 0;

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
				   v[i].k.vni, (unsigned long long)v[i].frames,
				   (unsigned long long)v[i].bytes);
		out_str(o, "],\"groups\":[");
		for (uint32_t g = 0, first = 1; g <= NO_GROUP; g++) {
			if (!st->g_frames[g])
				continue;
			out_str(o, first ? "{" : ",{");
			json_group(o, "group", g, groups);
			out_printf(o, ",\"frames\":%llu,\"bytes\":%llu}",
				   (unsigned long long)st->g_frames[g],
				   (unsigned long long)st->g_bytes[g]);
			first = 0;
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
			out_printf(o, "  %8u %12llu %13llu\n", v[i].k.vni,
				   (unsigned long long)v[i].frames, (unsigned long long)v[i].bytes);
		out_str(o, "\nPer group:\n  group                         frames         bytes\n");
		for (uint32_t g = 0; g <= NO_GROUP; g++) {
			if (!st->g_frames[g])
				continue;
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
