// SPDX-License-Identifier: BSD-2-Clause
/*
 * merge_io.c - the summary (merge.h) as JSON: msum_write() puts it into
 * the report's object, msum_read() takes it back out of a file.  The
 * format is docs/merge.md's; each table is an array of arrays, one per
 * key, in a fixed column order.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "merge_json.h"

/* ---- writing ---- */

static const char *lvl_name(int l)
{
	return l == CHECK_MUST ? "MUST" : l == CHECK_SHOULD ? "SHOULD" : "INFO";
}

/* An address as a JSON string: a MAC (family 0), IPv4 or IPv6, the text of
 * vxgbp_mac_format()/vxgbp_addr_format() (tests/out checks lw_addr's against
 * it).  At most GD_ADDR_MAX + 2 bytes. */
static char *lw_jaddr(char *p, unsigned family, const uint8_t *a)
{
	p = lw_c(p, '"');
	p = family == 0 ? lw_mac(p, a) : lw_addr(p, a, family == 6 ? 16 : 4);
	return lw_c(p, '"');
}

/* %d: at most 11 bytes */
static char *lw_i32(char *p, int v)
{
	if (v < 0)
		return lw_u32(lw_c(p, '-'), 0u - (uint32_t)v);
	return lw_u32(p, (uint32_t)v);
}

/* A group ID, or null for what is not one: VXGBP_GROUP_NONE (plain
 * VXLAN) in a source, VXGBP_GROUP_UNKNOWN in what the matrix learned,
 * as the stats report writes them.  read_group() takes it back. */
static char *lw_group(char *p, uint32_t g)
{
	return g > 0xffff ? LW_LIT(p, "null") : lw_u32(p, g);
}

/* %016llx */
static char *lw_hex64(char *p, uint64_t v)
{
	return lw_hexw(lw_hexw(p, (uint32_t)(v >> 32), 8), (uint32_t)v, 8);
}

/* The most one row of a table writes: its literal text and every field at
 * its longest (u64 20, u32 10, int 11, an address GD_ADDR_MAX + 2): a flow
 * row 415. */
#define ROW_MAX 512
_Static_assert(ROW_MAX <= GD_RESERVE_MAX, "a row is one reservation");

static void write_opts(const struct msum_opts *p, struct gd_out *o)
{
	out_printf(o, "\"options\":{\"mode\":\"%s\",\"profile\":", p->check ? "check" : "stats");
	if (p->check)
		out_json_str(o, p->profile);
	else
		out_str(o, "null");
	out_printf(o, ",\"checksums\":%s,\"track_budget\":%llu,\"groups\":",
		   p->checksums ? "true" : "false", (unsigned long long)p->budget);
	out_json_str(o, p->groups);
	out_str(o, ",\"policy\":");
	out_json_str(o, p->policy);
	out_str(o, ",\"filter\":");
	if (p->filter)
		out_json_str(o, p->filter);
	else
		out_str(o, "null");
	out_printf(o, ",\"vni\":%lld,\"gbp\":%lld", (long long)p->vni, (long long)p->gbp);
	if (p->fabric) { /* only when not the default: older summaries stay valid */
		out_str(o, ",\"fabric\":");
		out_json_str(o, vxgbp_fabric_name(p->fabric));
	}
	out_putc(o, '}');
}

/* The tables are written a row at a time through the line writer (out.h):
 * with printf a diverse capture's summary cost more than its whole run. */
static void write_counts(struct gd_out *o, const char *name,
			 const struct vxgbp_track_count *c, size_t n, int groups)
{
	out_str(o, ",\"");
	out_str(o, name);
	out_str(o, "\":[");
	for (size_t i = 0; i < n; i++) {
		char *p = out_reserve(o, ROW_MAX);

		p = LW_LIT(i ? lw_c(p, ',') : p, "{\"key\":");
		p = groups ? lw_group(p, c[i].key) : lw_u32(p, c[i].key);
		p = LW_LIT(p, ",\"frames\":");
		p = LW_LIT(lw_u64(p, c[i].frames), ",\"bytes\":");
		out_commit(o, lw_c(lw_u64(p, c[i].bytes), '}'));
	}
	out_putc(o, ']');
}

static void write_pair(struct gd_out *o, const struct vxgbp_track_entry *e, int comma)
{
	char *p = out_reserve(o, ROW_MAX);

	p = LW_LIT(comma ? lw_c(p, ',') : p, "{\"src\":");
	p = LW_LIT(lw_group(p, e->src_group), ",\"vni\":");
	p = LW_LIT(lw_u32(p, e->vni), ",\"family\":");
	p = LW_LIT(lw_u32(p, e->family), ",\"dst\":");
	p = LW_LIT(lw_jaddr(p, e->family, e->addr), ",\"frames\":");
	p = LW_LIT(lw_u64(p, e->frames), ",\"bytes\":");
	out_commit(o, lw_c(lw_u64(p, e->bytes), '}'));
}

/* An endpoint's or a flow's first and last sightings by the rules (the
 * columns read_sightings() takes back). */
