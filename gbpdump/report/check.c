// SPDX-License-Identifier: BSD-2-Clause
/*
 * check.c - gbpdump --check: the per-frame findings of libvxgbp and the
 * cross-frame findings of its tracker, mapped through a profile (libvxgbp's
 * vxgbp_profile_*), summed up
 * in a report.  Nothing is allocated per frame; descriptions are formatted
 * only for the first CHECK_FIRST occurrences of each rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats.h"

/* ---- state ---- */

struct first_hit {
	uint64_t frame;
	uint64_t rec_off;  /* the record's file offset (gd_rec.off) */
	uint32_t caplen;
	int64_t sec;
	uint32_t nsec;
	int off;
	unsigned char level;
	char what[128];
};

struct gd_check {
	unsigned prof;               /* libvxgbp's profile number */
	unsigned fabric;             /* the tracker's enum vxgbp_fabric_mode */
	const struct vxgbp_profile_info *pi;
	int no_csum;                 /* the profile's, or --no-checksums */
	uint64_t unjudged;           /* frames that could not be judged */
	uint64_t unjudged_mac;       /* frames the tracker could not judge by
	                                source MAC (VXGBP_TRACK_UNJUDGED_MAC) */
	uint64_t on_request;         /* VXGBP_RB() of the rules judged only when
	                                asked for (check_judges()): policy.* */
	char off_why[48];            /* "off in profile linux" */
	void (*extra)(void *ctx, struct gd_out *o, int json); /* check_set_extra() */
	void *extra_ctx;
	void (*tail)(void *ctx, struct gd_out *o); /* check_set_tail() */
	void *tail_ctx;
	const char *error;           /* check_set_error() */
	int error_status;
	uint64_t cnt[VXGBP_R__COUNT][3];
	unsigned n_first[VXGBP_R__COUNT][3];
	struct first_hit first[VXGBP_R__COUNT][3][CHECK_FIRST];
};

/* One VXLAN header of a frame and the layers around it: the first one
 * (p->vx) or a nested one (p->nested[nest - 1]). */
struct vx_view {
	const struct vxgbp_hdr *h;
	const struct vxgbp_layers *outer; /* what delivers it */
	const struct vxgbp_layers *inner; /* the frame it carries */
	int off;                          /* its offset in the frame */
	unsigned nest;                    /* 0 the first header, 1.. nested */
	uint8_t kind;                     /* enum vxgbp_vx_kind */
	uint8_t mirror;                   /* outside the fabric header: a mirror's */
};

/* Rules judged only when a front end asks for them (by id: a library
 * without them has none). */
static const char *const on_request[] = { "policy.denied", "policy.bypassed" };

static int profile_find(const char *name)
{
	return vxgbp_profile_lookup(name ? name : "strict");
}

int check_profile_known(const char *profile)
{
	return profile_find(profile) >= 0;
}

struct gd_check *check_new(const char *profile, int no_csum)
{
	int pr = profile_find(profile);
	struct gd_check *c;

	if (pr < 0 || !(c = calloc(1, sizeof(*c))))
		return NULL;
	c->prof = (unsigned)pr;
	c->pi = vxgbp_profile_get(c->prof);
	c->no_csum = no_csum || (c->pi->flags & VXGBP_PROFILE_NO_CSUM);
	snprintf(c->off_why, sizeof(c->off_why), "off in profile %s", c->pi->name);
	for (size_t i = 0; i < sizeof(on_request) / sizeof(on_request[0]); i++) {
		int r = vxgbp_rule_lookup(on_request[i]);

		if (r >= 0 && r < 64)
			c->on_request |= VXGBP_RB(r);
	}
	return c;
}

void check_judges(struct gd_check *c, unsigned rule)
{
	if (rule < 64)
		c->on_request &= ~VXGBP_RB(rule);
}

unsigned check_parse_flags(const struct gd_check *c)
{
	return c->no_csum ? VXGBP_PARSE_NO_CSUM : 0;
}

void check_free(struct gd_check *c)
{
	free(c);
}

/* Level (enum vxgbp_level) of rule r for header hv, under the profile. */
static int level_of(const struct gd_check *c, unsigned r, const struct vx_view *hv)
{
	int lv = vxgbp_profile_level(c->prof, r, hv ? hv->h : NULL);

	return lv < 0 ? VXGBP_LEVEL_OFF : lv;
}

/* Reserved flag bits of h: those without a meaning under the profile's
 * flag sets (libvxgbp's flag table), less D and A, which without G have
 * rules of their own. */
