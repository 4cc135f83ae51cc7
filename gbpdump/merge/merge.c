// SPDX-License-Identifier: BSD-2-Clause
/*
 * merge.c - mergeable summaries (merge.h, docs/merge.md): made from a run,
 * appended one capture after another, printed as the run over all of them
 * would print --stats or --check.
 *
 * Appending b after a: counters add; b's frame numbers move up by a's
 * frames.  The tracker's entries of one key combine, and what one run
 * would have found at the boundary is judged, by libvxgbp: a key's entries
 * by vxgbp_track_entry_append (gbp.group-conflict, gbp.flow-group-change),
 * a cache slot's first frame in b against what a left in it by
 * vxgbp_track_cache_judge (gbp.policy-reapplied,
 * gbp.policy-applied-cleared).  This file counts and describes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

void msum_free(struct msum *m)
{
	for (size_t i = 0; i < m->nin; i++)
		free(m->in[i].name);
	free(m->in);
	free(m->o.filter);
	free(m->vnis);
	free(m->groups);
	free(m->mirrors);
	free(m->pairs);
	free(m->eps);
	free(m->flows);
	free(m->cfirst);
	free(m->clast);
	free(m->error);
	free(m->find);
	memset(m, 0, sizeof(*m));
}

/* ---- keys in order ---- */

static int count_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_count *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static int u_cmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int ep_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_entry *x = a, *y = b;
	int c;

	if ((c = u_cmp(x->vni, y->vni)) || (c = u_cmp(x->family, y->family)))
		return c;
	return memcmp(x->addr, y->addr, 16);
}

static int pair_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_entry *x = a, *y = b;
	int c = u_cmp(x->src_group, y->src_group);

	return c ? c : ep_cmp(a, b);
}

static int flow_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_entry *x = a, *y = b;
	int c;

	if ((c = ep_cmp(a, b)) || (c = u_cmp(x->proto, y->proto)) ||
	    (c = u_cmp(x->sport, y->sport)) || (c = u_cmp(x->dport, y->dport)))
		return c;
	return memcmp(x->addr2, y->addr2, 16);
}

static int find_cmp(const void *a, const void *b)
{
	const struct msum_find *x = a, *y = b;

	return x->level != y->level ? (x->level < y->level ? -1 : 1) : u_cmp(x->rule, y->rule);
}

/* Whether the n elements of v are in strictly increasing cmp order; the
 * first that is not into *row. */
static int ascending(const void *v, size_t n, size_t size,
		     int (*cmp)(const void *, const void *), size_t *row)
{
	const unsigned char *b = v;

	for (size_t i = 1; i < n; i++)
		if (cmp(b + (i - 1) * size, b + i * size) >= 0) {
			*row = i;
			return 0;
		}
	return 1;
}

const char *msum_unordered(const struct msum *m, size_t *row)
{
	if (!ascending(m->vnis, m->nvnis, sizeof(*m->vnis), count_cmp, row))
		return "vnis";
	if (!ascending(m->groups, m->ngroups, sizeof(*m->groups), count_cmp, row))
		return "groups";
	if (!ascending(m->mirrors, m->nmirrors, sizeof(*m->mirrors), count_cmp, row))
		return "mirrors";
	if (!ascending(m->pairs, m->npairs, sizeof(*m->pairs), pair_cmp, row))
		return "pairs";
	if (!ascending(m->eps, m->neps, sizeof(*m->eps), ep_cmp, row))
		return "endpoints";
	if (!ascending(m->flows, m->nflows, sizeof(*m->flows), flow_cmp, row))
		return "flows";
	if (!ascending(m->find, m->nfind, sizeof(*m->find), find_cmp, row))
		return "findings";
	return NULL;
}

/*
 * The tracker's tables come out in hash order; a diverse capture has tens
 * of thousands of pairs and endpoints, and qsort through an indirect
 * compare cost more than the rest of the summary.  So each pair or
 * endpoint gets a key of three words that sorts, word by word unsigned,
 * as pair_cmp or ep_cmp does (the address as big-endian words: memcmp's
 * order), and the keys are merge-sorted with the compare inline.  Flows
 * (--check only, fewer) keep qsort.
 */
struct skey {
	uint64_t w0, w1, w2; /* group, VNI, family; the address */
	uint64_t i;          /* the entry's place before sorting */
};

static uint64_t be_word(const uint8_t *a)
{
	uint64_t v = 0;

	for (int k = 0; k < 8; k++)
		v = v << 8 | a[k];
	return v;
}

_Static_assert(VXGBP_GROUP_NONE < (1u << 24) && VXGBP_VNI_MAX < (1u << 24),
	       "skey_of: group, VNI and family in one word, in that order");

/* ep_cmp's order: vni, family, addr; pair_cmp's: src_group first */
static void skey_of(struct skey *k, const struct vxgbp_track_entry *e, int pair, size_t i)
{
	k->w0 = (pair ? (uint64_t)e->src_group << 40 : 0) | (uint64_t)e->vni << 8 | e->family;
	k->w1 = be_word(e->addr);
	k->w2 = be_word(e->addr + 8);
	k->i = i;
}

static inline int skey_le(const struct skey *x, const struct skey *y)
{
	if (x->w0 != y->w0)
		return x->w0 < y->w0;
	if (x->w1 != y->w1)
		return x->w1 < y->w1;
	return x->w2 <= y->w2;
}