static char *lw_sightings(char *p, const struct vxgbp_track_entry *e)
{
	p = LW_LIT(p, "\"first\":");
	p = LW_LIT(lw_u64(p, e->first_frame), ",\"first_group\":");
	p = LW_LIT(lw_u32(p, e->first_group), ",\"first_off\":");
	p = LW_LIT(lw_i32(p, e->first_off), ",\"last\":");
	p = LW_LIT(lw_u64(p, e->last_frame), ",\"last_group\":");
	p = LW_LIT(lw_u32(p, e->last_group), ",\"last_flags\":");
	return lw_u32(p, e->last_flags);
}

static void write_ep(struct gd_out *o, const struct vxgbp_track_entry *e, int comma)
{
	char *p = out_reserve(o, ROW_MAX);

	p = LW_LIT(comma ? lw_c(p, ',') : p, "{\"vni\":");
	p = LW_LIT(lw_u32(p, e->vni), ",\"family\":");
	p = LW_LIT(lw_u32(p, e->family), ",\"addr\":");
	p = LW_LIT(lw_jaddr(p, e->family, e->addr), ",\"learned\":");
	p = lw_sightings(LW_LIT(lw_group(p, e->learned), ","), e);
	out_commit(o, lw_c(p, '}'));
}

static void write_flow(struct gd_out *o, const struct vxgbp_track_entry *e, int comma)
{
	char *p = out_reserve(o, ROW_MAX);

	p = LW_LIT(comma ? lw_c(p, ',') : p, "{\"vni\":");
	p = LW_LIT(lw_u32(p, e->vni), ",\"version\":");
	p = LW_LIT(lw_u32(p, e->family), ",\"proto\":");
	p = LW_LIT(lw_u32(p, e->proto), ",\"src\":");
	p = LW_LIT(lw_jaddr(p, e->family, e->addr), ",\"sport\":");
	p = LW_LIT(lw_u32(p, e->sport), ",\"dst\":");
	p = LW_LIT(lw_jaddr(p, e->family, e->addr2), ",\"dport\":");
	p = lw_sightings(LW_LIT(lw_u32(p, e->dport), ","), e);
	p = LW_LIT(p, ",\"first_sport\":");
	p = LW_LIT(lw_u32(p, e->first_sport), ",\"first_dport\":");
	out_commit(o, lw_c(lw_u32(p, e->first_dport), '}'));
}

static void write_keys(const struct msum *m, struct gd_out *o)
{
	out_str(o, ",\"pairs\":[");
	for (size_t i = 0; i < m->npairs; i++)
		write_pair(o, &m->pairs[i], i != 0);
	out_str(o, "],\"endpoints\":[");
	for (size_t i = 0; i < m->neps; i++)
		write_ep(o, &m->eps[i], i != 0);
	out_str(o, "],\"flows\":[");
	for (size_t i = 0; i < m->nflows; i++)
		write_flow(o, &m->flows[i], i != 0);
	out_putc(o, ']');
}

static void write_cache(const struct msum *m, struct gd_out *o, int first)
{
	const struct vxgbp_track_cached *c = first ? m->cfirst : m->clast;
	int k = 0;

	out_str(o, first ? ",\"cache_first\":[" : ",\"cache_last\":[");
	for (size_t i = 0; i < m->ncache; i++) {
		char *p;

		if (!c[i].frame)
			continue;
		p = out_reserve(o, ROW_MAX);
		p = LW_LIT(k++ ? lw_c(p, ',') : p, "{\"slot\":");
		p = LW_LIT(lw_u32(p, c[i].slot), ",\"hash\":\"");
		p = LW_LIT(lw_hex64(p, c[i].hash), "\",\"len\":");
		p = LW_LIT(lw_u32(p, c[i].len), ",\"frame\":");
		p = LW_LIT(lw_u64(p, c[i].frame), ",\"flags\":");
		p = LW_LIT(lw_u32(p, c[i].flags), ",\"group\":");
		p = LW_LIT(lw_u32(p, c[i].group), ",\"off\":");
		out_commit(o, lw_c(lw_i32(p, c[i].off), '}'));
	}
	out_putc(o, ']');
}

static void write_findings(const struct msum *m, struct gd_out *o)
{
	out_str(o, ",\"findings\":[");
	for (size_t i = 0; i < m->nfind; i++) {
		const struct msum_find *f = &m->find[i];
		const struct vxgbp_rule_info *ri = vxgbp_rule_get(f->rule);

		out_str(o, i ? ",{\"rule\":" : "{\"rule\":");
		out_json_str(o, ri ? ri->id : "?");
		out_printf(o, ",\"level\":\"%s\",\"count\":%llu,\"first\":[", lvl_name(f->level),
			   (unsigned long long)f->count);
		for (unsigned j = 0; j < f->n; j++) {
			out_printf(o, "%s{\"frame\":%llu,\"offset\":%d,\"detail\":", j ? "," : "",
				   (unsigned long long)f->first[j].frame, f->first[j].off);
			out_json_str(o, f->first[j].what);
			out_putc(o, '}');
		}
		out_str(o, "]}");
	}
	out_putc(o, ']');
}

/* ,"mirrors":[{"type":..,"id":N,"frames":N,"bytes":N}] and
 * ,"dropped_mirrors":[frames,bytes], each only when there is one: a
 * capture that came through no mirror has the summary it had before. */