static uint16_t rsvd_bits(const struct gd_check *c, const struct vxgbp_hdr *h)
{
	return h->flags & VXGBP_F_RSVD_GBP &
	       (uint16_t)~vxgbp_flags_defined(h->flags, c->pi->flagsets);
}

/* ---- descriptions ---- */

/* "7,10,11": the bit numbers of bits, 0 the most significant. */
static int put_bits(char *s, size_t n, uint16_t bits)
{
	int len = 0;

	for (int i = 0; i < 16 && (size_t)len < n; i++)
		if (bits & (0x8000u >> i))
			len += snprintf(s + len, n - (size_t)len, "%s%d", len ? "," : "", i);
	return len;
}

/* "nested 2: " before what is said of a nested header, "mirror vni 7: "
 * (or "mirror nested 1 vni 3010: ") of one outside the fabric header, so
 * a broken mirror reads apart from a broken fabric; its length. */
static int nest_prefix(char *s, size_t n, const struct vx_view *hv)
{
	if (hv->mirror)
		return hv->nest ? snprintf(s, n, "mirror nested %u vni %u: ", hv->nest, hv->h->vni)
				: snprintf(s, n, "mirror vni %u: ", hv->h->vni);
	return hv->nest ? snprintf(s, n, "nested %u: ", hv->nest) : snprintf(s, n, "%s", "");
}

/* Header rules of a GPE header: 1 when r is one. */
static int describe_gpe(unsigned r, const struct vx_view *hv, struct first_hit *o)
{
	const struct vxgbp_hdr *h = hv->h;
	size_t n = sizeof(o->what);
	int k = nest_prefix(o->what, n, hv);

	if (r != VXGBP_R_GPE_ON_VXLAN_PORT && r != VXGBP_R_GPE_VERSION &&
	    r != VXGBP_R_GPE_RSVD && r != VXGBP_R_GPE_OAM && r != VXGBP_R_GPE_NEXT_PROTO)
		return 0;
	snprintf(o->what + k, n - (size_t)k, "VXLAN-GPE flags 0x%04x, next protocol %u, "
		 "UDP port %u", h->flags, vxgbp_gpe_next_proto(h), hv->outer->l4.dport);
	return 1;
}

/* Header rules: 1 when r is one. */
static int describe_hdr(const struct gd_check *c, unsigned r, const struct vx_view *hv,
			struct first_hit *o)
{
	const struct vxgbp_hdr *h = hv->h;
	size_t n = sizeof(o->what);
	int k = nest_prefix(o->what, n, hv);
	char *s = o->what + k;

	n -= (size_t)k;
	switch (r) {
	case VXGBP_R_I_CLEAR:
		snprintf(s, n, "flags 0x%04x: I clear", h->flags);
		return 1;
	case VXGBP_R_RSVD_FLAGS:
		k = snprintf(s, n, "flags 0x%04x: reserved 0x%04x (bits ", h->flags,
			     rsvd_bits(c, h));
		k += put_bits(s + k, n - (size_t)k, rsvd_bits(c, h));
		snprintf(s + k, n - (size_t)k, ")%s", !(c->pi->flags & VXGBP_PROFILE_LINUX) ? ""
			 : o->level == VXGBP_LEVEL_MUST ? "; Linux drops it" : "; Linux ignores them");
		return 1;
	case VXGBP_R_RSVD_BYTE:
		snprintf(s, n, "reserved byte 0x%02x", h->rsvd);
		return 1;
	case VXGBP_R_D_WITHOUT_G:
	case VXGBP_R_A_WITHOUT_G:
	case VXGBP_R_ID_WITHOUT_G:
		snprintf(s, n, "flags 0x%04x, ID %u, G clear", h->flags, h->group);
		return 1;
	case VXGBP_R_ZERO_ID:
		snprintf(s, n, "flags 0x%04x, ID 0", h->flags);
		return 1;
	default:
		return describe_gpe(r, hv, o);
	}
}

/* The error that stopped the parse: "inner-ipv4 at byte 64 (caplen 92,
 * len 92)". */
