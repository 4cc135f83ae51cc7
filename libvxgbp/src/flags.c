// SPDX-License-Identifier: BSD-2-Clause
/*
 * flags.c - what each bit of the flags word means: one table, read by every
 * front end (gbpdump's text, JSON and --check, the Wireshark plugin).
 *
 *    0                   1
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |G|R|R|R|I|R|R|R|R|D|E|S|A|R|R|R|   E, S: VPP only
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * D and A (and VPP's E and S) mean something only with G: the draft
 * (sec. 2.1) defines them as part of the Group Policy extension, and Linux's
 * vxlan_parse_gbp_hdr() reads them only when G is set.  Without G they are
 * reserved bits (RFC 7348 sec. 5) and are rendered as such.
 */
#include <string.h>

#include <vxgbp/vxgbp.h>

/* VPP src/vnet/vxlan-gbp/vxlan_gbp_packet.h: E ("bounce": the packet must
 * be dropped) and S (source policy applied). */
#define VPP_F_E 0x0020u
#define VPP_F_S 0x0010u

static const struct vxgbp_flag_info flags[] = {
	{ "G", "gbp", "Group Policy ID present", VXGBP_F_G, 0, VXGBP_FLAGSET_DRAFT },
	{ "I", "vni_valid", "VNI valid", VXGBP_F_I, 0, VXGBP_FLAGSET_DRAFT },
	{ "D", "dont_learn", "Don't Learn", VXGBP_F_D, VXGBP_F_G, VXGBP_FLAGSET_DRAFT },
	{ "A", "policy_applied", "Policy Applied", VXGBP_F_A, VXGBP_F_G, VXGBP_FLAGSET_DRAFT },
	{ "E", "bounce", "Bounce: drop (VPP)", VPP_F_E, VXGBP_F_G, VXGBP_FLAGSET_VPP },
	{ "S", "source_policy_applied", "Source policy applied (VPP)", VPP_F_S, VXGBP_F_G,
	  VXGBP_FLAGSET_VPP },
};
#define N_FLAGS (sizeof(flags) / sizeof(flags[0]))

const struct vxgbp_flag_info *vxgbp_flag_get(unsigned i)
{
	return i < N_FLAGS ? &flags[i] : NULL;
}

uint16_t vxgbp_flags_defined(uint16_t f, unsigned sets)
{
	uint16_t d = 0;

	if (!sets)
		sets = VXGBP_FLAGSET_DRAFT;
	for (unsigned i = 0; i < N_FLAGS; i++)
		if ((flags[i].set & sets) && (f & flags[i].needs) == flags[i].needs)
			d |= flags[i].mask;
	return d;
}

/* The rendering of f into w, which has VXGBP_FLAGS_STRLEN bytes: the
 * defined bits set, by name, then R=0x.... for the rest (one pass over the
 * table, as vxgbp_flags_defined() reads it). */
static inline size_t render(char *w, uint16_t f, unsigned sets)
{
	static const char hex[] = "0123456789abcdef";
	uint16_t rsvd = f;
	size_t n = 0;

	if (!sets)
		sets = VXGBP_FLAGSET_DRAFT;
	/* unrolled: the table is constant, so each flag's tests and name
	 * become immediates (vxgbp_hdr_summary() renders every frame's) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
	for (unsigned i = 0; i < N_FLAGS; i++) {
		const struct vxgbp_flag_info *fi = &flags[i];

		if (!(f & fi->mask) || !(fi->set & sets) || (f & fi->needs) != fi->needs)
			continue;
		rsvd &= (uint16_t)~fi->mask;
		if (n)
			w[n++] = ',';
		for (const char *c = fi->name; *c; c++)
			w[n++] = *c;
	}
	if (rsvd) {
		if (n)
			w[n++] = ',';
		memcpy(w + n, "R=0x", 4);
		n += 4;
		for (int k = 12; k >= 0; k -= 4)
			w[n++] = hex[(rsvd >> k) & 0xf];
	}
	w[n] = '\0';
	return n;
}

/* Plain stores, no printf: gbpdump renders the flags of every frame. */
int vxgbp_flags_format(char *buf, size_t buflen, uint16_t f, unsigned sets)
{
	char tmp[VXGBP_FLAGS_STRLEN];
	size_t n;

	if (buf && buflen >= VXGBP_FLAGS_STRLEN)
		return (int)render(buf, f, sets);
	n = render(tmp, f, sets);
	if (!buf || !buflen)
		return VXGBP_E_NOSPACE;
	for (size_t i = 0; i < buflen; i++)
		buf[i] = i + 1 < buflen && i < n ? tmp[i] : '\0';
	return n < buflen ? (int)n : VXGBP_E_NOSPACE;
}