static void write_mirrors(const struct msum *m, struct gd_out *o)
{
	if (m->nmirrors)
		out_str(o, ",\"mirrors\":[");
	for (size_t i = 0; i < m->nmirrors; i++) {
		const struct vxgbp_track_count *c = &m->mirrors[i];
		const struct vxgbp_mirror_info *mi = vxgbp_mirror_get(c->key >> 24);

		out_str(o, i ? ",{\"type\":" : "{\"type\":");
		out_json_str(o, mi ? mi->key : "?");
		out_printf(o, ",\"id\":%u,\"frames\":%llu,\"bytes\":%llu}",
			   c->key & MSUM_MIRROR_ID_MAX, (unsigned long long)c->frames,
			   (unsigned long long)c->bytes);
	}
	if (m->nmirrors)
		out_putc(o, ']');
	if (m->d_mirrors || m->d_mirror_bytes)
		out_printf(o, ",\"dropped_mirrors\":[%llu,%llu]",
			   (unsigned long long)m->d_mirrors, (unsigned long long)m->d_mirror_bytes);
}

void msum_write(const struct msum *m, struct gd_out *o)
{
	out_printf(o, ",\"summary\":{\"version\":%d,", MSUM_VERSION);
	write_opts(&m->o, o);
	out_str(o, ",\"inputs\":[");
	for (size_t i = 0; i < m->nin; i++) {
		out_str(o, i ? ",{\"name\":" : "{\"name\":");
		out_json_str(o, m->in[i].name);
		out_printf(o, ",\"linktype\":%d,\"frames\":%llu}", m->in[i].linktype,
			   (unsigned long long)m->in[i].records);
	}
	out_printf(o, "],\"frames\":%llu,\"bytes\":%llu,\"vxlan\":%llu,\"gbp\":%llu,"
		   "\"other\":%llu,\"unparsed\":%llu,\"unjudged\":%llu,",
		   (unsigned long long)m->frames, (unsigned long long)m->bytes,
		   (unsigned long long)m->vxlan, (unsigned long long)m->gbp,
		   (unsigned long long)m->other, (unsigned long long)m->unparsed,
		   (unsigned long long)m->unjudged);
	out_printf(o, "\"dropped\":[%llu,%llu,%llu,%llu,%llu],"
		   "\"approximate\":{\"cache\":%llu,\"budget\":%llu}",
		   (unsigned long long)m->d_eps, (unsigned long long)m->d_flows,
		   (unsigned long long)m->d_vnis, (unsigned long long)m->d_pairs,
		   (unsigned long long)m->d_pair_bytes, (unsigned long long)m->approx_cache,
		   (unsigned long long)m->approx_budget);
	if (m->unjudged_mac) /* optional: a summary with none reads as before */
		out_printf(o, ",\"unjudged_mac\":%llu", (unsigned long long)m->unjudged_mac);
	if (m->error) {
		out_str(o, ",\"error\":");
		out_json_str(o, m->error);
	}
	write_counts(o, "vnis", m->vnis, m->nvnis, 0);
	write_counts(o, "groups", m->groups, m->ngroups, 1);
	write_mirrors(m, o);
	write_keys(m, o);
	if (m->o.check) {
		write_cache(m, o, 1);
		write_cache(m, o, 0);
		write_findings(m, o);
	}
	out_putc(o, '}');
}

/* ---- reading ---- */

struct rd {
	const char *path;
	int bad; /* a message was printed */
};

/* One line: the file, where in it (at's place in the document; for
 * "missing", the member name of object at), what is wrong. */
static int rd_fail(struct rd *r, const struct jv *at, const char *what, const char *name)
{
	char where[320];
	int miss = !strcmp(what, "missing");

	if (r->bad)
		return -1;
	r->bad = 1;
	if (!at) {
		fprintf(stderr, "gbpdump: --merge: %s: %s: %s\n", r->path, name ? name : "?", what);
		return -1;
	}
	jpath(at, where, sizeof(where));
	if (miss && name)
		fprintf(stderr, "gbpdump: --merge: %s: %s%s%s: missing\n", r->path,
			at->up ? where : "", at->up ? "." : "", name);
	else if (name && (!at->key || strcmp(at->key, name)))
		fprintf(stderr, "gbpdump: --merge: %s: %s: %s: %s\n", r->path, where, name, what);
	else
		fprintf(stderr, "gbpdump: --merge: %s: %s: %s\n", r->path, where, what);
	return -1;
}

/* An integer in [lo, hi] (lo < 0: signed). */
static int rd_int(struct rd *r, const struct jv *v, const char *name, int64_t lo, uint64_t hi,
		  uint64_t *out)
{
	if (!v || v->t != J_INT)
		return rd_fail(r, v, v ? "an integer expected" : "missing", name);
	if (v->neg) {
		if (lo >= 0 || v->u > (uint64_t)-(lo + 1) + 1)
			return rd_fail(r, v, "out of range", name);
		*out = (uint64_t)0 - v->u;
		return 0;
	}
	if (v->u > hi)
		return rd_fail(r, v, "out of range", name);
	*out = v->u;
	return 0;
}

static int rd_u64(struct rd *r, const struct jv *o, const char *key, uint64_t *out)
{
	const struct jv *v = jget(o, key);

	return v ? rd_int(r, v, key, 0, UINT64_MAX, out) : rd_fail(r, o, "missing", key);
}

/* Element i of row (an array of at least n elements, checked by the caller). */
static int col(struct rd *r, const struct jv *row, size_t i, int64_t lo, uint64_t hi,
	       uint64_t *out)
{
	return rd_int(r, row->a[i], NULL, lo, hi, out);
}