static void describe_err(const struct vxgbp_pkt *p, struct first_hit *o, const char *pre)
{
	if (!p->err) { /* the walk stopped at its bound: at the last layer */
		const struct vxgbp_encap *e = p->n_encap ? &p->encap[p->n_encap - 1] : NULL;

		o->off = e ? e->off + e->hdr_len : -1;
		snprintf(o->what, sizeof(o->what),
			 "%sthe walk stopped after %u tunnel layers (its bound) at byte %d "
			 "(caplen %u, len %u)", pre, (unsigned)p->n_encap, o->off,
			 p->caplen, p->wirelen);
		return;
	}
	o->off = p->err_off;
	snprintf(o->what, sizeof(o->what), "%s%s %s at byte %d (caplen %u, len %u)", pre,
		 p->err_layer ? p->err_layer : "frame",
		 p->err == VXGBP_E_TRUNCATED ? "ends" : "breaks", p->err_off, p->caplen,
		 p->wirelen);
}

/* Frame rules of the layers that deliver a header (checksums, source
 * port, TTL, GSO lengths): 1 when r is one. */
static int describe_outer(unsigned r, const struct vx_view *hv, struct first_hit *o)
{
	const struct vxgbp_l3 *l3 = &hv->outer->l3;
	const struct vxgbp_l4 *l4 = &hv->outer->l4;
	size_t n = sizeof(o->what);
	int k = nest_prefix(o->what, n, hv);
	char *s = o->what + k;

	n -= (size_t)k;
	o->off = r == VXGBP_R_UDP_CSUM || r == VXGBP_R_UDP_ZERO_CSUM6 ||
		 r == VXGBP_R_SPORT_RANGE || r == VXGBP_R_CSUM_OFFLOAD ? l4->off : l3->off;
	switch (r) {
	case VXGBP_R_UDP_CSUM:
		snprintf(s, n, "UDP checksum 0x%04x does not match", l4->csum);
		return 1;
	case VXGBP_R_CSUM_OFFLOAD:
		snprintf(s, n, "UDP checksum 0x%04x: left for the sender's NIC to fill in",
			 l4->csum);
		return 1;
	case VXGBP_R_UDP_ZERO_CSUM6:
		snprintf(s, n, "UDP checksum 0 over IPv6");
		return 1;
	case VXGBP_R_IP_CSUM:
		snprintf(s, n, "IPv4 header checksum does not match");
		return 1;
	case VXGBP_R_FRAGMENT:
		snprintf(s, n, "fragment offset %u, MF %u, ID 0x%04x", l3->frag_off,
			 l3->more_frags, l3->ip_id);
		return 1;
	case VXGBP_R_SPORT_RANGE:
		snprintf(s, n, "source port %u", l4->sport);
		return 1;
	case VXGBP_R_OUTER_TTL:
		snprintf(s, n, "outer TTL 0");
		return 1;
	case VXGBP_R_GSO_LENGTH:
		snprintf(s, n, "IPv%u length field 0: %u bytes taken from the capture",
			 l3->version, l3->tot_len);
		return 1;
	default:
		return 0;
	}
}

/* Frame rules (inner VLAN, truncation, depth): 1 when r is one. */
static int describe_frame(unsigned r, const struct vxgbp_pkt *p, const struct vx_view *hv,
			  struct first_hit *o)
{
	char pre[48];

	nest_prefix(pre, sizeof(pre), hv);
	switch (r) {
	case VXGBP_R_INNER_VLAN:
		o->off = hv->inner->l2.off;
		snprintf(o->what, sizeof(o->what), "%sinner VLAN %u (TPID 0x%04x)", pre,
			 hv->inner->l2.vlan_tci[0] & 0xfffu, hv->inner->l2.vlan_tpid[0]);
		return 1;
	case VXGBP_R_TRUNCATED:
	case VXGBP_R_MALFORMED:
		describe_err(p, o, pre);
		return 1;
	case VXGBP_R_DEPTH:
		snprintf(o->what, sizeof(o->what), "%u tunnel layers and %u nested VXLAN "
			 "headers decoded; the rest is not", p->n_encap, p->n_nested);
		return 1;
	default:
		return describe_outer(r, hv, o);
	}
}

/* Label rules: where the option is, outer first. */
static void describe_label(unsigned r, const struct vx_view *hv, struct first_hit *o)
{
	int cal = r == VXGBP_R_CALIPSO_LEN || r == VXGBP_R_CALIPSO_CSUM ||
		  r == VXGBP_R_CALIPSO_DOI;
	int oo = cal ? hv->outer->l3.calipso_off : hv->outer->l3.cipso_off;
	char pre[48];

	nest_prefix(pre, sizeof(pre), hv);
	o->off = oo >= 0 ? oo : cal ? hv->inner->l3.calipso_off : hv->inner->l3.cipso_off;
	snprintf(o->what, sizeof(o->what), "%s%s %s option", pre, oo >= 0 ? "outer" : "inner",
		 cal ? "CALIPSO" : "CIPSO");
}

