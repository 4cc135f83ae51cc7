// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_rules.c - the four cross-frame rules, judged on the frame where
 * they are seen:
 *  - a fixed direct-mapped cache of the last TRK_DUP_SLOTS distinct inner
 *    frames (64-bit hash of VNI + inner bytes) for the re-applied / cleared
 *    policy rules: a frame captured on both sides of a policy device shows
 *    up twice within a short window, so a bounded cache is enough;
 *  - endpoints (VNI + inner source MAC, VNI + inner source IP or ARP
 *    sender) and inner flows (VNI + IP version, protocol, addresses, and
 *    ports for TCP, UDP and SCTP), each keeping the last group ID seen.
 * A re-sighting already reported is not also an endpoint or flow change.
 */
#include <string.h>

#include "track.h"

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

static void add_hit(struct vxgbp_track_result *r, unsigned rule, enum vxgbp_track_key key,
		    uint64_t frame, uint16_t group, uint16_t flags)
{
	struct vxgbp_track_hit *x;

	if (!r)
		return;
	r->findings |= VXGBP_RB(rule);
	if (r->n_hits >= VXGBP_TRACK_MAX_HITS)
		return;
	x = &r->hit[r->n_hits++];
	x->rule = rule;
	x->key = key;
	x->prev_frame = frame;
	x->prev_group = group;
	x->prev_flags = flags;
}

/* The same inner frame seen again: re-applied or cleared policy.  Returns
 * the rule hit, or 0. */
static unsigned dup_check(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
			  struct vxgbp_track_result *r)
{
	const struct vxgbp_hdr *h = &p->vx;
	size_t len = p->caplen - (size_t)p->inner.l2.off;
	uint64_t hh = hash_bytes(mix(0x27d4eb2f165667c5ull, h->vni), p->inner.l2.dst, len);
	struct trk_dup *d = &st->dup[hh & (TRK_DUP_SLOTS - 1)];
	int gbp = vxgbp_hdr_has_gbp(h);
	unsigned rule = 0;

	if (d->frame && d->h == hh && d->len == len) {
		int pa = (d->flags & (VXGBP_F_G | VXGBP_F_A)) == (VXGBP_F_G | VXGBP_F_A);
		int ca = gbp && (h->flags & VXGBP_F_A);
		int pg = (d->flags & VXGBP_F_G) != 0;

		if (pa && !ca)
			rule = VXGBP_R_A_CLEARED;
		else if (pg && gbp && d->group != h->group && (pa || ca))
			rule = VXGBP_R_POLICY_REAPPLIED;
		if (rule)
			add_hit(r, rule, VXGBP_KEY_FRAME, d->frame, d->group, d->flags);
	}
	d->h = hh;
	d->len = (uint32_t)len;
	d->frame = frame;
	d->flags = h->flags;
	d->group = h->group;
	return rule;
}

/* One endpoint or flow key: a change of group is a finding of `rule`.
 * Returns `full` when the key found no room, else 0. */
static unsigned judge(struct trk_state *st, struct trk_tab *t, const uint64_t *k,
		      const struct vxgbp_pkt *p, uint64_t frame, unsigned rule,
		      enum vxgbp_track_key key, struct vxgbp_track_result *r, unsigned full)
{
	int is_new;
	struct trk_slot *s = t->nw == TRK_KEY6
		? trk_tab_get(&st->mem, t, k, TRK_KEY6, trk_hash(k, TRK_KEY6), &is_new)
		: trk_tab_get(&st->mem, t, k, TRK_KEY4, trk_hash(k, TRK_KEY4), &is_new);

	if (!s)
		return full;
	/* an endpoint the matrix learned but the rules never saw is new here */
	if (s->v.ep.frame && s->v.ep.group != p->vx.group)
		add_hit(r, rule, key, s->v.ep.frame, s->v.ep.group, s->v.ep.flags);
	s->v.ep.frame = frame;
	s->v.ep.group = p->vx.group;
	s->v.ep.flags = p->vx.flags;
	return 0;
}

/* Endpoints: VNI + inner source MAC, VNI + inner source IP (or ARP sender). */
static unsigned endpoints(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
			  struct vxgbp_track_result *r)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;
	uint64_t k[TRK_KEY4];
	unsigned full;

	k[0] = TRK_USED | p->vx.vni;
	k[1] = 0; /* family 0: a MAC address */
	trk_addr_words(k + 2, p->inner.l2.src, 6);
	full = judge(st, &st->eps, k, p, frame, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, r,
		     VXGBP_TRACK_FULL_ENDPOINTS);
	if ((p->have & VXGBP_HAVE_INNER_L3) && l3->src && (l3->version == 4 || l3->version == 6)) {
		k[1] = l3->version;
		trk_addr_words(k + 2, l3->src, l3->version == 6 ? 16 : 4);
	} else if (l3->arp_spa) {
		k[1] = 4;
		trk_addr_words(k + 2, l3->arp_spa, 4);
	} else {
		return full;
	}
	return full | judge(st, &st->eps, k, p, frame, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_IP, r,
			    VXGBP_TRACK_FULL_ENDPOINTS);
}

/* Flows: VNI + inner IP version, protocol, addresses, ports (0 for
 * protocols without them). */
static unsigned flow(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
		     struct vxgbp_track_result *r)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;
	size_t alen = l3->version == 6 ? 16 : 4;
	uint64_t k[TRK_KEY6], sp = 0, dp = 0;

	if (!(p->have & VXGBP_HAVE_INNER_L3) || !l3->src || !l3->dst)
		return 0;
	if ((p->have & VXGBP_HAVE_INNER_L4) &&
	    (l3->proto == 6 || l3->proto == 17 || l3->proto == 132)) {
		sp = p->inner.l4.sport;
		dp = p->inner.l4.dport;
	}
	k[0] = TRK_USED | p->vx.vni | (uint64_t)l3->version << 24 | (uint64_t)l3->proto << 32;
	k[1] = sp | dp << 16;
	trk_addr_words(k + 2, l3->src, alen);
	trk_addr_words(k + 4, l3->dst, alen);
	return judge(st, &st->flows, k, p, frame, VXGBP_R_FLOW_GROUP_CHANGE, VXGBP_KEY_FLOW, r,
		     VXGBP_TRACK_FULL_FLOWS);
}

unsigned vxgbpi_rules_frame(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
			    struct vxgbp_track_result *r)
{
	if (!(p->have & VXGBP_HAVE_INNER_L2))
		return 0;
	if (dup_check(st, p, frame, r) || !vxgbp_hdr_has_gbp(&p->vx))
		return 0; /* a re-sighting already reported is not also a change */
	return endpoints(st, p, frame, r) | flow(st, p, frame, r);
}
