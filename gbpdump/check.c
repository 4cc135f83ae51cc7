// SPDX-License-Identifier: BSD-2-Clause
/*
 * check.c - gbpdump --check: per-frame findings from libvxgbp plus the
 * cross-frame rules, mapped through a profile, summed up in a report.
 *
 * State:
 *  - a fixed direct-mapped cache of the last DUP_SLOTS distinct inner frames
 *    (64-bit hash of VNI + inner bytes) for the re-applied / cleared policy
 *    rules: a frame captured on both sides of a policy device shows up twice
 *    within a short window, so a bounded cache is enough and memory does not
 *    grow with the capture;
 *  - an open-addressing table of endpoints (VNI + inner source MAC, VNI +
 *    inner source IP) and one of inner 5-tuple flows, each keeping the last
 *    group ID seen; they double when half full.
 * Nothing is allocated per frame; descriptions are formatted only for the
 * first CHECK_FIRST occurrences of each rule.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define CHECK_FIRST 3
#define DUP_BITS 16
#define DUP_SLOTS (1u << DUP_BITS)
#define KEY_MAX 44
#define TAB_MIN 1024

/* ---- profiles ---- */

enum { PL_DEFAULT = 0, PL_MUST, PL_SHOULD, PL_INFO, PL_OFF };

struct profile {
	const char *name;
	const char *help;
	unsigned char level[VXGBP_R__COUNT]; /* PL_*; PL_DEFAULT: the library's */
	uint16_t allowed_rsvd;               /* reserved flag bits this profile
	                                        gives a meaning (with G set) */
	int linux_verdict;                   /* level of header rules from
	                                        vxgbp_verdict_linux() */
};

/* VPP's vxlan-gbp (FDio/vpp src/vnet/vxlan-gbp/vxlan_gbp_packet.h) defines
 * two more bits in the second flags byte: E (bit 10, "bounce": the packet
 * must be dropped) and S (bit 11, source policy applied). */
#define VPP_F_E 0x0020u
#define VPP_F_S 0x0010u

static const struct profile profiles[] = {
	{ "strict", "draft-smith-vxlan-group-policy and RFC 7348 as written", { 0 }, 0, 0 },
	{ "linux", "what a Linux 6.12 'gbp' VXLAN device accepts: header bits it drops "
		   "are MUST, bits it ignores SHOULD",
	  {
		[VXGBP_R_RSVD_FLAGS] = PL_SHOULD, /* MUST when Linux drops the frame */
		[VXGBP_R_D_WITHOUT_G] = PL_SHOULD,
		[VXGBP_R_A_WITHOUT_G] = PL_SHOULD,
		[VXGBP_R_ID_WITHOUT_G] = PL_SHOULD,
		[VXGBP_R_UDP_ZERO_CSUM6] = PL_MUST, /* dropped without udp6zerocsumrx */
		[VXGBP_R_FRAGMENT] = PL_INFO,       /* reassembled before vxlan_rcv() */
		[VXGBP_R_SPORT_RANGE] = PL_OFF,     /* Linux picks from its own range */
	  },
	  0, 1 },
	{ "vpp", "strict, plus VPP's vxlan-gbp E (0x0020) and S (0x0010) flag bits "
		 "allowed with G",
	  { 0 }, VPP_F_E | VPP_F_S, 0 },
};
#define N_PROFILES (sizeof(profiles) / sizeof(profiles[0]))

/* ---- state ---- */

struct occ {
	uint64_t frame;
	int off;
	unsigned char level;
	char what[128];
};

struct ent {
	uint64_t h;
	uint64_t frame;  /* where the group was last seen */
	uint16_t group;
	uint8_t klen;    /* 0: free */
	uint8_t key[KEY_MAX];
};

struct tab {
	struct ent *v;
	size_t cap, n;
};

struct dup {
	uint64_t h;
	uint64_t frame;  /* 0: free */
	uint32_t len;
	uint16_t flags;
	uint16_t group;
};