/* The inner source an endpoint key names. */
static void endpoint_name(char *a, size_t n, const struct vxgbp_layers *in,
			  enum vxgbp_track_key key)
{
	const struct vxgbp_l3 *il3 = &in->l3;

	if (key == VXGBP_KEY_MAC)
		vxgbp_mac_format(a, n, in->l2.src);
	else if (il3->src)
		vxgbp_addr_format(a, n, il3->src, il3->version == 6 ? 16 : 4);
	else if (il3->arp_spa)
		vxgbp_addr_format(a, n, il3->arp_spa, 4);
	else
		snprintf(a, n, "?");
}

/* Cross-frame rules: this frame (the header the tracker followed, hv)
 * against the one the tracker remembered. */
static void describe_cross(const struct vx_view *hv, const struct vxgbp_track_hit *x,
			   struct first_hit *o)
{
	const struct vxgbp_hdr *h = hv->h;
	const struct vxgbp_l3 *il3 = &hv->inner->l3;
	size_t alen = il3->version == 6 ? 16 : 4, n = sizeof(o->what);
	unsigned long long pf = (unsigned long long)x->prev_frame;
	char a[48], b[48];

	switch (x->rule) {
	case VXGBP_R_POLICY_REAPPLIED:
		snprintf(o->what, n, "frame %llu had ID %u A=%d; now ID %u A=%d", pf,
			 x->prev_group, (x->prev_flags & VXGBP_F_A) != 0, h->group,
			 (h->flags & VXGBP_F_A) != 0);
		break;
	case VXGBP_R_A_CLEARED:
		snprintf(o->what, n, "frame %llu had A=1 (ID %u); now flags 0x%04x ID %u", pf,
			 x->prev_group, h->flags, h->group);
		break;
	case VXGBP_R_GROUP_CONFLICT:
		endpoint_name(a, sizeof(a), hv->inner, x->key);
		snprintf(o->what, n, "source %s: ID %u at frame %llu, now ID %u", a,
			 x->prev_group, pf, h->group);
		break;
	default: /* VXGBP_R_FLOW_GROUP_CHANGE */
		vxgbp_addr_format(a, sizeof(a), il3->src, alen);
		vxgbp_addr_format(b, sizeof(b), il3->dst, alen);
		snprintf(o->what, n, "flow %s.%u > %s.%u proto %u: ID %u at frame %llu, now ID %u",
			 a, hv->inner->l4.sport, b, hv->inner->l4.dport, il3->proto, x->prev_group,
			 pf, h->group);
		break;
	}
}

/* Count rule r on this frame at its level under the profile for hv's
 * header: the first occurrence to describe (its frame filled in), or NULL
 * (not judged, or enough kept). */
static struct first_hit *count_hit(struct gd_check *c, unsigned r, const struct gd_rec *rec,
				   const struct vx_view *hv)
{
	int lv = level_of(c, r, hv);
	struct first_hit *o;

	if (lv == VXGBP_LEVEL_OFF)
		return NULL;
	c->cnt[r][lv]++;
	if (c->n_first[r][lv] >= CHECK_FIRST)
		return NULL;
	o = &c->first[r][lv][c->n_first[r][lv]++];
	o->frame = rec->no;
	o->rec_off = rec->off;
	o->caplen = rec->caplen;
	o->sec = rec->sec;
	o->nsec = rec->nsec;
	o->level = (unsigned char)lv;
	return o;
}

/* Count rule r on this frame; describe its first occurrences.  hv: the
 * header it belongs to (NULL: the frame has none); x: the tracker's hit
 * for a cross-frame rule, else NULL. */
static void add(struct gd_check *c, unsigned r, const struct gd_rec *rec,
		const struct vxgbp_pkt *p, const struct vx_view *hv,
		const struct vxgbp_track_hit *x)
{
	struct first_hit *o = count_hit(c, r, rec, hv);

	if (!o)
		return;
	o->off = hv ? hv->off : p->err_off;
	if (!hv)
		describe_err(p, o, r == VXGBP_R_UNJUDGED ? "no VXLAN header found: " : "");
	else if (x)
		describe_cross(hv, x, o);
	else if (!describe_hdr(c, r, hv, o) && !describe_frame(r, p, hv, o))
		describe_label(r, hv, o);
}