/* Element i of row, a group (lw_group): 0-65535, or null for none. */
static int col_group(struct rd *r, const struct jv *row, size_t i, uint32_t none, uint64_t *out)
{
	if (row->a[i]->t == J_NULL) {
		*out = none;
		return 0;
	}
	return rd_int(r, row->a[i], NULL, 0, 0xffff, out);
}

static int col_str(struct rd *r, const struct jv *row, size_t i, const char **s)
{
	if (row->a[i]->t != J_STR)
		return rd_fail(r, row->a[i], "a string expected", NULL);
	*s = row->a[i]->s;
	return 0;
}

/* Put the members of row (an object) in the order of names (ncol of
 * them, each present once, no other): 0, or -1. */
static int row_order(struct rd *r, const struct jv *row, const char *const *names,
		     size_t ncol, const char *key)
{
	if (row->t != J_OBJ || row->n != ncol)
		return rd_fail(r, row, "a row of the wrong shape", key);
	for (size_t i = 0; i < ncol; i++) {
		size_t j = i;

		while (j < ncol && strcmp(row->a[j]->key, names[i]))
			j++;
		if (j == ncol)
			return rd_fail(r, row, "a row without one of its members", key);
		if (j != i) {
			struct jv *t = row->a[i];

			row->a[i] = row->a[j];
			row->a[j] = t;
		}
	}
	return 0;
}

/* The array member key of o whose elements are objects with the members
 * names (ncol), then in that order: its element count, or -1. */
static long rows(struct rd *r, const struct jv *o, const char *key, const char *const *names,
		 size_t ncol, const struct jv **arr)
{
	const struct jv *a = jget(o, key);

	if (!a || a->t != J_ARR)
		return rd_fail(r, a ? a : o, a ? "an array expected" : "missing", key);
	for (size_t i = 0; i < a->n; i++)
		if (row_order(r, a->a[i], names, ncol, key) < 0)
			return -1;
	*arr = a;
	return (long)a->n;
}

#define ROWS(r, o, key, names, arr) rows(r, o, key, names, sizeof(names) / sizeof(names[0]), arr)

static const char *const cols_count[] = { "key", "frames", "bytes" };
static const char *const cols_pair[] = { "src", "vni", "family", "dst", "frames", "bytes" };
static const char *const cols_ep[] = { "vni", "family", "addr", "learned", "first",
				       "first_group", "first_off", "last", "last_group",
				       "last_flags" };
static const char *const cols_flow[] = { "vni", "version", "proto", "src", "sport", "dst",
					 "dport", "first", "first_group", "first_off", "last",
					 "last_group", "last_flags", "first_sport",
					 "first_dport" };
static const char *const cols_cache[] = { "slot", "hash", "len", "frame", "flags", "group",
					  "off" };
static const char *const cols_occ[] = { "frame", "offset", "detail" };

static int parse_addr(struct rd *r, const struct jv *at, unsigned family, const char *s,
		      uint8_t *a)
{
	unsigned b[6];
	char end;

	memset(a, 0, 16);
	if (family == 4 || family == 6)
		return inet_pton(family == 6 ? AF_INET6 : AF_INET, s, a) == 1 ? 0
		       : rd_fail(r, at, "not an address", NULL);
	if (family != 0 || sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
				  &b[4], &b[5], &end) != 6)
		return rd_fail(r, at, "not a MAC address", NULL);
	for (int i = 0; i < 6; i++)
		a[i] = (uint8_t)b[i];
	return 0;
}

static void *rd_alloc(struct rd *r, const struct jv *at, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		rd_fail(r, at, "out of memory", NULL);
	return p;
}

/* "vnis" (groups 0) or "groups" (1). */
static int read_counts(struct rd *r, const struct jv *s, const char *key, int groups,
		       struct vxgbp_track_count **out, size_t *n)
{
	const struct jv *a = NULL;
	long k = ROWS(r, s, key, cols_count, &a);
	uint64_t v[3] = { 0 };

	if (k < 0 || !(*out = rd_alloc(r, s, (size_t)k, sizeof(**out))))
		return -1;
	for (long i = 0; i < k; i++) {
		if ((groups ? col_group(r, a->a[i], 0, VXGBP_GROUP_NONE, &v[0])
			    : col(r, a->a[i], 0, 0, VXGBP_VNI_MAX, &v[0])) ||
		    col(r, a->a[i], 1, 0, UINT64_MAX, &v[1]) ||
		    col(r, a->a[i], 2, 0, UINT64_MAX, &v[2]))
			return -1;
		(*out)[i] = (struct vxgbp_track_count){ (uint32_t)v[0], v[1], v[2] };
	}
	*n = (size_t)k;
	return 0;
}

static const char *const cols_mirror[] = { "type", "id", "frames", "bytes" };

/* A mirror's "type": its kind (vxgbp_mirror_get's key), or -1. */
static int mirror_kind(struct rd *r, const struct jv *at, const char *s)
{
	for (unsigned k = 1; vxgbp_mirror_get(k); k++)
		if (!strcmp(s, vxgbp_mirror_get(k)->key))
			return (int)k;
	return rd_fail(r, at, "not a mirror type this gbpdump knows", "type");
}