struct gd_check {
	const struct profile *prof;
	uint64_t frames, vxlan, gbp, unparsed;
	int incomplete;
	uint64_t cnt[VXGBP_R__COUNT][3];
	unsigned n_occ[VXGBP_R__COUNT][3];
	struct occ occ[VXGBP_R__COUNT][3][CHECK_FIRST];
	struct dup *dups;
	struct tab eps, flows;
};

/* ---- hashing and tables ---- */

static uint64_t mix(uint64_t h, uint64_t w)
{
	h ^= w;
	h *= 0x9e3779b97f4a7c15ull;
	h ^= h >> 29;
	return h;
}

static uint64_t hash_bytes(uint64_t h, const uint8_t *b, size_t n)
{
	uint64_t w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = mix(h, w);
	}
	w = 0;
	for (size_t k = 0; i < n; i++, k++)
		w |= (uint64_t)b[i] << (8 * k);
	h = mix(h, w ^ ((uint64_t)n << 56));
	return mix(h, 0x2545f4914f6cdd1dull);
}

static int tab_grow(struct tab *t)
{
	size_t cap = t->cap ? t->cap * 2 : TAB_MIN;
	struct ent *v = calloc(cap, sizeof(*v));

	if (!v)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->v[i].klen)
			continue;
		for (j = t->v[i].h & (cap - 1); v[j].klen; j = (j + 1) & (cap - 1))
			;
		v[j] = t->v[i];
	}
	free(t->v);
	t->v = v;
	t->cap = cap;
	return 0;
}

/* The entry for key, created (klen set, group/frame zero) when new; *is_new
 * says which.  NULL when the table cannot grow. */
static struct ent *tab_get(struct tab *t, const uint8_t *key, size_t klen, int *is_new)
{
	uint64_t h = hash_bytes(0x5851f42d4c957f2dull, key, klen);
	size_t j;

	if ((t->n + 1) * 2 > t->cap && tab_grow(t))
		return NULL;
	for (j = h & (t->cap - 1); t->v[j].klen; j = (j + 1) & (t->cap - 1)) {
		struct ent *e = &t->v[j];

		if (e->h == h && e->klen == klen && !memcmp(e->key, key, klen)) {
			*is_new = 0;
			return e;
		}
	}
	t->v[j].h = h;
	t->v[j].klen = (uint8_t)klen;
	memcpy(t->v[j].key, key, klen);
	t->n++;
	*is_new = 1;
	return &t->v[j];
}

/* ---- public ---- */

void check_list_profiles(FILE *f)
{
	for (size_t i = 0; i < N_PROFILES; i++)
		fprintf(f, "  %-8s %s\n", profiles[i].name, profiles[i].help);
}

int check_profile_known(const char *profile)
{
	for (size_t i = 0; i < N_PROFILES; i++)
		if (!strcmp(profile ? profile : "strict", profiles[i].name))
			return 1;
	return 0;
}

struct gd_check *check_new(const char *profile, int *nomem)
{
	const struct profile *pr = NULL;
	struct gd_check *c;

	*nomem = 0;
	for (size_t i = 0; i < N_PROFILES; i++)
		if (!strcmp(profile ? profile : "strict", profiles[i].name))
			pr = &profiles[i];
	if (!pr)
		return NULL;
	if (!(c = calloc(1, sizeof(*c))) || !(c->dups = calloc(DUP_SLOTS, sizeof(*c->dups))) ||
	    tab_grow(&c->eps) || tab_grow(&c->flows)) {
		check_free(c);
		*nomem = 1;
		return NULL;
	}
	c->prof = pr;
	return c;
}

void check_free(struct gd_check *c)
{
	if (!c)
		return;
	free(c->dups);
	free(c->eps.v);
	free(c->flows.v);
	free(c);
}