void check_add_late(struct gd_check *c, unsigned rule, uint64_t frame, const char *what)
{
	int lv = rule < VXGBP_R__COUNT ? level_of(c, rule, NULL) : VXGBP_LEVEL_OFF;
	struct first_hit *o;

	if (lv == VXGBP_LEVEL_OFF)
		return;
	c->cnt[rule][lv]++;
	if (c->n_first[rule][lv] >= CHECK_FIRST)
		return;
	o = &c->first[rule][lv][c->n_first[rule][lv]++];
	memset(o, 0, sizeof(*o));
	o->frame = frame;
	o->off = -1;
	o->level = (unsigned char)lv;
	snprintf(o->what, sizeof(o->what), "%s", what);
}

void check_set_extra(struct gd_check *c, void (*fn)(void *ctx, struct gd_out *o, int json),
		     void *ctx)
{
	c->extra = fn;
	c->extra_ctx = ctx;
}

void check_set_error(struct gd_check *c, int status, const char *msg)
{
	c->error = msg;
	c->error_status = status;
}

void check_set_tail(struct gd_check *c, void (*fn)(void *ctx, struct gd_out *o), void *ctx)
{
	c->tail = fn;
	c->tail_ctx = ctx;
}

void check_import(struct gd_check *c, unsigned rule, int level, uint64_t count,
		  const struct check_occ *first, unsigned n)
{
	if (rule >= VXGBP_R__COUNT || level < 0 || level > 2)
		return;
	c->cnt[rule][level] = count;
	c->n_first[rule][level] = n < CHECK_FIRST ? n : CHECK_FIRST;
	for (unsigned i = 0; i < c->n_first[rule][level]; i++) {
		struct first_hit *o = &c->first[rule][level][i];

		memset(o, 0, sizeof(*o));
		o->frame = first[i].frame;
		o->off = first[i].off;
		o->level = (unsigned char)(level);
		snprintf(o->what, sizeof(o->what), "%s", first[i].what);
	}
}

void check_import_unjudged(struct gd_check *c, uint64_t n, uint64_t mac)
{
	c->unjudged = n;
	c->unjudged_mac = mac;
}

/* What the delivery of tunnel layer i breaks (its IPv4 header checksum, a
 * Geneve layer's UDP checksum): a mirror's own headers, described as its
 * ("mirror Geneve vni 77: UDP checksum does not match"). */
static void add_encap(struct gd_check *c, const struct gd_rec *rec, const struct vxgbp_pkt *p,
		      unsigned i)
{
	const struct vxgbp_encap *e = &p->encap[i];
	const struct vxgbp_encap_info *ei = vxgbp_encap_get(e->kind);
	struct vxgbp_track_mirror tm = { 0 };
	int m = vxgbp_pkt_mirror(p, c->fabric, &tm.id);
	const struct vxgbp_mirror_info *mi = vxgbp_mirror_get(m > 0 ? (unsigned)m : 0);
	unsigned at;
	char who[48], name[40];

	tm.kind = m > 0 ? (uint32_t)m : 0;
	if (mi && mi->id_name && vxgbp_pkt_mirror_encap(p, c->fabric, &at) > 0 && at == i) {
		stats_mirror_name(name, sizeof(name), &tm); /* as --stats names it */
		snprintf(who, sizeof(who), "mirror %s", name);
	} else
		snprintf(who, sizeof(who), "tunnel %u (%s)", i, ei ? ei->name : "?");
	for (uint64_t f = p->encap_findings[i]; f; f &= f - 1) {
		unsigned r = (unsigned)__builtin_ctzll(f);
		struct first_hit *o = count_hit(c, r, rec, NULL);

		if (!o)
			continue;
		o->off = e->off;
		snprintf(o->what, sizeof(o->what), "%s: %s does not match", who,
			 r == VXGBP_R_IP_CSUM ? "IPv4 header checksum" : "UDP checksum");
	}
}

/* The per-frame findings f of one header, through the profile. */
static void add_findings(struct gd_check *c, const struct gd_rec *rec,
			 const struct vxgbp_pkt *p, const struct vx_view *hv, uint64_t f)
{
	f = vxgbp_profile_findings(c->prof, hv->h, (enum vxgbp_vx_kind)hv->kind, f);
	for (unsigned r = 0; f && r < VXGBP_R__COUNT; r++)
		if (f & VXGBP_RB(r))
			add(c, r, rec, p, hv, NULL);
}

/* A frame the parse gave up on before it found a VXLAN header: it cannot
 * be judged.  frame.unjudged, and what stopped it (frame.truncated or
 * frame.malformed, or tunnel.depth) at that rule's level. */