/* Sort a[0, n) through tmp (n keys): top-down merge sort, insertion sort
 * below 16. */
static void skey_sort(struct skey *a, struct skey *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, o = 0;

	if (n < 16) {
		for (size_t x = 1; x < n; x++) {
			struct skey v = a[x];
			size_t y = x;

			for (; y > 0 && !skey_le(&a[y - 1], &v); y--)
				a[y] = a[y - 1];
			a[y] = v;
		}
		return;
	}
	skey_sort(a, tmp, h);
	skey_sort(a + h, tmp, n - h);
	if (skey_le(&a[h - 1], &a[h]))
		return;
	while (i < h && j < n) {
		const struct skey *s = skey_le(&a[i], &a[j]) ? &a[i++] : &a[j++];

		tmp[o++] = *s;
	}
	while (i < h)
		tmp[o++] = a[i++];
	/* what is left of a[h, n) is already in place */
	for (size_t x = 0; x < o; x++)
		a[x] = tmp[x];
}

/* Sort the n entries of *v as cmp orders them (keys unique: a table's);
 * 0, or -1 (memory). */
static int entries_sort(struct vxgbp_track_entry **v, size_t n,
			int (*cmp)(const void *, const void *))
{
	struct skey *k;
	struct vxgbp_track_entry *out;

	if (cmp == flow_cmp) {
		qsort(*v, n, sizeof(**v), cmp);
		return 0;
	}
	k = malloc(2 * n * sizeof(*k));
	out = malloc(n * sizeof(*out));
	if (!k || !out) {
		free(k);
		free(out);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		skey_of(&k[i], &(*v)[i], cmp == pair_cmp, i);
	skey_sort(k, k + n, n);
	for (size_t i = 0; i < n; i++)
		out[i] = (*v)[k[i].i];
	free(k);
	free(*v);
	*v = out;
	return 0;
}

/* ---- from a run ---- */

/* Every entry of kind into *out (sorted by cmp: ep_cmp, pair_cmp or
 * flow_cmp): 0, or -1 (memory). */
static int entries(const struct vxgbp_track *t, enum vxgbp_track_kind kind,
		   struct vxgbp_track_entry **out, size_t *n,
		   int (*cmp)(const void *, const void *))
{
	struct vxgbp_track_entry e, *nv;
	size_t it = 0, cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = vxgbp_track_next(t, kind, &it, &e)) == 1) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			if (!(nv = realloc(*out, cap * sizeof(*nv))))
				return -1;
			*out = nv;
		}
		(*out)[(*n)++] = e;
	}
	if (rc < 0 || (*n > 1 && entries_sort(out, *n, cmp) < 0))
		return -1;
	return 0;
}

/* The frames per mirror, keyed as MSUM_MIRROR_KEY. */
static int mirrors_from(const struct vxgbp_track *t, const struct vxgbp_track_summary *s,
			struct msum *m)
{
	struct vxgbp_track_mirror *v = calloc(s->mirrors ? s->mirrors : 1, sizeof(*v));
	int n = v ? vxgbp_track_mirrors(t, v, s->mirrors) : -1;

	if (n < 0 || !(m->mirrors = calloc(n ? (size_t)n : 1, sizeof(*m->mirrors)))) {
		free(v);
		return -1;
	}
	for (int i = 0; i < n; i++)
		m->mirrors[i] = (struct vxgbp_track_count){ MSUM_MIRROR_KEY(v[i].kind, v[i].id),
							    v[i].frames, v[i].bytes };
	m->nmirrors = (size_t)n;
	m->d_mirrors = s->dropped_mirrors;
	m->d_mirror_bytes = s->dropped_mirror_bytes;
	free(v);
	return 0;
}

static int counts_from(const struct vxgbp_track *t, struct msum *m)
{
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	struct vxgbp_track_entry *v;
	size_t nv;

	vxgbp_track_summary(t, &s);
	m->frames = s.frames;
	m->bytes = s.bytes;
	m->vxlan = s.vxlan;
	m->gbp = s.gbp;
	m->other = s.other;
	m->unparsed = s.unparsed;
	m->d_eps = s.dropped_endpoints;
	m->d_flows = s.dropped_flows;
	m->d_vnis = s.dropped_vnis;
	m->d_pairs = s.dropped_pairs;
	m->d_pair_bytes = s.dropped_pair_bytes;
	m->approx_budget = s.full ? 1 : 0;
	if (entries(t, VXGBP_ENT_VNI, &v, &nv, ep_cmp) < 0 ||
	    !(m->vnis = calloc(nv ? nv : 1, sizeof(*m->vnis))) ||
	    !(m->groups = calloc(s.groups ? s.groups : 1, sizeof(*m->groups)))) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < nv; i++)
		m->vnis[i] = (struct vxgbp_track_count){ v[i].vni, v[i].frames, v[i].bytes };
	m->nvnis = nv;
	free(v);
	if (s.groups) {
		int ng = vxgbp_track_groups(t, m->groups, s.groups);

		if (ng < 0)
			return -1;
		m->ngroups = (size_t)ng;
	}
	return mirrors_from(t, &s, m);
}