/* "mirrors" and "dropped_mirrors": absent from a summary of a capture
 * through none, and from every summary made before they were. */
static int read_mirrors(struct rd *r, const struct jv *s, struct msum *m)
{
	const struct jv *a = NULL, *d = jget(s, "dropped_mirrors");
	const char *str = NULL;
	uint64_t v[3] = { 0 };
	long k = jget(s, "mirrors") ? ROWS(r, s, "mirrors", cols_mirror, &a) : 0;
	int kind;

	if (k < 0 || !(m->mirrors = rd_alloc(r, s, (size_t)k, sizeof(*m->mirrors))))
		return -1;
	for (long i = 0; i < k; i++) {
		const struct jv *w = a->a[i];

		if (col_str(r, w, 0, &str) || (kind = mirror_kind(r, w->a[0], str)) < 0 ||
		    col(r, w, 1, 0, MSUM_MIRROR_ID_MAX, &v[0]) ||
		    col(r, w, 2, 0, UINT64_MAX, &v[1]) || col(r, w, 3, 0, UINT64_MAX, &v[2]))
			return -1;
		m->mirrors[i] = (struct vxgbp_track_count){ MSUM_MIRROR_KEY(kind, v[0]), v[1],
							    v[2] };
	}
	m->nmirrors = (size_t)k;
	if (!d)
		return 0;
	if (d->t != J_ARR || d->n != 2)
		return rd_fail(r, d, "an array of 2 counts expected", "dropped_mirrors");
	return rd_int(r, d->a[0], "dropped_mirrors", 0, UINT64_MAX, &m->d_mirrors) ||
	       rd_int(r, d->a[1], "dropped_mirrors", 0, UINT64_MAX, &m->d_mirror_bytes) ? -1 : 0;
}

static int family_ok(struct rd *r, const struct jv *at, uint64_t f)
{
	return f == 0 || f == 4 || f == 6 ? 0 : rd_fail(r, at, "family not 0, 4 or 6", NULL);
}

static int read_pairs(struct rd *r, const struct jv *s, struct msum *m)
{
	const struct jv *a = NULL;
	long k = ROWS(r, s, "pairs", cols_pair, &a);
	const char *str = NULL;
	uint64_t v[6] = { 0 };

	if (k < 0 || !(m->pairs = rd_alloc(r, s, (size_t)k, sizeof(*m->pairs))))
		return -1;
	for (long i = 0; i < k; i++) {
		struct vxgbp_track_entry *e = &m->pairs[i];
		const struct jv *w = a->a[i];

		if (col_group(r, w, 0, VXGBP_GROUP_NONE, &v[0]) || col(r, w, 1, 0, VXGBP_VNI_MAX, &v[1]) ||
		    col(r, w, 2, 0, 6, &v[2]) || family_ok(r, w, v[2]) || col_str(r, w, 3, &str) ||
		    parse_addr(r, w->a[3], (unsigned)v[2], str, e->addr) ||
		    col(r, w, 4, 0, UINT64_MAX, &v[4]) || col(r, w, 5, 0, UINT64_MAX, &v[5]))
			return -1;
		e->src_group = (uint32_t)v[0];
		e->vni = (uint32_t)v[1];
		e->family = (uint8_t)v[2];
		e->frames = v[4];
		e->bytes = v[5];
	}
	m->npairs = (size_t)k;
	return 0;
}

/* Columns first_frame, first_group, first_off, last_frame, last_group,
 * last_flags from column c on. */
static int read_sightings(struct rd *r, const struct jv *w, size_t c,
			  struct vxgbp_track_entry *e)
{
	uint64_t v[6] = { 0 };

	if (col(r, w, c, 0, UINT64_MAX, &v[0]) || col(r, w, c + 1, 0, 65535, &v[1]) ||
	    col(r, w, c + 2, -1, 65535, &v[2]) || col(r, w, c + 3, 0, UINT64_MAX, &v[3]) ||
	    col(r, w, c + 4, 0, 65535, &v[4]) || col(r, w, c + 5, 0, 65535, &v[5]))
		return -1;
	e->first_frame = v[0];
	e->first_group = (uint16_t)v[1];
	e->first_off = (int)(int64_t)v[2];
	e->last_frame = v[3];
	e->last_group = (uint16_t)v[4];
	e->last_flags = (uint16_t)v[5];
	return 0;
}

static int read_eps(struct rd *r, const struct jv *s, struct msum *m)
{
	const struct jv *a = NULL;
	long k = ROWS(r, s, "endpoints", cols_ep, &a);
	const char *str = NULL;
	uint64_t v[4] = { 0 };

	if (k < 0 || !(m->eps = rd_alloc(r, s, (size_t)k, sizeof(*m->eps))))
		return -1;
	for (long i = 0; i < k; i++) {
		struct vxgbp_track_entry *e = &m->eps[i];
		const struct jv *w = a->a[i];

		if (col(r, w, 0, 0, VXGBP_VNI_MAX, &v[0]) || col(r, w, 1, 0, 6, &v[1]) ||
		    family_ok(r, w, v[1]) || col_str(r, w, 2, &str) ||
		    parse_addr(r, w->a[2], (unsigned)v[1], str, e->addr) ||
		    col_group(r, w, 3, VXGBP_GROUP_UNKNOWN, &v[3]) || read_sightings(r, w, 4, e))
			return -1;
		e->vni = (uint32_t)v[0];
		e->family = (uint8_t)v[1];
		e->learned = (uint32_t)v[3];
	}
	m->neps = (size_t)k;
	return 0;
}