/* Level (PL_MUST/SHOULD/INFO/OFF) of rule r for this frame. */
static int level_of(const struct gd_check *c, unsigned r, const struct vxgbp_pkt *p)
{
	const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);
	int lv = c->prof->level[r];

	if (lv == PL_DEFAULT)
		lv = ri ? PL_MUST + (int)ri->level : PL_OFF;
	if (c->prof->linux_verdict && r == VXGBP_R_RSVD_FLAGS) {
		/* Would a Linux gbp device drop it for these bits?  (I forced
		 * on and the tail byte cleared, so other rules do not mask it.) */
		struct vxgbp_hdr h = p->vx;
		struct vxgbp_verdict v;

		h.flags |= VXGBP_F_I;
		h.rsvd = 0;
		vxgbp_verdict_linux(&h, VXGBP_DEV_GBP, &v);
		if (!v.accept && v.why == VXGBP_DROP_RSVD_FLAGS)
			lv = PL_MUST;
	}
	return lv;
}

/* Reserved flag bits of h, less those the profile gives a meaning. */
static uint16_t rsvd_bits(const struct gd_check *c, const struct vxgbp_hdr *h)
{
	uint16_t b = h->flags & VXGBP_F_RSVD_GBP;

	if (h->flags & VXGBP_F_G)
		b &= (uint16_t)~c->prof->allowed_rsvd;
	return b;
}

/* Context for describing a cross-frame finding. */
struct xinfo {
	uint64_t prev_frame;
	uint16_t prev_group, prev_flags;
};

static int put_bits(char *s, size_t n, uint16_t bits)
{
	int len = 0;

	for (int i = 0; i < 16 && (size_t)len < n; i++)
		if (bits & (0x8000u >> i))
			len += snprintf(s + len, n - (size_t)len, "%s%d", len ? "," : "", i);
	return len;
}