static int cache_from(const struct vxgbp_track *t, struct msum *m)
{
	struct vxgbp_track_cached c;
	size_t it;
	int rc;

	m->ncache = MSUM_SLOTS;
	if (!(m->cfirst = calloc(MSUM_SLOTS, sizeof(*m->cfirst))) ||
	    !(m->clast = calloc(MSUM_SLOTS, sizeof(*m->clast))))
		return -1;
	for (it = 0; (rc = vxgbp_track_cache_next(t, 1, &it, &c)) == 1;)
		if (c.slot < MSUM_SLOTS)
			m->cfirst[c.slot] = c;
	if (rc == VXGBP_E_NOSPACE) /* first sightings lost: a merge cannot be exact */
		m->approx_budget = 1;
	for (it = 0; vxgbp_track_cache_next(t, 0, &it, &c) == 1;)
		if (c.slot < MSUM_SLOTS)
			m->clast[c.slot] = c;
	return 0;
}

static int findings_from(const struct gd_check *c, struct msum *m)
{
	struct check_rule cr;
	unsigned it = 0;
	size_t cap = 0;

	while (check_rule_next(c, &it, &cr)) {
		for (int l = 0; l < 3; l++) {
			struct msum_find *f, *nf;

			if (!cr.count[l])
				continue;
			if (m->nfind == cap) {
				cap = cap ? cap * 2 : 16;
				if (!(nf = realloc(m->find, cap * sizeof(*nf))))
					return -1;
				m->find = nf;
			}
			f = &m->find[m->nfind++];
			memset(f, 0, sizeof(*f));
			f->rule = cr.rule;
			f->level = l;
			f->count = cr.count[l];
			f->n = cr.n_first[l];
			for (unsigned i = 0; i < f->n; i++) {
				f->first[i].frame = cr.first[l][i].frame;
				f->first[i].off = cr.first[l][i].off;
				f->first[i].tie = 1;
				snprintf(f->first[i].what, sizeof(f->first[i].what), "%s",
					 cr.first[l][i].what);
			}
		}
	}
	if (m->nfind)
		qsort(m->find, m->nfind, sizeof(*m->find), find_cmp);
	return 0;
}

static int opts_from(struct msum_opts *p, const struct msum_run *r, int check)
{
	p->check = check;
	snprintf(p->profile, sizeof(p->profile), "%s", check && r->profile ? r->profile
						       : check ? "strict" : "");
	p->checksums = check && !r->no_csum;
	p->budget = r->budget;
	p->vni = r->vni;
	p->gbp = r->gbp;
	p->fabric = r->fabric;
	if (r->filter && !(p->filter = strdup(r->filter)))
		return -1;
	return msum_file_hash(p->groups, r->gfile) || msum_file_hash(p->policy, r->pfile) ? -1 : 0;
}

/* Keep what the summary's own mode tracks, nothing a wider tracker also
 * holds: with --report the tracker runs the matrix and the rules together,
 * and `--stats --json --report` must print the summary `--stats --json`
 * prints (tests/report/cli.sh).  --stats: VNI and group counts, pairs and
 * the endpoints the matrix learned from (their group); --check: the rules'
 * endpoints (first and last sightings), flows and cache. */
static void mode_only(struct msum *m, int check)
{
	size_t k = 0;

	for (size_t i = 0; i < m->neps; i++) {
		struct vxgbp_track_entry *e = &m->eps[i];

		if (check ? !e->first_frame && !e->last_frame : e->learned == VXGBP_GROUP_UNKNOWN)
			continue; /* only the other mode's table has it */
		if (check) {
			e->learned = VXGBP_GROUP_UNKNOWN;
		} else {
			e->first_frame = e->last_frame = 0;
			e->first_group = e->last_group = e->last_flags = 0;
			e->first_off = -1;
		}
		m->eps[k++] = *e;
	}
	m->neps = k;
	if (check) {
		m->nvnis = m->ngroups = m->npairs = m->nmirrors = 0;
		m->d_mirrors = m->d_mirror_bytes = 0;
	}
	else
		m->nflows = 0;
}

int msum_from_run(struct msum *m, const struct msum_run *r, const struct vxgbp_track *t,
		  const struct gd_check *c)
{
	const char *base;

	memset(m, 0, sizeof(*m));
	m->version = MSUM_VERSION;
	/* the file's name without its folder: a summary says the same wherever
	 * the capture lies (the folder is the runner's business) */
	base = r->input ? strrchr(r->input, '/') : NULL;
	base = base && base[1] ? base + 1 : r->input ? r->input : "-";
	if (!(m->in = calloc(1, sizeof(*m->in))) || !(m->in[0].name = strdup(base)))
		goto oom;
	m->nin = 1;
	m->in[0].linktype = r->linktype;
	m->in[0].records = m->records = r->records;
	if (r->error && !(m->error = strdup(r->error)))
		goto oom;
	if (opts_from(&m->o, r, c != NULL) < 0)
		return -1;
	if (c) {
		struct check_totals tt;

		check_totals(c, &tt);
		m->unjudged = tt.unjudged;
		m->unjudged_mac = tt.unjudged_mac;
		snprintf(m->o.profile, sizeof(m->o.profile), "%s", tt.profile);
	}
	if (counts_from(t, m) < 0 ||
	    entries(t, VXGBP_ENT_PAIR, &m->pairs, &m->npairs, pair_cmp) < 0 ||
	    entries(t, VXGBP_ENT_ENDPOINT, &m->eps, &m->neps, ep_cmp) < 0 ||
	    entries(t, VXGBP_ENT_FLOW, &m->flows, &m->nflows, flow_cmp) < 0 ||
	    (c && (cache_from(t, m) < 0 || findings_from(c, m) < 0)))
		goto oom;
	mode_only(m, c != NULL);
	return 0;
oom:
	fprintf(stderr, "gbpdump: out of memory\n");
	return -1;
}