static int read_flows(struct rd *r, const struct jv *s, struct msum *m)
{
	const struct jv *a = NULL;
	long k = ROWS(r, s, "flows", cols_flow, &a);
	const char *s1 = NULL, *s2 = NULL;
	uint64_t v[7] = { 0 };

	if (k < 0 || !(m->flows = rd_alloc(r, s, (size_t)k, sizeof(*m->flows))))
		return -1;
	for (long i = 0; i < k; i++) {
		struct vxgbp_track_entry *e = &m->flows[i];
		const struct jv *w = a->a[i];

		if (col(r, w, 0, 0, VXGBP_VNI_MAX, &v[0]) || col(r, w, 1, 4, 6, &v[1]) ||
		    col(r, w, 2, 0, 255, &v[2]) || col_str(r, w, 3, &s1) ||
		    col(r, w, 4, 0, 65535, &v[4]) || col_str(r, w, 5, &s2) ||
		    col(r, w, 6, 0, 65535, &v[6]) || (v[1] != 4 && v[1] != 6) ||
		    parse_addr(r, w->a[3], (unsigned)v[1], s1, e->addr) ||
		    parse_addr(r, w->a[5], (unsigned)v[1], s2, e->addr2) || read_sightings(r, w, 7, e) ||
		    col(r, w, 13, 0, 65535, &v[3]) || col(r, w, 14, 0, 65535, &v[5]))
			return r->bad ? -1 : rd_fail(r, w, "IP version not 4 or 6", "flows");
		e->first_sport = (uint16_t)v[3];
		e->first_dport = (uint16_t)v[5];
		e->vni = (uint32_t)v[0];
		e->family = (uint8_t)v[1];
		e->proto = (uint8_t)v[2];
		e->sport = (uint16_t)v[4];
		e->dport = (uint16_t)v[6];
	}
	m->nflows = (size_t)k;
	return 0;
}

static int read_cache(struct rd *r, const struct jv *s, struct msum *m, int first)
{
	const struct jv *a = NULL;
	long k = ROWS(r, s, first ? "cache_first" : "cache_last", cols_cache, &a);
	struct vxgbp_track_cached *c = first ? m->cfirst : m->clast;
	const char *hs = NULL;
	uint64_t v[7] = { 0 };
	char *end;

	if (k < 0)
		return -1;
	for (long i = 0; i < k; i++) {
		const struct jv *w = a->a[i];

		if (col(r, w, 0, 0, MSUM_SLOTS - 1, &v[0]) || col_str(r, w, 1, &hs) ||
		    col(r, w, 2, 0, UINT32_MAX, &v[2]) || col(r, w, 3, 1, UINT64_MAX, &v[3]) ||
		    col(r, w, 4, 0, 65535, &v[4]) || col(r, w, 5, 0, 65535, &v[5]) ||
		    col(r, w, 6, -1, INT32_MAX, &v[6]))
			return -1;
		errno = 0;
		v[1] = strtoull(hs, &end, 16);
		if (strlen(hs) != 16 || *end || errno)
			return rd_fail(r, w->a[1], "not a 64-bit hash in hex", NULL);
		if (!v[3])
			return rd_fail(r, w->a[3], "frame 0", NULL);
		c[v[0]] = (struct vxgbp_track_cached){ (uint32_t)v[0], (uint32_t)v[2], v[1], v[3],
						       (uint16_t)v[4], (uint16_t)v[5],
						       (int)(int64_t)v[6] };
	}
	return 0;
}

static int read_level(struct rd *r, const struct jv *v, int *level)
{
	static const char *const names[] = { "MUST", "SHOULD", "INFO" };

	for (int l = 0; v && v->t == J_STR && l < 3; l++)
		if (!strcmp(v->s, names[l])) {
			*level = l;
			return 0;
		}
	return rd_fail(r, v, "not MUST, SHOULD or INFO", "level");
}

static int read_find(struct rd *r, const struct jv *o, struct msum_find *f)
{
	const struct jv *id = jget(o, "rule"), *a;
	long k;
	int rule;

	if (!id || id->t != J_STR || (rule = vxgbp_rule_lookup(id->s)) < 0)
		return rd_fail(r, id ? id : o, "not a rule this gbpdump knows", "rule");
	f->rule = (unsigned)rule;
	if (read_level(r, jget(o, "level"), &f->level) || rd_u64(r, o, "count", &f->count) ||
	    (k = ROWS(r, o, "first", cols_occ, &a)) < 0)
		return -1;
	if (k > CHECK_FIRST || (uint64_t)k > f->count)
		return rd_fail(r, a, "more first occurrences than counted or kept", "first");
	for (long i = 0; i < k; i++) {
		const struct jv *w = a->a[i];
		uint64_t fr = 0, off = 0;
		const char *what = NULL;

		if (col(r, w, 0, 1, UINT64_MAX, &fr) || col(r, w, 1, INT32_MIN, INT32_MAX, &off) ||
		    col_str(r, w, 2, &what))
			return -1;
		f->first[i].frame = fr;
		f->first[i].off = (int)(int64_t)off;
		f->first[i].tie = 1;
		snprintf(f->first[i].what, sizeof(f->first[i].what), "%s", what);
	}
	f->n = (unsigned)k;
	return 0;
}