static void add_unjudged(struct gd_check *c, const struct gd_rec *rec,
			 const struct vxgbp_pkt *p)
{
	c->unjudged++;
	add(c, VXGBP_R_UNJUDGED, rec, p, NULL, NULL);
	if (p->findings & VXGBP_RB(VXGBP_R_MALFORMED))
		add(c, VXGBP_R_MALFORMED, rec, p, NULL, NULL);
	if (p->findings & VXGBP_RB(VXGBP_R_TRUNCATED))
		add(c, VXGBP_R_TRUNCATED, rec, p, NULL, NULL);
	if (p->findings & VXGBP_RB(VXGBP_R_DEPTH))
		add(c, VXGBP_R_DEPTH, rec, p, NULL, NULL);
}

int check_unjudged(const struct vxgbp_pkt *p)
{
	/* stopped by an error, or by the walk's bound (tunnel.depth), before
	 * a VXLAN header */
	return (p->err != 0 || (p->findings & VXGBP_RB(VXGBP_R_DEPTH))) &&
	       !(p->have & VXGBP_HAVE_VXLAN);
}

/* VXLAN header k of p (0 the first, k nested[k - 1]) with the layers
 * around it. */
static struct vx_view view_at(const struct vxgbp_pkt *p, unsigned k)
{
	const struct vxgbp_nested *n = k ? &p->nested[k - 1] : NULL;

	if (!n)
		return (struct vx_view){ &p->vx, &p->outer, &p->inner, p->vxlan_off, 0, p->vx_kind, 0 };
	return (struct vx_view){ &n->vx, k > 1 ? &p->nested[k - 2].inner : &p->inner, &n->inner,
				 n->off, k, n->kind, 0 };
}

void check_frame(struct gd_check *c, const struct gd_rec *rec, const struct vxgbp_pkt *p,
		 const struct vxgbp_track_result *x)
{
	struct vx_view hv;
	int fab;

	if (check_unjudged(p)) {
		add_unjudged(c, rec, p);
		return;
	}
	if (!(p->have & VXGBP_HAVE_VXLAN))
		return; /* not VXLAN, parsed to its end: nothing to judge */
	/* the tunnel layers' own, the first header's and the frame's (a
	 * mirror's when the fabric header is nested) */
	for (unsigned i = 0; i < p->n_encap && i < VXGBP_MAX_ENCAP; i++)
		if (p->encap_findings[i])
			add_encap(c, rec, p, i);
	fab = vxgbp_pkt_fabric(p, c->fabric);
	hv = view_at(p, 0);
	hv.mirror = fab > 0;
	add_findings(c, rec, p, &hv, p->findings);
	/* Cross-frame findings, in the order the tracker found them, on the
	 * header the tracker followed. */
	hv = view_at(p, fab > 0 ? (unsigned)fab : 0);
	if (x && (x->unjudged & VXGBP_TRACK_UNJUDGED_MAC))
		c->unjudged_mac++;
	for (unsigned i = 0; x && i < x->n_hits; i++)
		add(c, x->hit[i].rule, rec, p, &hv, &x->hit[i]);
	/* Every nested VXLAN header, judged on its own. */
	for (unsigned k = 1; k <= p->n_nested && k <= VXGBP_MAX_NESTED; k++) {
		hv = view_at(p, k);
		hv.mirror = (int)k < fab;
		add_findings(c, rec, p, &hv, p->nested[k - 1].findings);
	}
}

void check_set_fabric(struct gd_check *c, unsigned fabric)
{
	c->fabric = fabric;
}

/* ---- the report ---- */

static const char *lvl_name(int lv)
{
	return vxgbp_level_name((enum vxgbp_level)lv);
}