/* ---- appending ---- */

/* What an append needs besides the two summaries. */
struct app {
	struct msum *a;
	uint64_t off;        /* a's frames: b's frame numbers move up by this */
	struct gd_check *lv; /* the profile's levels */
	int oom;
	int range;           /* a count or frame number past 2^64-1 */
};

/* *x += y, or p->range set and *x left: a merged count never wraps. */
static void add_u64(struct app *p, uint64_t *x, uint64_t y)
{
	if (__builtin_add_overflow(*x, y, x))
		p->range = 1;
}

static int rule_level(const struct gd_check *c, unsigned rule)
{
	struct check_rule cr;
	unsigned it = rule;

	if (!check_rule_next(c, &it, &cr) || cr.rule != rule)
		return CHECK_OFF;
	return cr.level; /* CHECK_OFF: not judged under the profile */
}

/* The finding (rule, level) of a, made when new. */
static struct msum_find *find_get(struct app *p, unsigned rule, int level)
{
	struct msum *a = p->a;
	struct msum_find *nf;

	for (size_t i = 0; i < a->nfind; i++)
		if (a->find[i].rule == rule && a->find[i].level == level)
			return &a->find[i];
	if (!(nf = realloc(a->find, (a->nfind + 1) * sizeof(*nf)))) {
		p->oom = 1;
		return NULL;
	}
	a->find = nf;
	nf = &a->find[a->nfind++];
	memset(nf, 0, sizeof(*nf));
	nf->rule = rule;
	nf->level = level;
	return nf;
}

/* Keep oc among f's first occurrences if it is early enough, in (frame,
 * tie) order. */
static void occ_insert(struct msum_find *f, const struct msum_occ *oc)
{
	unsigned i = 0;

	while (i < f->n && (f->first[i].frame < oc->frame ||
			    (f->first[i].frame == oc->frame && f->first[i].tie <= oc->tie)))
		i++;
	if (i >= CHECK_FIRST)
		return;
	if (f->n == CHECK_FIRST)
		f->n--;
	memmove(&f->first[i + 1], &f->first[i], (f->n - i) * sizeof(f->first[0]));
	f->first[i] = *oc;
	f->n++;
}

/* A finding one run makes at a boundary: counted, and kept if early. */
static void boundary(struct app *p, unsigned rule, const struct msum_occ *oc)
{
	int level = rule_level(p->lv, rule);
	struct msum_find *f;

	if (level == CHECK_OFF || !(f = find_get(p, rule, level)))
		return;
	f->count++;
	occ_insert(f, oc);
}

/* A cross-frame rule's description names the frame it compares with
 * ("frame N had", "at frame N"): N moves up by off. */
static void shift_what(char *what, size_t n, uint64_t off)
{
	char *at = strstr(what, "frame "), rest[128];
	unsigned long long fr;
	char *end;

	if (!at)
		return;
	fr = strtoull(at + 6, &end, 10);
	if (end == at + 6)
		return;
	snprintf(rest, sizeof(rest), "%s", end);
	snprintf(at, n - (size_t)(at - what), "frame %llu%s", fr + off, rest);
}

static int cross_rule(unsigned r)
{
	return r == VXGBP_R_POLICY_REAPPLIED || r == VXGBP_R_A_CLEARED ||
	       r == VXGBP_R_GROUP_CONFLICT || r == VXGBP_R_FLOW_GROUP_CHANGE;
}

/* b's own findings, moved up by p->off, into a. */
static void own_findings(struct app *p, const struct msum *b)
{
	for (size_t i = 0; i < b->nfind; i++) {
		const struct msum_find *g = &b->find[i];
		struct msum_find *f = find_get(p, g->rule, g->level);

		if (!f)
			return;
		add_u64(p, &f->count, g->count);
		for (unsigned j = 0; j < g->n; j++) {
			struct msum_occ oc = g->first[j];

			add_u64(p, &oc.frame, p->off);
			oc.tie = 1;
			if (cross_rule(g->rule))
				shift_what(oc.what, sizeof(oc.what), p->off);
			occ_insert(f, &oc);
		}
	}
}

/* The name of an endpoint key for a description: MAC or address. */
static void key_name(char *buf, size_t n, unsigned family, const uint8_t *a)
{
	if (family == 0)
		vxgbp_mac_format(buf, n, a);
	else
		vxgbp_addr_format(buf, n, a, family == 6 ? 16 : 4);
}

/* The description of a group change libvxgbp found between x (a's) and
 * y's first sighting (b's, whose frames move up by off). */
static void change_occ(struct msum_occ *oc, const struct vxgbp_track_entry *x,
		       const struct vxgbp_track_entry *y, uint64_t off, int flow)
{
	char s1[48], s2[48];

	oc->frame = y->first_frame + off;
	oc->off = y->first_off;
	key_name(s1, sizeof(s1), x->family, x->addr);
	if (flow) {
		key_name(s2, sizeof(s2), x->family, x->addr2);
		snprintf(oc->what, sizeof(oc->what), "flow %s.%u > %s.%u proto %u: ID %u at frame "
			 "%llu, now ID %u", s1, y->first_sport, s2, y->first_dport, x->proto,
			 x->last_group, (unsigned long long)x->last_frame, y->first_group);
		oc->tie = 1;
	} else {
		snprintf(oc->what, sizeof(oc->what), "source %s: ID %u at frame %llu, now ID %u", s1,
			 x->last_group, (unsigned long long)x->last_frame, y->first_group);
		oc->tie = x->family == 0 ? 0 : 2;
	}
}