static int read_findings(struct rd *r, const struct jv *s, struct msum *m)
{
	const struct jv *a = jget(s, "findings");

	if (!a || a->t != J_ARR)
		return rd_fail(r, a ? a : s, a ? "an array expected" : "missing", "findings");
	if (!(m->find = rd_alloc(r, a, a->n, sizeof(*m->find))))
		return -1;
	for (size_t i = 0; i < a->n; i++)
		if (a->a[i]->t != J_OBJ || read_find(r, a->a[i], &m->find[i]))
			return r->bad ? -1 : rd_fail(r, a->a[i], "an object expected", "findings");
	m->nfind = a->n;
	return 0;
}

static int rd_strbuf(struct rd *r, const struct jv *o, const char *key, char *buf, size_t n)
{
	const struct jv *v = jget(o, key);

	if (!v || v->t != J_STR || strlen(v->s) >= n)
		return rd_fail(r, v ? v : o, v ? "not a string of the expected form" : "missing", key);
	memcpy(buf, v->s, strlen(v->s) + 1);
	return 0;
}

/* "fabric", absent for the default (--fabric-header gbp). */
static int read_fabric(struct rd *r, const struct jv *o, struct msum_opts *p)
{
	const struct jv *v = jget(o, "fabric");
	int m = v && v->t == J_STR ? vxgbp_fabric_lookup(v->s) : 0;

	if (m < 0 || (v && v->t != J_STR))
		return rd_fail(r, v, "not a --fabric-header mode", "fabric");
	p->fabric = (unsigned)m;
	return 0;
}

static int read_opts(struct rd *r, const struct jv *s, struct msum_opts *p)
{
	const struct jv *o = jget(s, "options"), *v;
	uint64_t x = 0;

	if (!o || o->t != J_OBJ)
		return rd_fail(r, o ? o : s, o ? "an object expected" : "missing", "options");
	v = jget(o, "mode");
	if (!v || v->t != J_STR || (strcmp(v->s, "check") && strcmp(v->s, "stats")))
		return rd_fail(r, v ? v : o, "not \"check\" or \"stats\"", "mode");
	p->check = !strcmp(v->s, "check");
	if (p->check && (rd_strbuf(r, o, "profile", p->profile, sizeof(p->profile)) ||
			 !check_profile_known(p->profile)))
		return rd_fail(r, jget(o, "profile"), "not a profile this gbpdump knows", "profile");
	v = jget(o, "checksums");
	if (!v || v->t != J_BOOL)
		return rd_fail(r, v ? v : o, "true or false expected", "checksums");
	p->checksums = (int)v->u;
	if (rd_u64(r, o, "track_budget", &p->budget) ||
	    rd_strbuf(r, o, "groups", p->groups, sizeof(p->groups)) ||
	    rd_strbuf(r, o, "policy", p->policy, sizeof(p->policy)))
		return -1;
	v = jget(o, "filter");
	if (v && v->t == J_STR && !(p->filter = strdup(v->s)))
		return rd_fail(r, v, "out of memory", NULL);
	if (!v || (v->t != J_STR && v->t != J_NULL))
		return rd_fail(r, v ? v : o, "a string or null expected", "filter");
	if (rd_int(r, jget(o, "vni"), "vni", -1, VXGBP_VNI_MAX, &x))
		return -1;
	p->vni = (int64_t)x;
	if (rd_int(r, jget(o, "gbp"), "gbp", -1, 65535, &x))
		return -1;
	p->gbp = (int64_t)x;
	return read_fabric(r, o, p);
}

/* "error", present when the run ended early: a string. */
static int read_error(struct rd *r, const struct jv *s, struct msum *m)
{
	const struct jv *e = jget(s, "error");

	if (!e)
		return 0;
	if (e->t != J_STR)
		return rd_fail(r, e, "a string expected", "error");
	if (!(m->error = strdup(e->s)))
		return rd_fail(r, e, "out of memory", NULL);
	return 0;
}

static int read_inputs(struct rd *r, const struct jv *s, struct msum *m)
{
	const struct jv *a = jget(s, "inputs");
	uint64_t lt = 0;

	if (!a || a->t != J_ARR || !a->n)
		return rd_fail(r, a ? a : s, a ? "a non-empty array expected" : "missing", "inputs");
	if (!(m->in = rd_alloc(r, a, a->n, sizeof(*m->in))))
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		const struct jv *o = a->a[i], *nm = jget(o, "name");

		if (!nm || nm->t != J_STR)
			return rd_fail(r, nm ? nm : o, "a string expected", "name");
		if (rd_int(r, jget(o, "linktype"), "linktype", 0, INT32_MAX, &lt) ||
		    rd_u64(r, o, "frames", &m->in[i].records))
			return -1;
		m->in[i].linktype = (int)lt;
		if (!(m->in[i].name = strdup(nm->s)))
			return rd_fail(r, nm, "out of memory", NULL);
		m->nin = i + 1;
		m->records += m->in[i].records;
	}
	return 0;
}

