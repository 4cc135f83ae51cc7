// SPDX-License-Identifier: BSD-2-Clause
/*
 * profiles.c - the conformance profiles: the level each rule is judged at
 * by gbpdump --profile, the Wireshark plugin's "Conformance profile" and
 * vxgbp(7).  A profile is one table entry; a rule it does not name keeps
 * the level of the rule table.
 */
#include <stddef.h>

#include <vxgbp/vxgbp.h>

/* A level that differs from the rule table's: the level + 1 (0 in the
 * array keeps the table's). */
#define AT(lv) ((unsigned char)((lv) + 1))

struct profile {
	struct vxgbp_profile_info info;
	unsigned char level[VXGBP_R__COUNT]; /* AT(level) or 0 */
};

static const struct profile profiles[] = {
	{ { "strict", "the draft and RFC 7348 as written (the default)",
	    VXGBP_FLAGSET_DRAFT, 0 }, { 0 } },
	/* header bits a Linux 6.12 gbp device drops are MUST, bits it ignores
	 * SHOULD (VXGBP_PROFILE_LINUX) */
	{ { "linux", "what Linux 6.12 drops is MUST, what it ignores SHOULD",
	    VXGBP_FLAGSET_DRAFT, VXGBP_PROFILE_LINUX },
	  {
		[VXGBP_R_RSVD_FLAGS] = AT(VXGBP_LEVEL_SHOULD), /* MUST when Linux drops it */
		[VXGBP_R_D_WITHOUT_G] = AT(VXGBP_LEVEL_SHOULD),
		[VXGBP_R_A_WITHOUT_G] = AT(VXGBP_LEVEL_SHOULD),
		[VXGBP_R_ID_WITHOUT_G] = AT(VXGBP_LEVEL_SHOULD),
		[VXGBP_R_UDP_ZERO_CSUM6] = AT(VXGBP_LEVEL_MUST), /* dropped without udp6zerocsumrx */
		[VXGBP_R_FRAGMENT] = AT(VXGBP_LEVEL_INFO),       /* reassembled before vxlan_rcv() */
		[VXGBP_R_SPORT_RANGE] = AT(VXGBP_LEVEL_OFF),     /* Linux picks from its own range */
	  } },
	{ { "vpp", "strict, VPP's E and S flag bits allowed with G",
	    VXGBP_FLAGSET_DRAFT | VXGBP_FLAGSET_VPP, 0 }, { 0 } },
	/* the NIC fills in checksums after the capture point (tshark's
	 * default too) */
	{ { "offload", "strict, no checksum verified (sending-host captures)",
	    VXGBP_FLAGSET_DRAFT, VXGBP_PROFILE_NO_CSUM }, { 0 } },
};
#define N_PROFILES (sizeof(profiles) / sizeof(profiles[0]))

const struct vxgbp_profile_info *vxgbp_profile_get(unsigned i)
{
	return i < N_PROFILES ? &profiles[i].info : NULL;
}

int vxgbp_profile_lookup(const char *name)
{
	if (!name)
		return VXGBP_E_INVAL;
	for (unsigned i = 0; i < N_PROFILES; i++) {
		const char *a = profiles[i].info.name, *b = name;

		while (*a && *a == *b)
			a++, b++;
		if (*a == *b)
			return (int)i;
	}
	return VXGBP_E_INVAL;
}

/* Would a Linux gbp device drop h for its reserved flag bits?  (I forced
 * on and the tail byte cleared, so that other rules do not mask it.) */
static int linux_drops_rsvd(const struct vxgbp_hdr *h)
{
	struct vxgbp_hdr x = *h;
	struct vxgbp_verdict v;

	x.flags |= VXGBP_F_I;
	x.rsvd = 0;
	vxgbp_verdict_linux(&x, VXGBP_DEV_GBP, &v);
	return !v.accept && v.why == VXGBP_DROP_RSVD_FLAGS;
}

int vxgbp_profile_level(unsigned profile, unsigned rule, const struct vxgbp_hdr *h)
{
	const struct vxgbp_rule_info *ri = vxgbp_rule_get(rule);
	const struct profile *p = profile < N_PROFILES ? &profiles[profile] : NULL;

	if (!p || !ri)
		return VXGBP_E_INVAL;
	if ((p->info.flags & VXGBP_PROFILE_NO_CSUM) && (vxgbp_rule_cats(rule) & VXGBP_CAT_NIC_CSUM))
		return VXGBP_LEVEL_OFF;
	if ((p->info.flags & VXGBP_PROFILE_LINUX) && rule == VXGBP_R_RSVD_FLAGS && h &&
	    linux_drops_rsvd(h))
		return VXGBP_LEVEL_MUST;
	return p->level[rule] ? p->level[rule] - 1 : (int)ri->level;
}

uint64_t vxgbp_profile_findings(unsigned profile, const struct vxgbp_hdr *h,
				enum vxgbp_vx_kind kind, uint64_t findings)
{
	uint64_t f = findings;

	if (profile >= N_PROFILES)
		return 0;
	for (unsigned r = 0; f && r < VXGBP_R__COUNT && r < 64; r++)
		if ((f & VXGBP_RB(r)) && vxgbp_profile_level(profile, r, h) == VXGBP_LEVEL_OFF)
			f &= ~VXGBP_RB(r);
	/* reserved bits that the profile's flag sets name (VPP's E, S) */
	if (h && kind == VXGBP_VX_VXLAN && (f & VXGBP_RB(VXGBP_R_RSVD_FLAGS)) &&
	    !(h->flags & VXGBP_F_RSVD_GBP &
	      (uint16_t)~vxgbp_flags_defined(h->flags, profiles[profile].info.flagsets)))
		f &= ~VXGBP_RB(VXGBP_R_RSVD_FLAGS);
	return f;
}