/* How two entries of one key combine. */
enum ekind { EK_COUNT, EK_PAIR, EK_EP, EK_FLOW };

/* x (of a, may be NULL) and y (of b) of one key into out, as libvxgbp
 * appends them; the rule it finds at the boundary, counted. */
static void combine(struct app *p, enum ekind k, void *out, const void *x, const void *y)
{
	static const enum vxgbp_track_kind kinds[] = {
		[EK_PAIR] = VXGBP_ENT_PAIR, [EK_EP] = VXGBP_ENT_ENDPOINT, [EK_FLOW] = VXGBP_ENT_FLOW,
	};
	struct msum_occ oc = { 0 };
	int rule;

	if (k == EK_COUNT) {
		const struct vxgbp_track_count *cy = y;
		struct vxgbp_track_count *co = out;

		*co = x ? *(const struct vxgbp_track_count *)x : (struct vxgbp_track_count){ cy->key, 0, 0 };
		add_u64(p, &co->frames, cy->frames);
		add_u64(p, &co->bytes, cy->bytes);
		return;
	}
	if ((rule = vxgbp_track_entry_append(out, x, y, kinds[k], p->off)) < 0) {
		p->range = 1;
		return;
	}
	if (rule) {
		change_occ(&oc, x, y, p->off, k == EK_FLOW);
		boundary(p, (unsigned)rule, &oc);
	}
}

/* Sorted *xa (nx) and y (ny) into a new sorted array in *xa, combined. */
static int merge_sorted(struct app *p, void **xa, size_t *nx, const void *y, size_t ny,
			size_t size, int (*cmp)(const void *, const void *), enum ekind k)
{
	const unsigned char *xs = *xa, *ys = y;
	unsigned char *o = malloc((*nx + ny ? *nx + ny : 1) * size);
	size_t i = 0, j = 0, n = 0;

	if (!o)
		return -1;
	while (i < *nx || j < ny) {
		int c = i >= *nx ? 1 : j >= ny ? -1 : cmp(xs + i * size, ys + j * size);

		if (c < 0)
			memcpy(o + n * size, xs + i++ * size, size);
		else if (c > 0)
			combine(p, k, o + n * size, NULL, ys + j++ * size);
		else
			combine(p, k, o + n * size, xs + i++ * size, ys + j++ * size);
		n++;
	}
	free(*xa);
	*xa = o;
	*nx = n;
	return 0;
}

/* The cache: each slot's first frame in b judged against what a left in
 * it; a's last content replaced by b's where b used the slot. */
static void cache_append(struct app *p, const struct msum *b)
{
	struct msum *a = p->a;

	for (size_t i = 0; i < a->ncache && i < b->ncache; i++) {
		struct vxgbp_track_cached cur = b->cfirst[i];
		const struct vxgbp_track_cached *prev = &a->clast[i];
		unsigned rule;

		if (!cur.frame)
			continue;
		add_u64(p, &cur.frame, p->off);
		if ((rule = vxgbp_track_cache_judge(prev, &cur))) {
			struct msum_occ oc = { cur.frame, cur.off, 1, "" };

			if (rule == VXGBP_R_POLICY_REAPPLIED)
				snprintf(oc.what, sizeof(oc.what), "frame %llu had ID %u A=%d; now ID "
					 "%u A=%d", (unsigned long long)prev->frame, prev->group,
					 (prev->flags & VXGBP_F_A) != 0, cur.group,
					 (cur.flags & VXGBP_F_A) != 0);
			else
				snprintf(oc.what, sizeof(oc.what), "frame %llu had A=1 (ID %u); now "
					 "flags 0x%04x ID %u", (unsigned long long)prev->frame,
					 prev->group, cur.flags, cur.group);
			boundary(p, rule, &oc);
			/* one run skips this frame's endpoint and flow updates */
			if (cur.flags & VXGBP_F_G)
				a->approx_cache++;
		}
		if (!a->cfirst[i].frame)
			a->cfirst[i] = cur;
		if (b->clast[i].frame) {
			a->clast[i] = b->clast[i];
			add_u64(p, &a->clast[i].frame, p->off);
		}
	}
}

static int same_opts(const struct msum_opts *x, const struct msum_opts *y)
{
	return x->check == y->check && !strcmp(x->profile, y->profile) &&
	       x->checksums == y->checksums && x->budget == y->budget &&
	       !strcmp(x->groups, y->groups) && !strcmp(x->policy, y->policy) &&
	       !strcmp(x->filter ? x->filter : "", y->filter ? y->filter : "") &&
	       !x->filter == !y->filter && x->vni == y->vni && x->gbp == y->gbp &&
	       x->fabric == y->fabric;
}

static int append_inputs(struct msum *a, const struct msum *b)
{
	struct msum_input *ni = realloc(a->in, (a->nin + b->nin) * sizeof(*ni));

	if (!ni)
		return -1;
	a->in = ni;
	for (size_t i = 0; i < b->nin; i++) {
		ni[a->nin] = b->in[i];
		if (!(ni[a->nin].name = strdup(b->in[i].name)))
			return -1;
		a->nin++;
	}
	return 0;
}