static int read_numbers(struct rd *r, const struct jv *s, struct msum *m)
{
	const struct jv *d = jget(s, "dropped"), *ap = jget(s, "approximate");
	uint64_t *dv[5] = { &m->d_eps, &m->d_flows, &m->d_vnis, &m->d_pairs, &m->d_pair_bytes };

	if (rd_u64(r, s, "frames", &m->frames) || rd_u64(r, s, "bytes", &m->bytes) ||
	    rd_u64(r, s, "vxlan", &m->vxlan) || rd_u64(r, s, "gbp", &m->gbp) ||
	    rd_u64(r, s, "other", &m->other) || rd_u64(r, s, "unparsed", &m->unparsed) ||
	    rd_u64(r, s, "unjudged", &m->unjudged))
		return -1;
	if (!d || d->t != J_ARR || d->n != 5)
		return rd_fail(r, d ? d : s, "an array of 5 counts expected", "dropped");
	for (int i = 0; i < 5; i++)
		if (rd_int(r, d->a[i], "dropped", 0, UINT64_MAX, dv[i]))
			return -1;
	if (jget(s, "unjudged_mac") && rd_u64(r, s, "unjudged_mac", &m->unjudged_mac))
		return -1;
	if (!ap || ap->t != J_OBJ)
		return rd_fail(r, ap ? ap : s, "an object expected", "approximate");
	return rd_u64(r, ap, "cache", &m->approx_cache) ||
	       rd_u64(r, ap, "budget", &m->approx_budget) ? -1 : 0;
}

static int read_summary(struct rd *r, const struct jv *s, struct msum *m)
{
	const struct jv *ver = jget(s, "version");

	if (!ver || ver->t != J_INT || ver->neg)
		return rd_fail(r, ver ? ver : s, "an integer expected", "version");
	if (ver->u != MSUM_VERSION) {
		fprintf(stderr, "gbpdump: --merge: %s: summary.version: summary format version %llu; "
			"this gbpdump reads version %d\n", r->path, (unsigned long long)ver->u,
			MSUM_VERSION);
		return -1;
	}
	m->version = MSUM_VERSION;
	if (read_opts(r, s, &m->o) || read_inputs(r, s, m) || read_numbers(r, s, m) ||
	    read_error(r, s, m) ||
	    read_counts(r, s, "vnis", 0, &m->vnis, &m->nvnis) ||
	    read_counts(r, s, "groups", 1, &m->groups, &m->ngroups) || read_mirrors(r, s, m) ||
	    read_pairs(r, s, m) || read_eps(r, s, m) || read_flows(r, s, m))
		return -1;
	if (!m->o.check)
		return 0;
	m->ncache = MSUM_SLOTS;
	if (!(m->cfirst = rd_alloc(r, s, MSUM_SLOTS, sizeof(*m->cfirst))) ||
	    !(m->clast = rd_alloc(r, s, MSUM_SLOTS, sizeof(*m->clast))))
		return -1;
	return read_cache(r, s, m, 1) || read_cache(r, s, m, 0) || read_findings(r, s, m) ? -1 : 0;
}

/* The whole file into memory, at most max bytes: its bytes (*len), or
 * NULL after a message. */
static char *slurp(const char *path, uint64_t max, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0;
	char *buf = NULL, *nb;
	const char *why = NULL;

	if (!f) {
		fprintf(stderr, "gbpdump: --merge: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (!buf || n == cap) {
			cap = !buf ? cap : cap > max / 2 ? (size_t)max + 1 : cap * 2;
			if (!(nb = realloc(buf, cap))) {
				why = "out of memory";
				break;
			}
			buf = nb;
		}
		n += fread(buf + n, 1, cap - n, f);
		if (n > max) {
			why = "larger than --merge-max-size";
			break;
		}
		if (n < cap)
			break;
	}
	if (ferror(f))
		why = strerror(errno);
	fclose(f);
	if (why) {
		if (n > max)
			fprintf(stderr, "gbpdump: --merge: %s: larger than %llu bytes (a summary "
				"this large needs --merge-max-size)\n", path,
				(unsigned long long)max);
		else
			fprintf(stderr, "gbpdump: --merge: %s: %s\n", path, why);
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

int msum_read(struct msum *m, const char *path, uint64_t max)
{
	struct rd r = { path, 0 };
	char err[JERR_MAX];
	size_t len, eoff, row;
	char *text = slurp(path, max, &len);
	struct jv *doc;
	const struct jv *s;
	const char *what;
	int rc;

	memset(m, 0, sizeof(*m));
	if (!text)
		return -2;
	if ((rc = jparse(text, len, &doc, err, &eoff)) < 0) {
		if (eoff != SIZE_MAX)
			fprintf(stderr, "gbpdump: --merge: %s: byte %zu: %s\n", path, eoff, err);
		else
			fprintf(stderr, "gbpdump: --merge: %s: not read (%s)\n", path, err);
	} else if (!(s = jget(doc, "summary")) || s->t != J_OBJ) {
		fprintf(stderr, "gbpdump: --merge: %s: no \"summary\" object (write it with "
			"--stats --json or --check --json)\n", path);
		rc = -1;
	} else if (!(rc = read_summary(&r, s, m)) && (what = msum_unordered(m, &row))) {
		fprintf(stderr, "gbpdump: --merge: %s: summary.%s[%zu]: a key out of order or "
			"twice (a summary lists each key once, in order)\n", path, what, row);
		rc = -1;
	}
	jfree(doc);
	free(text);
	return rc;
}