static void report_head(const struct gd_check *c, const struct vxgbp_track_summary *s,
			const char *limit, const uint64_t tot[3], struct gd_out *o, int json)
{
	int incomplete = s->dropped_endpoints || s->dropped_flows;

	if (json) {
		out_str(o, "{\"check\":{\"profile\":");
		out_json_str(o, c->pi->name);
		out_printf(o, ",\"checksums\":%s,\"frames\":%llu,\"vxlan\":%llu,\"gbp\":%llu,"
			   "\"unparsed\":%llu,\"unjudged\":%llu,"
			   "\"endpoints\":%zu,\"flows\":%zu,\"incomplete\":%s,"
			   "\"dropped_endpoints\":%llu,\"dropped_flows\":%llu,",
			   c->no_csum ? "false" : "true", (unsigned long long)s->frames,
			   (unsigned long long)s->vxlan, (unsigned long long)s->gbp,
			   (unsigned long long)s->unparsed, (unsigned long long)c->unjudged,
			   s->endpoints, s->flows, incomplete ? "true" : "false",
			   (unsigned long long)s->dropped_endpoints,
			   (unsigned long long)s->dropped_flows);
		if (c->unjudged_mac) /* only then: a capture with MACs reads as before */
			out_printf(o, "\"unjudged_mac\":%llu,", (unsigned long long)c->unjudged_mac);
		out_printf(o, "\"counts\":{\"MUST\":%llu,\"SHOULD\":%llu,\"INFO\":%llu},\"findings\":[",
			   (unsigned long long)tot[0], (unsigned long long)tot[1],
			   (unsigned long long)tot[2]);
		return;
	}
	out_printf(o, "gbpdump --check, profile %s: %llu frames, %llu VXLAN (%llu with G), "
		   "%llu unparsable before VXLAN, %zu endpoints, %zu flows\n", c->pi->name,
		   (unsigned long long)s->frames, (unsigned long long)s->vxlan,
		   (unsigned long long)s->gbp, (unsigned long long)s->unparsed, s->endpoints,
		   s->flows);
	if (c->no_csum)
		out_str(o, "checksums not verified: ip.bad-checksum, udp.bad-checksum and "
			"udp.checksum-offload not judged\n");
	if (c->unjudged_mac)
		out_printf(o, "%llu frame%s without an inner Ethernet header (VXLAN-GPE carrying "
			   "IP): gbp.group-conflict by source MAC not judged on %s; tracked by "
			   "inner IP address\n", (unsigned long long)c->unjudged_mac,
			   c->unjudged_mac == 1 ? "" : "s", c->unjudged_mac == 1 ? "it" : "them");
	if (incomplete)
		out_printf(o, "warning: %s: tables full: %llu endpoints, %llu flows not tracked; "
			   "cross-frame rules are incomplete\n", limit ? limit : "track budget",
			   (unsigned long long)s->dropped_endpoints,
			   (unsigned long long)s->dropped_flows);
}

/* One rule's JSON object: counts, source, text, first occurrences. */
static void report_json_rule(const struct gd_check *c, unsigned r, int l, struct gd_out *o)
{
	const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

	out_str(o, "{\"id\":");
	out_json_str(o, ri->id);
	out_str(o, ",\"level\":");
	out_json_str(o, lvl_name(l));
	out_printf(o, ",\"count\":%llu,\"source\":", (unsigned long long)c->cnt[r][l]);
	out_json_str(o, ri->source);
	out_str(o, ",\"text\":");
	out_json_str(o, ri->text);
	out_str(o, ",\"first\":[");
	for (unsigned i = 0; i < c->n_first[r][l]; i++) {
		const struct first_hit *oc = &c->first[r][l][i];

		out_printf(o, "%s{\"frame\":%llu,\"offset\":%d,\"detail\":", i ? "," : "",
			   (unsigned long long)oc->frame, oc->off);
		out_json_str(o, oc->what);
		out_putc(o, '}');
	}
	out_str(o, "]}");
}

/* The rules found, MUST first, in id order within a level.  Returns how
 * many. */
static unsigned report_rules(const struct gd_check *c, struct gd_out *o, int json)
{
	unsigned n = 0;

	for (int l = 0; l < 3; l++) {
		for (unsigned r = 0; r < VXGBP_R__COUNT; r++) {
			const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

			if (!c->cnt[r][l] || !ri)
				continue;
			if (json) {
				if (n)
					out_putc(o, ',');
				report_json_rule(c, r, l, o);
			} else {
				if (!n)
					out_printf(o, "\n%-28s %-6s %8s  %s\n", "RULE", "LEVEL",
						   "COUNT", "SOURCE");
				out_printf(o, "%-28s %-6s %8llu  %s\n", ri->id, lvl_name(l),
					   (unsigned long long)c->cnt[r][l], ri->source);
			}
			n++;
		}
	}
	return n;
}

/* Text: the first occurrences of every rule found. */
static void report_first(const struct gd_check *c, struct gd_out *o)
{
	out_str(o, "\nFirst occurrences (frame, byte offset of the header):\n");
	for (int l = 0; l < 3; l++) {
		for (unsigned r = 0; r < VXGBP_R__COUNT; r++) {
			const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

			if (!c->cnt[r][l] || !ri)
				continue;
			out_printf(o, "%s %s: %s\n", ri->id, lvl_name(l), ri->text);
			for (unsigned i = 0; i < c->n_first[r][l]; i++)
				out_printf(o, "  frame %llu offset %d: %s\n",
					   (unsigned long long)c->first[r][l][i].frame,
					   c->first[r][l][i].off, c->first[r][l][i].what);
		}
	}
}