/* The run's totals: a's plus b's, each checked (p->range). */
static void add_numbers(struct app *p, struct msum *a, const struct msum *b)
{
#define ADD(f) add_u64(p, &a->f, b->f)
	ADD(records); ADD(frames); ADD(bytes); ADD(vxlan); ADD(gbp); ADD(other);
	ADD(unparsed); ADD(unjudged); ADD(d_eps); ADD(d_flows); ADD(d_vnis); ADD(d_pairs);
	ADD(d_pair_bytes); ADD(approx_cache); ADD(approx_budget); ADD(d_mirrors);
	ADD(d_mirror_bytes); ADD(unjudged_mac);
#undef ADD
}

int msum_append(struct msum *a, const struct msum *b, const char *path)
{
	struct app p = { a, a->records, NULL, 0, 0 };
	int rc = -1;

	if (!same_opts(&a->o, &b->o)) {
		fprintf(stderr, "gbpdump: --merge: %s: made with other options than the summaries "
			"before it (mode, --profile, --no-checksums, --track-budget, --groups and "
			"--policy files, filter, --vni, --gbp, --fabric-header): not merged\n", path);
		return -1;
	}
	if (a->o.check && !(p.lv = check_new(a->o.profile, !a->o.checksums)))
		goto oom;
	if (merge_sorted(&p, (void **)&a->vnis, &a->nvnis, b->vnis, b->nvnis, sizeof(*a->vnis),
			 count_cmp, EK_COUNT) < 0 ||
	    merge_sorted(&p, (void **)&a->groups, &a->ngroups, b->groups, b->ngroups,
			 sizeof(*a->groups), count_cmp, EK_COUNT) < 0 ||
	    merge_sorted(&p, (void **)&a->mirrors, &a->nmirrors, b->mirrors, b->nmirrors,
			 sizeof(*a->mirrors), count_cmp, EK_COUNT) < 0 ||
	    merge_sorted(&p, (void **)&a->pairs, &a->npairs, b->pairs, b->npairs,
			 sizeof(*a->pairs), pair_cmp, EK_PAIR) < 0 ||
	    merge_sorted(&p, (void **)&a->eps, &a->neps, b->eps, b->neps, sizeof(*a->eps),
			 ep_cmp, EK_EP) < 0 ||
	    merge_sorted(&p, (void **)&a->flows, &a->nflows, b->flows, b->nflows,
			 sizeof(*a->flows), flow_cmp, EK_FLOW) < 0)
		goto oom;
	if (a->o.check) {
		own_findings(&p, b);
		cache_append(&p, b);
	}
	add_numbers(&p, a, b);
	if (!a->error && b->error && !(a->error = strdup(b->error)))
		p.oom = 1;
	if (p.range) {
		fprintf(stderr, "gbpdump: --merge: %s: a count or frame number past 2^64-1 once "
			"merged: not merged\n", path);
		rc = -2;
		goto out;
	}
	if (p.oom || append_inputs(a, b) < 0)
		goto oom;
	if (a->nfind)
		qsort(a->find, a->nfind, sizeof(*a->find), find_cmp);
	rc = 0;
	goto out;
oom:
	fprintf(stderr, "gbpdump: --merge: %s: out of memory\n", path);
	rc = -2;
out:
	check_free(p.lv);
	return rc;
}

/* ---- printing ---- */

#include "stats.h"

static void tail_summary(void *ctx, struct gd_out *o)
{
	msum_write(ctx, o);
}

static int cell_cmp(const void *a, const void *b)
{
	const struct vxgbp_track_cell *x = a, *y = b;

	return x->src != y->src ? u_cmp(x->src, y->src) : u_cmp(x->dst, y->dst);
}

/* The matrix: each pair's destination resolved through the endpoints
 * (what it last sent GBP with), equal cells summed.  The cells, -1 when
 * memory ran out, -2 when a sum would pass 2^64-1 (the pairs of a
 * summary made by hand need not add up to its frames). */
static int matrix_of(const struct msum *m, struct vxgbp_track_cell **out)
{
	struct vxgbp_track_cell *c = calloc(m->npairs ? m->npairs : 1, sizeof(*c));
	size_t w = 0;

	if (!(*out = c))
		return -1;
	for (size_t i = 0; i < m->npairs; i++) {
		const struct vxgbp_track_entry *pe = &m->pairs[i], *ep;

		ep = bsearch(pe, m->eps, m->neps, sizeof(*m->eps), ep_cmp);
		c[i] = (struct vxgbp_track_cell){ pe->src_group,
						  ep ? ep->learned : VXGBP_GROUP_UNKNOWN,
						  pe->frames, pe->bytes };
	}
	if (m->npairs)
		qsort(c, m->npairs, sizeof(*c), cell_cmp);
	for (size_t i = 0; i < m->npairs; i++) {
		if (w && c[w - 1].src == c[i].src && c[w - 1].dst == c[i].dst) {
			if (__builtin_add_overflow(c[w - 1].frames, c[i].frames, &c[w - 1].frames) ||
			    __builtin_add_overflow(c[w - 1].bytes, c[i].bytes, &c[w - 1].bytes)) {
				free(c);
				*out = NULL;
				return -2;
			}
		} else {
			c[w++] = c[i];
		}
	}
	return (int)w;
}