static void describe(const struct gd_check *c, unsigned r, const struct vxgbp_pkt *p,
		     const struct xinfo *x, struct occ *o)
{
	char *s = o->what, a[48], b[48];
	size_t n = sizeof(o->what);
	const struct vxgbp_hdr *h = &p->vx;
	const struct vxgbp_l3 *il3 = &p->inner.l3;
	size_t alen = il3->version == 6 ? 16 : 4;
	int k;

	o->off = p->vxlan_off;
	switch (r) {
	case VXGBP_R_I_CLEAR:
		snprintf(s, n, "flags 0x%04x: I clear", h->flags);
		break;
	case VXGBP_R_RSVD_FLAGS:
		k = snprintf(s, n, "flags 0x%04x: reserved 0x%04x (bits ", h->flags,
			     rsvd_bits(c, h));
		k += put_bits(s + k, n - (size_t)k, rsvd_bits(c, h));
		snprintf(s + k, n - (size_t)k, ")%s", !c->prof->linux_verdict ? ""
			 : o->level == PL_MUST ? "; Linux drops it" : "; Linux ignores them");
		break;
	case VXGBP_R_RSVD_BYTE:
		snprintf(s, n, "reserved byte 0x%02x", h->rsvd);
		break;
	case VXGBP_R_D_WITHOUT_G:
	case VXGBP_R_A_WITHOUT_G:
	case VXGBP_R_ID_WITHOUT_G:
		snprintf(s, n, "flags 0x%04x, ID %u, G clear", h->flags, h->group);
		break;
	case VXGBP_R_ZERO_ID:
		snprintf(s, n, "flags 0x%04x, ID 0", h->flags);
		break;
	case VXGBP_R_UDP_CSUM:
		o->off = p->outer.l4.off;
		snprintf(s, n, "UDP checksum 0x%04x does not match", p->outer.l4.csum);
		break;
	case VXGBP_R_UDP_ZERO_CSUM6:
		o->off = p->outer.l4.off;
		snprintf(s, n, "UDP checksum 0 over IPv6");
		break;
	case VXGBP_R_IP_CSUM:
		o->off = p->outer.l3.off;
		snprintf(s, n, "IPv4 header checksum does not match");
		break;
	case VXGBP_R_FRAGMENT:
		o->off = p->outer.l3.off;
		snprintf(s, n, "fragment offset %u, MF %u, ID 0x%04x", p->outer.l3.frag_off,
			 p->outer.l3.more_frags, p->outer.l3.ip_id);
		break;
	case VXGBP_R_INNER_VLAN:
		o->off = p->inner.l2.off;
		snprintf(s, n, "inner VLAN %u (TPID 0x%04x)", p->inner.l2.vlan_tci[0] & 0xfffu,
			 p->inner.l2.vlan_tpid[0]);
		break;
	case VXGBP_R_SPORT_RANGE:
		o->off = p->outer.l4.off;
		snprintf(s, n, "source port %u", p->outer.l4.sport);
		break;
	case VXGBP_R_OUTER_TTL:
		o->off = p->outer.l3.off;
		snprintf(s, n, "outer TTL 0");
		break;
	case VXGBP_R_TRUNCATED:
	case VXGBP_R_MALFORMED:
		o->off = p->err_off;
		snprintf(s, n, "%s at byte %d (caplen %u, len %u)",
			 p->err_layer ? p->err_layer : "frame", p->err_off, p->caplen, p->wirelen);
		break;
	case VXGBP_R_POLICY_REAPPLIED:
		snprintf(s, n, "frame %llu had ID %u A=%d; now ID %u A=%d",
			 (unsigned long long)x->prev_frame, x->prev_group,
			 (x->prev_flags & VXGBP_F_A) != 0, h->group, (h->flags & VXGBP_F_A) != 0);
		break;
	case VXGBP_R_A_CLEARED:
		snprintf(s, n, "frame %llu had A=1 (ID %u); now flags 0x%04x ID %u",
			 (unsigned long long)x->prev_frame, x->prev_group, h->flags, h->group);
		break;
	case VXGBP_R_GROUP_CONFLICT:
		if (x->prev_flags == 'M')
			vxgbp_mac_format(a, sizeof(a), p->inner.l2.src);
		else if (il3->src)
			vxgbp_addr_format(a, sizeof(a), il3->src, alen);
		else if (il3->arp_spa)
			vxgbp_addr_format(a, sizeof(a), il3->arp_spa, 4);
		else
			strcpy(a, "?");
		snprintf(s, n, "source %s: ID %u at frame %llu, now ID %u", a, x->prev_group,
			 (unsigned long long)x->prev_frame, h->group);
		break;
	case VXGBP_R_FLOW_GROUP_CHANGE:
		vxgbp_addr_format(a, sizeof(a), il3->src, alen);
		vxgbp_addr_format(b, sizeof(b), il3->dst, alen);
		snprintf(s, n, "flow %s.%u > %s.%u proto %u: ID %u at frame %llu, now ID %u", a,
			 p->inner.l4.sport, b, p->inner.l4.dport, il3->proto, x->prev_group,
			 (unsigned long long)x->prev_frame, h->group);
		break;
	default: {
		int cal = r == VXGBP_R_CALIPSO_LEN || r == VXGBP_R_CALIPSO_CSUM ||
			  r == VXGBP_R_CALIPSO_DOI;
		int oo = cal ? p->outer.l3.calipso_off : p->outer.l3.cipso_off;

		o->off = oo >= 0 ? oo : cal ? p->inner.l3.calipso_off : p->inner.l3.cipso_off;
		snprintf(s, n, "%s %s option", oo >= 0 ? "outer" : "inner", cal ? "CALIPSO" : "CIPSO");
		break;
	}
	}
}