/* A run that ended early has no verdict on the capture: "error". */
static const char *verdict_name(const struct gd_check *c, int rc, int upper)
{
	static const char *const n[2][4] = { { "pass", "warn", "fail", "error" },
					     { "PASS", "WARN", "FAIL", "ERROR" } };

	return n[upper][c->error ? 3 : rc == CHECK_EXIT_FAIL ? 2 : rc == CHECK_EXIT_WARN ? 1 : 0];
}

int check_report(const struct gd_check *c, const struct vxgbp_track_summary *s,
		 const char *limit, struct gd_out *o, int json)
{
	struct check_totals t;
	const uint64_t *tot = t.count;
	int rc;

	check_totals(c, &t);
	rc = c->error ? c->error_status : t.exit;

	report_head(c, s, limit, tot, o, json);
	if (report_rules(c, o, json) && !json)
		report_first(c, o);
	if (json)
		out_putc(o, ']');
	if (c->extra)
		c->extra(c->extra_ctx, o, json);
	if (json && c->error) {
		out_str(o, ",\"error\":");
		out_json_str(o, c->error);
	}
	if (json) {
		out_printf(o, ",\"verdict\":\"%s\",\"exit\":%d}", verdict_name(c, rc, 0), rc);
		if (c->tail)
			c->tail(c->tail_ctx, o);
		out_str(o, "}\n");
	}
	else
		out_printf(o, "\nverdict: %s (%llu MUST, %llu SHOULD, %llu INFO findings; "
			   "%llu frame%s not judged)\n", verdict_name(c, rc, 1),
			   (unsigned long long)tot[0], (unsigned long long)tot[1],
			   (unsigned long long)tot[2], (unsigned long long)c->unjudged,
			   c->unjudged == 1 ? "" : "s");
	return rc;
}

/* ---- the results per rule ---- */

int check_rule_next(const struct gd_check *c, unsigned *it, struct check_rule *cr)
{
	for (; *it < VXGBP_R__COUNT; (*it)++) {
		unsigned r = *it;
		int lv;

		memset(cr, 0, sizeof(*cr));
		if (!(cr->info = vxgbp_rule_get(r)))
			continue;
		cr->rule = r;
		lv = level_of(c, r, NULL);
		cr->level = (enum check_level)lv;
		if (c->no_csum && (vxgbp_rule_cats(r) & VXGBP_CAT_NIC_CSUM)) {
			cr->level = CHECK_OFF;
			cr->off_why = c->pi->flags & VXGBP_PROFILE_NO_CSUM
					      ? "checksums not verified in this profile"
					      : "checksums not verified (--no-checksums)";
		} else if (lv == VXGBP_LEVEL_OFF) {
			cr->off_why = c->off_why;
		} else if (r < 64 && (c->on_request & VXGBP_RB(r)) && !c->cnt[r][0] &&
			   !c->cnt[r][1] && !c->cnt[r][2]) {
			cr->level = CHECK_OFF;
			cr->off_why = "judged with --policy only";
		}
		for (int l = 0; l < 3; l++) {
			cr->count[l] = c->cnt[r][l];
			cr->n_first[l] = c->n_first[r][l];
			for (unsigned i = 0; i < c->n_first[r][l]; i++) {
				const struct first_hit *o = &c->first[r][l][i];

				cr->first[l][i] = (struct check_occ){ o->frame, o->rec_off, o->caplen,
								      o->sec, o->nsec, o->off,
								      o->what };
			}
		}
		(*it)++;
		return 1;
	}
	return 0;
}

void check_totals(const struct gd_check *c, struct check_totals *t)
{
	memset(t, 0, sizeof(*t));
	t->profile = c->pi->name;
	t->checksums = !c->no_csum;
	t->unjudged = c->unjudged;
	t->unjudged_mac = c->unjudged_mac;
	for (unsigned r = 0; r < VXGBP_R__COUNT; r++)
		for (int l = 0; l < 3; l++)
			t->count[l] += c->cnt[r][l];
	t->exit = t->count[0] ? CHECK_EXIT_FAIL : t->count[1] ? CHECK_EXIT_WARN : CHECK_EXIT_PASS;
}