/* The line text output gets when the merge is not exact. */
static void approx_line(const struct msum *m, struct gd_out *o)
{
	if (m->approx_cache || m->approx_budget)
		out_printf(o, "\nmerge: approximate: %llu policy re-sighting%s across an input "
			   "boundary (one run skips the endpoint and flow updates there), %llu "
			   "input%s with full tables (docs/merge.md)\n",
			   (unsigned long long)m->approx_cache, m->approx_cache == 1 ? "" : "s",
			   (unsigned long long)m->approx_budget, m->approx_budget == 1 ? "" : "s");
}

/* The summary's mirrors as the tracker gives them, and their totals.
 * 0, -1 when memory ran out, -2 when a total would pass 2^64-1 (tb->m is
 * then the caller's to free). */
static int mirrors_of(const struct msum *m, struct stats_tables *tb)
{
	if (!(tb->m = calloc(m->nmirrors ? m->nmirrors : 1, sizeof(*tb->m))))
		return -1;
	tb->s.mirror_frames = m->d_mirrors;
	tb->s.mirror_bytes = m->d_mirror_bytes;
	for (size_t i = 0; i < m->nmirrors; i++) {
		const struct vxgbp_track_count *c = &m->mirrors[i];

		tb->m[i] = (struct vxgbp_track_mirror){ c->key >> 24, c->key & MSUM_MIRROR_ID_MAX,
							c->frames, c->bytes };
		if (__builtin_add_overflow(tb->s.mirror_frames, c->frames, &tb->s.mirror_frames) ||
		    __builtin_add_overflow(tb->s.mirror_bytes, c->bytes, &tb->s.mirror_bytes))
			return -2;
	}
	tb->nm = (int)m->nmirrors;
	tb->s.mirrors = m->nmirrors;
	tb->s.dropped_mirrors = m->d_mirrors;
	tb->s.dropped_mirror_bytes = m->d_mirror_bytes;
	return 0;
}

static int print_stats(const struct msum *m, struct gd_out *o, int json,
		       const struct vxgbp_groups *groups, const struct vxgbp_policy *policy)
{
	struct stats_tables tb = { 0 };
	struct stats_tail tail = { tail_summary, (void *)m };
	int nc = matrix_of(m, &tb.c);

	if (nc == -2)
		fprintf(stderr, "gbpdump: --merge: a cell of the group matrix passes 2^64-1 "
			"frames or bytes: not merged\n");
	if (nc < 0)
		return nc;
	tb.s.frames = m->frames;
	tb.s.bytes = m->bytes;
	tb.s.vxlan = m->vxlan;
	tb.s.gbp = m->gbp;
	tb.s.other = m->other;
	tb.s.unparsed = m->unparsed;
	tb.v = m->vnis;
	tb.g = m->groups;
	tb.nv = (int)m->nvnis;
	tb.ng = (int)m->ngroups;
	tb.nc = nc;
	tb.error = m->error;
	if ((nc = mirrors_of(m, &tb)) < 0) {
		if (nc == -2)
			fprintf(stderr, "gbpdump: --merge: the frames through mirrors pass 2^64-1 "
				"frames or bytes: not merged\n");
		free(tb.c);
		free(tb.m);
		return nc;
	}
	stats_print_tables(&tb, o, groups, json, policy, json ? &tail : NULL);
	if (!json)
		approx_line(m, o);
	free(tb.c);
	free(tb.m);
	return 0;
}

/* The tracker's summary numbers check_report() prints. */
static void track_sum(const struct msum *m, struct vxgbp_track_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->frames = m->frames;
	s->bytes = m->bytes;
	s->vxlan = m->vxlan;
	s->gbp = m->gbp;
	s->other = m->other;
	s->unparsed = m->unparsed;
	s->endpoints = m->neps;
	s->flows = m->nflows;
	s->dropped_endpoints = m->d_eps;
	s->dropped_flows = m->d_flows;
	s->dropped_vnis = m->d_vnis;
	s->dropped_pairs = m->d_pairs;
	s->dropped_pair_bytes = m->d_pair_bytes;
}

static int print_check(const struct msum *m, struct gd_out *o, int json)
{
	struct gd_check *c = check_new(m->o.profile, !m->o.checksums);
	struct vxgbp_track_summary s = { .size = sizeof(s) };
	char limit[64];
	int rc;

	if (!c)
		return -1;
	for (size_t i = 0; i < m->nfind; i++) {
		const struct msum_find *f = &m->find[i];
		struct check_occ occ[CHECK_FIRST];

		for (unsigned j = 0; j < f->n; j++)
			occ[j] = (struct check_occ){ f->first[j].frame, 0, 0, 0, 0, f->first[j].off,
						     f->first[j].what };
		check_import(c, f->rule, f->level, f->count, occ, f->n);
	}
	check_import_unjudged(c, m->unjudged, m->unjudged_mac);
	if (m->error) /* a capture was cut short: no verdict, as its run gave none */
		check_set_error(c, 1, m->error);
	track_sum(m, &s);
	snprintf(limit, sizeof(limit), "track budget %llu bytes",
		 (unsigned long long)(m->o.budget ? m->o.budget : VXGBP_TRACK_BUDGET_DEFAULT));
	if (json)
		check_set_tail(c, tail_summary, (void *)m);
	rc = check_report(c, &s, limit, o, json);
	if (!json)
		approx_line(m, o);
	check_free(c);
	return rc;
}

/* ---- a run's summary ---- */