static void add(struct gd_check *c, unsigned r, const struct gd_rec *rec,
		const struct vxgbp_pkt *p, const struct xinfo *x)
{
	int lv = level_of(c, r, p);
	struct occ *o;

	if (lv == PL_OFF)
		return;
	c->cnt[r][lv - PL_MUST]++;
	if (c->n_occ[r][lv - PL_MUST] >= CHECK_FIRST)
		return;
	o = &c->occ[r][lv - PL_MUST][c->n_occ[r][lv - PL_MUST]++];
	o->frame = rec->no;
	o->level = (unsigned char)lv;
	describe(c, r, p, x, o);
}

static void put_be24(uint8_t *k, uint32_t v)
{
	k[0] = (uint8_t)(v >> 16);
	k[1] = (uint8_t)(v >> 8);
	k[2] = (uint8_t)v;
}

/* Group-conflict check for one endpoint key. */
static int endpoint(struct gd_check *c, const uint8_t *key, size_t klen, int kind,
		    const struct gd_rec *rec, const struct vxgbp_pkt *p)
{
	int is_new;
	struct ent *e = tab_get(&c->eps, key, klen, &is_new);

	if (!e)
		return -1;
	if (!is_new && e->group != p->vx.group) {
		struct xinfo x = { e->frame, e->group, (uint16_t)kind };

		add(c, VXGBP_R_GROUP_CONFLICT, rec, p, &x);
	}
	e->group = p->vx.group;
	e->frame = rec->no;
	return 0;
}

int check_frame(struct gd_check *c, const struct gd_rec *rec, const struct vxgbp_pkt *p)
{
	const struct vxgbp_hdr *h = &p->vx;
	uint64_t f = p->findings;
	int gbp, dup_rule = 0, rc = 0;

	c->frames++;
	if (!(p->have & VXGBP_HAVE_VXLAN)) {
		/* stopped before a VXLAN header could be found */
		c->unparsed += p->err != 0;
		return 0;
	}
	c->vxlan++;
	gbp = (h->flags & VXGBP_F_G) != 0;
	c->gbp += (uint64_t)gbp;

	/* Per-frame findings of the library, through the profile. */
	if ((f & VXGBP_RB(VXGBP_R_RSVD_FLAGS)) && !rsvd_bits(c, h))
		f &= ~VXGBP_RB(VXGBP_R_RSVD_FLAGS);
	for (unsigned r = 0; f && r < VXGBP_R__COUNT; r++)
		if (f & VXGBP_RB(r))
			add(c, r, rec, p, NULL);

	if (!(p->have & VXGBP_HAVE_INNER_L2))
		return 0;

	/* The same inner frame seen again: re-applied or cleared policy. */
	{
		size_t ioff = (size_t)p->inner.l2.off, len = p->caplen - ioff;
		const uint8_t *ib = rec->data + ioff;
		uint64_t hh = hash_bytes(mix(0x27d4eb2f165667c5ull, h->vni), ib, len);
		struct dup *d = &c->dups[hh & (DUP_SLOTS - 1)];

		if (d->frame && d->h == hh && d->len == len) {
			int pa = (d->flags & (VXGBP_F_G | VXGBP_F_A)) == (VXGBP_F_G | VXGBP_F_A);
			int ca = gbp && (h->flags & VXGBP_F_A);
			int pg = (d->flags & VXGBP_F_G) != 0;
			struct xinfo x = { d->frame, d->group, d->flags };

			if (pa && !ca)
				dup_rule = VXGBP_R_A_CLEARED;
			else if (pg && gbp && d->group != h->group && (pa || ca))
				dup_rule = VXGBP_R_POLICY_REAPPLIED;
			if (dup_rule)
				add(c, (unsigned)dup_rule, rec, p, &x);
		}
		d->h = hh;
		d->len = (uint32_t)len;
		d->frame = rec->no;
		d->flags = h->flags;
		d->group = h->group;
	}
	/* A re-sighting already reported is not also an endpoint/flow change. */
	if (!gbp || dup_rule)
		return 0;

	/* Endpoints: VNI + inner source MAC, VNI + inner source IP. */
	{
		uint8_t k[KEY_MAX];
		const struct vxgbp_l3 *l3 = &p->inner.l3;

		k[0] = 'M';
		put_be24(k + 1, h->vni);
		memcpy(k + 4, p->inner.l2.src, 6);
		rc |= endpoint(c, k, 10, 'M', rec, p);
		if ((p->have & VXGBP_HAVE_INNER_L3) && l3->src && (l3->version == 4 || l3->version == 6)) {
			size_t alen = l3->version == 6 ? 16 : 4;

			k[0] = l3->version == 6 ? '6' : '4';
			memcpy(k + 4, l3->src, alen);
			rc |= endpoint(c, k, 4 + alen, 'I', rec, p);
		} else if (l3->arp_spa) {
			k[0] = '4';
			memcpy(k + 4, l3->arp_spa, 4);
			rc |= endpoint(c, k, 8, 'I', rec, p);
		}
	}

	/* Flows: VNI + inner 5-tuple (ports 0 for protocols without them). */
	if ((p->have & VXGBP_HAVE_INNER_L3) && p->inner.l3.src && p->inner.l3.dst) {
		const struct vxgbp_l3 *l3 = &p->inner.l3;
		size_t alen = l3->version == 6 ? 16 : 4, kl;
		uint8_t k[KEY_MAX];
		uint16_t sp = 0, dp = 0;
		struct ent *e;
		int is_new;

		if ((p->have & VXGBP_HAVE_INNER_L4) && (l3->proto == 6 || l3->proto == 17 ||
							l3->proto == 132)) {
			sp = p->inner.l4.sport;
			dp = p->inner.l4.dport;
		}
		k[0] = 'F';
		put_be24(k + 1, h->vni);
		k[4] = l3->version;
		k[5] = l3->proto;
		memcpy(k + 6, l3->src, alen);
		memcpy(k + 6 + alen, l3->dst, alen);
		kl = 6 + 2 * alen;
		k[kl++] = (uint8_t)(sp >> 8);
		k[kl++] = (uint8_t)sp;
		k[kl++] = (uint8_t)(dp >> 8);
		k[kl++] = (uint8_t)dp;
		if (!(e = tab_get(&c->flows, k, kl, &is_new))) {
			rc = -1;
		} else {
			if (!is_new && e->group != h->group) {
				struct xinfo x = { e->frame, e->group, 0 };

				add(c, VXGBP_R_FLOW_GROUP_CHANGE, rec, p, &x);
			}
			e->group = h->group;
			e->frame = rec->no;
		}
	}
	if (rc)
		c->incomplete = 1;
	return rc ? -1 : 0;
}

static const char *lvl_name(int lv)
{
	return lv == PL_MUST ? "MUST" : lv == PL_SHOULD ? "SHOULD" : "INFO";
}