int merge_stats_run(const struct msum_run *r, const struct vxgbp_track *t, struct gd_out *o,
		    const struct vxgbp_groups *groups, const struct vxgbp_policy *policy)
{
	struct stats_tables tb = { 0 };
	struct stats_tail tail;
	struct msum m;
	int rc = -1;

	if (msum_from_run(&m, r, t, NULL) == 0 && stats_tables_get(t, &tb) == 0) {
		tail = (struct stats_tail){ tail_summary, &m };
		tb.error = r->error;
		stats_print_tables(&tb, o, groups, 1, policy, &tail);
		rc = 0;
	}
	stats_tables_free(&tb);
	msum_free(&m);
	return rc;
}

int merge_check_run(const struct msum_run *r, const struct vxgbp_track *t,
		    struct gd_check *c, const struct vxgbp_track_summary *s, const char *limit,
		    struct gd_out *o)
{
	struct msum m;
	int rc;

	if (msum_from_run(&m, r, t, c) < 0) {
		msum_free(&m);
		return 2;
	}
	check_set_tail(c, tail_summary, &m);
	rc = check_report(c, s, limit, o, 1);
	check_set_tail(c, NULL, NULL);
	msum_free(&m);
	return rc;
}

int msum_file_hash(char *buf, const char *path)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned char b[65536];
	size_t n;
	FILE *f;

	buf[0] = 0;
	if (!path)
		return 0;
	if (!(f = fopen(path, "rb"))) {
		fprintf(stderr, "gbpdump: %s: cannot read it again for the summary\n", path);
		return -1;
	}
	while ((n = fread(b, 1, sizeof(b), f)) > 0)
		for (size_t i = 0; i < n; i++)
			h = (h ^ b[i]) * 0x100000001b3ull;
	n = (size_t)ferror(f);
	fclose(f);
	if (n) {
		fprintf(stderr, "gbpdump: %s: read error\n", path);
		return -1;
	}
	snprintf(buf, 32, "fnv1a64:%016llx", (unsigned long long)h);
	return 0;
}

/* ---- gbpdump --merge ---- */

/* --groups / --policy of the merge against what the summaries were made
 * with.  0, or -1 after a message. */
static int hash_agrees(const char *what, const char *want, const char *file,
		       const char *first)
{
	char h[32];

	if (msum_file_hash(h, file) < 0)
		return -1;
	if (!strcmp(h, want))
		return 0;
	if (!*want)
		fprintf(stderr, "gbpdump: --merge: %s: made without %s; merge without it\n", first,
			what);
	else if (!file)
		fprintf(stderr, "gbpdump: --merge: %s: made with %s FILE: give the same %s FILE\n",
			first, what, what);
	else
		fprintf(stderr, "gbpdump: --merge: %s: made with another %s file than %s\n", first,
			what, file);
	return -1;
}

/* Every summary appended into *acc.  0, or the exit status. */
static int read_all(struct msum *acc, char **files, int nfiles, uint64_t max)
{
	for (int i = 0; i < nfiles; i++) {
		struct msum b;
		int rc;

		if ((rc = msum_read(i ? &b : acc, files[i], max)) < 0) {
			if (i)
				msum_free(&b);
			return rc == -2 ? 2 : 1; /* as gbpdump -r: I/O 2, data 1 */
		}
		if (!i)
			continue;
		rc = msum_append(acc, &b, files[i]);
		msum_free(&b);
		if (rc < 0)
			return rc == -2 ? 2 : 1;
	}
	return 0;
}

int merge_main(char **files, int nfiles, uint64_t max, int json, const char *gfile, const char *pfile,
	       const struct vxgbp_groups *groups, const struct vxgbp_policy *policy)
{
	struct msum acc;
	struct gd_out *o;
	int rc;

	if (nfiles < 1) {
		fprintf(stderr, "gbpdump: --merge: give the summaries to merge, in capture order\n");
		return 2;
	}
	memset(&acc, 0, sizeof(acc));
	if ((rc = read_all(&acc, files, nfiles, max))) {
		msum_free(&acc);
		return rc;
	}
	if (hash_agrees("--groups", acc.o.groups, gfile, files[0]) < 0 ||
	    hash_agrees("--policy", acc.o.policy, pfile, files[0]) < 0) {
		msum_free(&acc);
		return 2;
	}
	if (acc.o.check && *acc.o.policy) {
		fprintf(stderr, "gbpdump: --merge: %s: --check with --policy: the policy audit's "
			"flows are not in the summary; not merged\n", files[0]);
		msum_free(&acc);
		return 1;
	}
	if (!(o = malloc(sizeof(*o)))) {
		msum_free(&acc);
		fprintf(stderr, "gbpdump: out of memory\n");
		return 2;
	}
	out_init(o, 1);
	rc = acc.o.check ? print_check(&acc, o, json) : print_stats(&acc, o, json, groups, policy);
	if (rc == -1)
		fprintf(stderr, "gbpdump: out of memory\n");
	if (acc.error && rc >= 0) { /* as the run over the cut capture */
		fprintf(stderr, "gbpdump: --merge: %s\n", acc.error);
		rc = rc ? rc : 1;
	}
	if (out_flush(o) < 0 && rc >= 0) {
		fprintf(stderr, "gbpdump: standard output: write error\n");
		rc = 2;
	}
	free(o);
	msum_free(&acc);
	return rc < 0 ? 2 : rc;
}