int check_report(struct gd_check *c, struct gd_out *o, int json)
{
	uint64_t tot[3] = { 0, 0, 0 };
	int rc, first = 1;

	for (unsigned r = 0; r < VXGBP_R__COUNT; r++)
		for (int l = 0; l < 3; l++)
			tot[l] += c->cnt[r][l];
	rc = tot[0] ? CHECK_EXIT_FAIL : tot[1] ? CHECK_EXIT_WARN : CHECK_EXIT_PASS;

	if (json) {
		out_str(o, "{\"check\":{\"profile\":");
		out_json_str(o, c->prof->name);
		out_printf(o, ",\"frames\":%llu,\"vxlan\":%llu,\"gbp\":%llu,\"unparsed\":%llu,\"endpoints\":%zu,"
			   "\"flows\":%zu,\"incomplete\":%s,\"counts\":{\"MUST\":%llu,"
			   "\"SHOULD\":%llu,\"INFO\":%llu},\"findings\":[",
			   (unsigned long long)c->frames, (unsigned long long)c->vxlan,
			   (unsigned long long)c->gbp, (unsigned long long)c->unparsed, c->eps.n,
			   c->flows.n, c->incomplete ? "true" : "false", (unsigned long long)tot[0],
			   (unsigned long long)tot[1], (unsigned long long)tot[2]);
	} else {
		out_printf(o, "gbpdump --check, profile %s: %llu frames, %llu VXLAN (%llu with G), "
			   "%llu unparsable before VXLAN, %zu endpoints, %zu flows\n", c->prof->name,
			   (unsigned long long)c->frames, (unsigned long long)c->vxlan,
			   (unsigned long long)c->gbp, (unsigned long long)c->unparsed, c->eps.n,
			   c->flows.n);
		if (c->incomplete)
			out_str(o, "warning: out of memory: cross-frame rules are incomplete\n");
	}
	/* Summary, MUST first, rules in id order within a level. */
	for (int l = 0; l < 3; l++) {
		for (unsigned r = 0; r < VXGBP_R__COUNT; r++) {
			const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

			if (!c->cnt[r][l] || !ri)
				continue;
			if (json) {
				if (!first)
					out_putc(o, ',');
				out_str(o, "{\"id\":");
				out_json_str(o, ri->id);
				out_str(o, ",\"level\":");
				out_json_str(o, lvl_name(PL_MUST + l));
				out_printf(o, ",\"count\":%llu,\"source\":",
					   (unsigned long long)c->cnt[r][l]);
				out_json_str(o, ri->source);
				out_str(o, ",\"text\":");
				out_json_str(o, ri->text);
				out_str(o, ",\"first\":[");
				for (unsigned i = 0; i < c->n_occ[r][l]; i++) {
					const struct occ *oc = &c->occ[r][l][i];

					out_printf(o, "%s{\"frame\":%llu,\"offset\":%d,\"detail\":",
						   i ? "," : "", (unsigned long long)oc->frame,
						   oc->off);
					out_json_str(o, oc->what);
					out_putc(o, '}');
				}
				out_str(o, "]}");
			} else {
				if (first)
					out_printf(o, "\n%-28s %-6s %8s  %s\n", "RULE", "LEVEL", "COUNT",
						   "SOURCE");
				out_printf(o, "%-28s %-6s %8llu  %s\n", ri->id, lvl_name(PL_MUST + l),
					   (unsigned long long)c->cnt[r][l], ri->source);
			}
			first = 0;
		}
	}
	if (!json && !first) {
		out_str(o, "\nFirst occurrences (frame, byte offset of the header):\n");
		for (int l = 0; l < 3; l++) {
			for (unsigned r = 0; r < VXGBP_R__COUNT; r++) {
				const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

				if (!c->cnt[r][l] || !ri)
					continue;
				out_printf(o, "%s %s: %s\n", ri->id, lvl_name(PL_MUST + l), ri->text);
				for (unsigned i = 0; i < c->n_occ[r][l]; i++)
					out_printf(o, "  frame %llu offset %d: %s\n",
						   (unsigned long long)c->occ[r][l][i].frame,
						   c->occ[r][l][i].off, c->occ[r][l][i].what);
			}
		}
	}
	if (json) {
		out_printf(o, "],\"verdict\":\"%s\",\"exit\":%d}}\n",
			   rc == CHECK_EXIT_FAIL ? "fail" : rc == CHECK_EXIT_WARN ? "warn" : "pass", rc);
	} else {
		out_printf(o, "\nverdict: %s (%llu MUST, %llu SHOULD, %llu INFO findings)\n",
			   rc == CHECK_EXIT_FAIL ? "FAIL" : rc == CHECK_EXIT_WARN ? "WARN" : "PASS",
			   (unsigned long long)tot[0], (unsigned long long)tot[1],
			   (unsigned long long)tot[2]);
	}
	return rc;
}
