// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_mark.c - the Linux skb->mark mapping and the receive verdict of a
 * Linux 6.12 VXLAN device.
 *
 * The reference here is our own reading of Linux 6.12
 * drivers/net/vxlan/vxlan_core.c (vxlan_rcv(), vxlan_parse_gbp_hdr(),
 * vxlan_xmit_one()) and include/net/vxlan.h (vxlan_build_gbp_hdr(),
 * VXLAN_GBP_* constants), restated on the raw 32-bit words the kernel
 * works on (kernel_rcv() below), independent of the library's struct
 * layout:
 *   - vx_flags word: I = BIT(27), G = BIT(31); VXLAN_GBP_USED_BITS is
 *     G | 0x00ffffff, i.e. G, the whole second byte and the ID;
 *   - I clear: dropped before anything else;
 *   - unparsed = header without I and without the 24 VNI bits;
 *   - on a gbp device vxlan_parse_gbp_hdr() runs: with G it builds
 *     md->gbp = ID | D << 22 | A << 19 and sets skb->mark unless the device
 *     is collect_md; with or without G it clears the USED bits;
 *   - any unparsed bit left (flags, ID, tail byte) drops the frame.
 * The kernel reports every drop as VXLAN_INVALID_HDR; the library names
 * the first cause, in the order I, G, other flag/ID bits, tail byte.
 */
#include <vxgbp/vxgbp.h>

#include "unit.h"

static uint32_t be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

#define K_HF_VNI (1u << 27)
#define K_HF_GBP (1u << 31)
#define K_GBP_USED (K_HF_GBP | 0x00ffffffu)
#define K_VNI_MASK 0xffffff00u
#define K_DONT_LEARN (1u << 22)
#define K_POLICY_APPLIED (1u << 19)

static void kernel_rcv(const uint8_t b[8], unsigned dev, struct vxgbp_verdict *v)
{
	uint32_t u0 = be32(b), u1 = be32(b + 4), md = 0;

	memset(v, 0, sizeof(*v));
	if (!(u0 & K_HF_VNI)) {
		v->why = VXGBP_DROP_I_CLEAR;
		return;
	}
	u0 &= ~K_HF_VNI;
	u1 &= ~K_VNI_MASK;
	if (dev & VXGBP_DEV_GBP) {
		if (u0 & K_HF_GBP) {
			md = (uint32_t)b[2] << 8 | b[3];
			if (b[1] & 0x40) /* dont_learn, big-endian bitfield bit 1 */
				md |= K_DONT_LEARN;
			if (b[1] & 0x08) /* policy_applied, bit 4 */
				md |= K_POLICY_APPLIED;
			v->md_gbp = md;
			if (!(dev & VXGBP_DEV_COLLECT_MD)) {
				v->mark = md;
				v->mark_set = 1;
			}
		}
		u0 &= ~K_GBP_USED;
	}
	if (u0 || u1) {
		memset(v, 0, sizeof(*v));
		v->why = (u0 & K_HF_GBP) ? VXGBP_DROP_GBP_NOT_ENABLED
			 : u0            ? VXGBP_DROP_RSVD_FLAGS
					 : VXGBP_DROP_RSVD_VNI;
		return;
	}
	v->accept = 1;
}

/* field by field: the struct has padding */
static int same_hdr(const struct vxgbp_hdr *a, const struct vxgbp_hdr *b)
{
	return a->flags == b->flags && a->group == b->group && a->vni == b->vni &&
	       a->rsvd == b->rsvd;
}

static const unsigned devs[] = { 0, VXGBP_DEV_GBP, VXGBP_DEV_COLLECT_MD,
				 VXGBP_DEV_GBP | VXGBP_DEV_COLLECT_MD };

static void verdict_of(const uint8_t b[8], unsigned dev, struct vxgbp_verdict *v)
{
	struct vxgbp_hdr h;

	vxgbp_hdr_decode(&h, b, 8);
	memset(v, 0x5a, sizeof(*v));
	EXPECT_EQ(vxgbp_verdict_linux(&h, dev, v), 0);
}

static int same_verdict(const struct vxgbp_verdict *a, const struct vxgbp_verdict *b)
{
	return a->accept == b->accept && a->why == b->why && a->mark_set == b->mark_set &&
	       a->mark == b->mark && a->md_gbp == b->md_gbp;
}

static void expect_verdict(const struct vxgbp_verdict *got, const struct vxgbp_verdict *want)
{
	EXPECT_EQ(got->accept, want->accept);
	EXPECT_STR(vxgbp_drop_name(got->why), vxgbp_drop_name(want->why));
	EXPECT_EQ(got->mark_set, want->mark_set);
	EXPECT_EQ(got->mark, want->mark);
	EXPECT_EQ(got->md_gbp, want->md_gbp);
}

/* ---- mark -> header (transmit) ---- */

START_TEST(test_mark_to_hdr_bits)
{
	for (int bit = 0; bit < 32; bit++) {
		uint32_t m = 1u << bit;

		for (int strict = 0; strict < 2; strict++) {
			struct vxgbp_hdr h;
			int gbp_bit = bit < 16 || bit == 19 || bit == 22;

			CTX("mark bit %d strict %d", bit, strict);
			memset(&h, 0xa5, sizeof(h));
			vxgbp_mark_to_hdr(&h, m, 0x00abcd, strict ? VXGBP_MARK_TX_STRICT : 0);
			EXPECT_EQ(h.vni, 0x00abcd);
			EXPECT_EQ(h.rsvd, 0);
			EXPECT(h.flags & VXGBP_F_I, "I always set");
			/* the kernel tests !md->gbp: any non-zero mark sends G */
			EXPECT_EQ(vxgbp_hdr_has_gbp(&h), strict ? gbp_bit : 1);
			EXPECT_EQ(h.group, bit < 16 ? m : 0);
			EXPECT_EQ((h.flags & VXGBP_F_D) != 0, bit == 22);
			EXPECT_EQ((h.flags & VXGBP_F_A) != 0, bit == 19);
			EXPECT_EQ(h.flags & ~(VXGBP_F_G | VXGBP_F_I | VXGBP_F_D | VXGBP_F_A), 0);
		}
	}
}
END_TEST

START_TEST(test_mark_to_hdr_values)
{
	static const struct {
		uint32_t mark;
		unsigned flags;
		uint8_t want[8];
	} c[] = {
		/* mark 0: plain VXLAN, no G, in both modes */
		{ 0, 0, { 0x08, 0, 0, 0, 0, 0, 9, 0 } },
		{ 0, VXGBP_MARK_TX_STRICT, { 0x08, 0, 0, 0, 0, 0, 9, 0 } },
		/* a routing fwmark: the kernel sends G with ID 0, strict mode none */
		{ 0x1000000, 0, { 0x88, 0, 0, 0, 0, 0, 9, 0 } },
		{ 0x1000000, VXGBP_MARK_TX_STRICT, { 0x08, 0, 0, 0, 0, 0, 9, 0 } },
		{ 0x200, 0, { 0x88, 0, 0x02, 0, 0, 0, 9, 0 } },
		{ 0x400000, 0, { 0x88, 0x40, 0, 0, 0, 0, 9, 0 } },
		{ 0x80000, 0, { 0x88, 0x08, 0, 0, 0, 0, 9, 0 } },
		{ 0x48ffff, 0, { 0x88, 0x48, 0xff, 0xff, 0, 0, 9, 0 } },
		/* bits outside the GBP layout (here 16-18, 20, 21, 24-31) are lost */
		{ 0xff371234, 0, { 0x88, 0, 0x12, 0x34, 0, 0, 9, 0 } },
		{ 0xff371234, VXGBP_MARK_TX_STRICT, { 0x88, 0, 0x12, 0x34, 0, 0, 9, 0 } },
		{ 0xff3f1234, 0, { 0x88, 0x08, 0x12, 0x34, 0, 0, 9, 0 } }, /* bit 19: A */
		{ 0xffffffff, 0, { 0x88, 0x48, 0xff, 0xff, 0, 0, 9, 0 } },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct vxgbp_hdr h;
		uint8_t out[8];

		CTX("mark %#x flags %u", c[i].mark, c[i].flags);
		vxgbp_mark_to_hdr(&h, c[i].mark, 9, c[i].flags);
		EXPECT_EQ(vxgbp_hdr_encode(&h, out, 8), 8);
		EXPECT_MEM(out, c[i].want, 8);
	}
}
END_TEST

/* ---- header -> mark (receive) ---- */

START_TEST(test_mark_from_hdr_bits)
{
	/* every bit of the 8 bytes, with and without G */
	for (int k = 0; k < 64; k++) {
		for (int g = 0; g < 2; g++) {
			uint8_t b[8] = { (uint8_t)(g ? 0x88 : 0x08), 0, 0, 0, 0, 0, 1, 0 };
			struct vxgbp_hdr h;
			uint32_t want = 0;

			if (k == 0 || k == 4)
				continue; /* G and I themselves */
			CTX("bit %d G %d", k, g);
			b[k / 8] |= (uint8_t)(0x80u >> (k % 8));
			vxgbp_hdr_decode(&h, b, 8);
			if (g) {
				if (k >= 16 && k < 32)
					want = 1u << (31 - k);
				else if (k == 9)
					want = 1u << 22;
				else if (k == 12)
					want = 1u << 19;
			}
			EXPECT_EQ(vxgbp_mark_from_hdr(&h), want);
		}
	}
}
END_TEST

START_TEST(test_mark_roundtrip)
{
	unsigned long long s = 12345;

	/* every ID with every D/A combination: mark -> header -> mark */
	for (uint32_t id = 0; id <= 0xffff; id++) {
		for (unsigned da = 0; da < 4; da++) {
			uint32_t m = id | (da & 1 ? VXGBP_MARK_D : 0) | (da & 2 ? VXGBP_MARK_A : 0);
			struct vxgbp_hdr h, h2;

			vxgbp_mark_to_hdr(&h, m, 1, 0);
			vxgbp_mark_to_hdr(&h2, m, 1, VXGBP_MARK_TX_STRICT);
			unit_nchecks += 3;
			if (vxgbp_mark_from_hdr(&h) != m || vxgbp_mark_from_hdr(&h2) != m ||
			    !same_hdr(&h, &h2)) {
				CTX("mark %#x", m);
				EXPECT_EQ(vxgbp_mark_from_hdr(&h), m);
				EXPECT_EQ(vxgbp_mark_from_hdr(&h2), m);
				EXPECT(0, "kernel and strict headers differ for a GBP mark");
			}
		}
	}
	/* any 32-bit mark: only the GBP bits survive the trip */
	for (int n = 0; n < 200000; n++) {
		uint32_t m = (uint32_t)unit_rand(&s);
		struct vxgbp_hdr h;
		struct vxgbp_verdict v;

		CTX("random mark %#x", m);
		vxgbp_mark_to_hdr(&h, m, 77, 0);
		unit_nchecks += 4;
		if (vxgbp_mark_from_hdr(&h) != (m & VXGBP_MARK_USED))
			EXPECT_EQ(vxgbp_mark_from_hdr(&h), m & VXGBP_MARK_USED);
		/* what one Linux gbp VTEP sends, another accepts with that mark */
		vxgbp_verdict_linux(&h, VXGBP_DEV_GBP, &v);
		if (!v.accept || !v.mark_set || v.mark != (m & VXGBP_MARK_USED)) {
			EXPECT_EQ(v.accept, 1);
			EXPECT_EQ(v.mark_set, m != 0);
			EXPECT_EQ(v.mark, m & VXGBP_MARK_USED);
		}
		vxgbp_mark_to_hdr(&h, m, 77, VXGBP_MARK_TX_STRICT);
		if (vxgbp_mark_from_hdr(&h) != (m & VXGBP_MARK_USED) ||
		    vxgbp_hdr_has_gbp(&h) != ((m & VXGBP_MARK_USED) != 0)) {
			EXPECT_EQ(vxgbp_mark_from_hdr(&h), m & VXGBP_MARK_USED);
			EXPECT_EQ(vxgbp_hdr_has_gbp(&h), (m & VXGBP_MARK_USED) != 0);
		}
	}
	/* header -> mark -> header for conforming GBP headers */
	for (int n = 0; n < 100000; n++) {
		uint64_t x = unit_rand(&s);
		struct vxgbp_hdr h, h2;

		vxgbp_hdr_init(&h, (uint32_t)(x >> 32) & VXGBP_VNI_MAX,
			       (uint16_t)(VXGBP_F_G | ((x >> 16) & 1 ? VXGBP_F_D : 0) |
					  ((x >> 17) & 1 ? VXGBP_F_A : 0)),
			       (uint16_t)x);
		vxgbp_mark_to_hdr(&h2, vxgbp_mark_from_hdr(&h), h.vni, VXGBP_MARK_TX_STRICT);
		unit_nchecks++;
		if (!same_hdr(&h, &h2) && (h.group || h.flags & (VXGBP_F_D | VXGBP_F_A))) {
			CTX("header %#x/%#x", h.flags, h.group);
			EXPECT(0, "header did not survive header->mark->header");
		}
	}
}
END_TEST

/* ---- verdicts ---- */

START_TEST(test_verdict_named_cases)
{
	static const struct {
		const char *what;
		uint8_t b[8];
		unsigned dev;
		int accept;
		const char *why;
		int mark_set;
		uint32_t mark, md_gbp;
	} c[] = {
		{ "I clear", { 0x00, 0, 0, 0, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 0, "i-flag-clear", 0, 0, 0 },
		{ "I clear, G", { 0x80, 0, 0x02, 0, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 0, "i-flag-clear", 0, 0, 0 },
		{ "I clear, plain dev", { 0x00, 0, 0, 0, 0, 0, 1, 0 }, 0, 0, "i-flag-clear", 0, 0, 0 },
		{ "G on non-gbp", { 0x88, 0, 0x02, 0, 0, 0, 1, 0 }, 0, 0, "gbp-not-enabled", 0, 0, 0 },
		{ "G id 0 on non-gbp", { 0x88, 0, 0, 0, 0, 0, 1, 0 }, 0, 0, "gbp-not-enabled", 0, 0, 0 },
		{ "plain on non-gbp", { 0x08, 0, 0, 0, 0, 0, 1, 0 }, 0, 1, "accept", 0, 0, 0 },
		{ "plain on gbp", { 0x08, 0, 0, 0, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 1, "accept", 0, 0, 0 },
		{ "G+ID on gbp", { 0x88, 0, 0x02, 0x00, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 1, "accept", 1, 0x200, 0x200 },
		{ "G+ID+D+A on gbp", { 0x88, 0x48, 0xbe, 0xef, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 1, "accept", 1, 0x48beef, 0x48beef },
		{ "G id 0 on gbp sets mark 0", { 0x88, 0, 0, 0, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 1, "accept", 1, 0, 0 },
		{ "collect_md", { 0x88, 0x40, 0x01, 0x00, 0, 0, 1, 0 }, VXGBP_DEV_GBP | VXGBP_DEV_COLLECT_MD, 1, "accept", 0, 0, 0x400100 },
		{ "collect_md plain", { 0x08, 0, 0, 0, 0, 0, 1, 0 }, VXGBP_DEV_GBP | VXGBP_DEV_COLLECT_MD, 1, "accept", 0, 0, 0 },
		{ "byte-0 reserved on gbp", { 0x8c, 0, 0x02, 0, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 0, "reserved-flags", 0, 0, 0 },
		{ "byte-0 reserved, no G", { 0x48, 0, 0, 0, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 0, "reserved-flags", 0, 0, 0 },
		{ "byte-0 reserved non-gbp", { 0x09, 0, 0, 0, 0, 0, 1, 0 }, 0, 0, "reserved-flags", 0, 0, 0 },
		{ "byte-1 reserved with G on gbp", { 0x88, 0xb7, 0, 5, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 1, "accept", 1, 5, 5 },
		{ "byte-1 bits without G on gbp", { 0x08, 0xff, 0, 0, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 1, "accept", 0, 0, 0 },
		{ "byte-1 bit on non-gbp", { 0x08, 0x01, 0, 0, 0, 0, 1, 0 }, 0, 0, "reserved-flags", 0, 0, 0 },
		{ "D without G on non-gbp", { 0x08, 0x40, 0, 0, 0, 0, 1, 0 }, 0, 0, "reserved-flags", 0, 0, 0 },
		{ "tail byte on gbp", { 0x88, 0, 0x02, 0, 0, 0, 1, 0x01 }, VXGBP_DEV_GBP, 0, "reserved-byte", 0, 0, 0 },
		{ "tail byte plain", { 0x08, 0, 0, 0, 0, 0, 1, 0x80 }, 0, 0, "reserved-byte", 0, 0, 0 },
		{ "ID without G on non-gbp", { 0x08, 0, 0x02, 0, 0, 0, 1, 0 }, 0, 0, "reserved-flags", 0, 0, 0 },
		{ "ID without G on gbp", { 0x08, 0, 0x02, 0, 0, 0, 1, 0 }, VXGBP_DEV_GBP, 1, "accept", 0, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct vxgbp_verdict v, k;

		CTX("%s", c[i].what);
		verdict_of(c[i].b, c[i].dev, &v);
		EXPECT_EQ(v.accept, c[i].accept);
		EXPECT_STR(vxgbp_drop_name(v.why), c[i].why);
		EXPECT_EQ(v.mark_set, c[i].mark_set);
		if (c[i].mark_set)
			EXPECT_EQ(v.mark, c[i].mark);
		EXPECT_EQ(v.md_gbp, c[i].md_gbp);
		/* and the kernel restatement agrees with the table */
		kernel_rcv(c[i].b, c[i].dev, &k);
		expect_verdict(&v, &k);
	}
}
END_TEST

/* Each bit alone on top of a conforming header, all four device kinds. */
START_TEST(test_verdict_every_bit)
{
	static const uint8_t bases[2][8] = {
		{ 0x08, 0, 0, 0, 0, 0, 1, 0 },       /* plain */
		{ 0x88, 0, 0x02, 0x00, 0, 0, 1, 0 }, /* GBP, ID 0x200 */
	};

	for (int bs = 0; bs < 2; bs++)
		for (int k = 0; k < 64; k++)
			for (size_t d = 0; d < 4; d++) {
				uint8_t b[8];
				struct vxgbp_verdict v, want;

				CTX("base %d bit %d dev %u", bs, k, devs[d]);
				memcpy(b, bases[bs], 8);
				b[k / 8] ^= (uint8_t)(0x80u >> (k % 8));
				verdict_of(b, devs[d], &v);
				kernel_rcv(b, devs[d], &want);
				expect_verdict(&v, &want);
				/* VNI bits never change the verdict */
				if (k >= 32 && k < 56) {
					struct vxgbp_verdict v0;

					verdict_of(bases[bs], devs[d], &v0);
					EXPECT(same_verdict(&v, &v0), "VNI bit changed the verdict");
				}
			}
}
END_TEST

/* All flag words x IDs x tail bytes x device kinds against the kernel
 * restatement. */
START_TEST(test_verdict_exhaustive)
{
	static const uint16_t ids[] = { 0, 1, 0x0200, 0xffff };
	static const uint8_t tails[] = { 0, 0x10 };

	for (unsigned fl = 0; fl <= 0xffff; fl++)
		for (size_t i = 0; i < 4; i++)
			for (size_t t = 0; t < 2; t++)
				for (size_t d = 0; d < 4; d++) {
					uint8_t b[8] = { (uint8_t)(fl >> 8), (uint8_t)fl,
							 (uint8_t)(ids[i] >> 8), (uint8_t)ids[i],
							 0x12, 0x34, 0x56, tails[t] };
					struct vxgbp_hdr h;
					struct vxgbp_verdict v, want;

					vxgbp_hdr_decode(&h, b, 8);
					vxgbp_verdict_linux(&h, devs[d], &v);
					kernel_rcv(b, devs[d], &want);
					unit_nchecks += 2;
					/* a header the checker finds conforming is one
					 * Linux accepts (on a plain device: if it has no G) */
					if (!(vxgbp_hdr_check(&h) & ~VXGBP_RB(VXGBP_R_ZERO_ID)) &&
					    ((devs[d] & VXGBP_DEV_GBP) || !vxgbp_hdr_has_gbp(&h)) &&
					    !v.accept) {
						CTX("flags %#06x id %#x tail %#x dev %u", fl, ids[i],
						    tails[t], devs[d]);
						EXPECT(0, "conforming header dropped: %s",
						       vxgbp_drop_name(v.why));
					}
					if (!same_verdict(&v, &want)) {
						CTX("flags %#06x id %#x tail %#x dev %u", fl, ids[i],
						    tails[t], devs[d]);
						expect_verdict(&v, &want);
					}
				}
}
END_TEST

/* gbpdump --json keeps the verdicts' names from the last header whose
 * flags, reserved byte and group-or-not were the same (print/json.c,
 * vx_key()): the accept/drop outcome must depend on nothing else, on
 * every kind of device. */
START_TEST(test_verdict_inputs)
{
	static const uint16_t groups[] = { 1, 0x1234, 0xffff };
	static const uint32_t vnis[] = { 0, 1, 0xabcdef, 0xffffff };
	static const uint8_t rsvds[] = { 0, 1, 0x80, 0xff };
	unsigned bad = 0;

	for (uint32_t f = 0; f < 0x10000; f++)
		for (size_t r = 0; r < 4; r++)
			for (size_t d = 0; d < sizeof(devs) / sizeof(devs[0]); d++)
				for (int nz = 0; nz < 2; nz++) {
					struct vxgbp_hdr ref = { (uint16_t)f, (uint16_t)nz, 0, rsvds[r] };
					struct vxgbp_verdict a, b;

					vxgbp_verdict_linux(&ref, devs[d], &a);
					for (size_t g = 0; g < 3; g++)
						for (size_t v = 0; v < 4; v++) {
							struct vxgbp_hdr h = ref;

							h.group = nz ? groups[g] : 0;
							h.vni = vnis[v];
							vxgbp_verdict_linux(&h, devs[d], &b);
							bad += a.accept != b.accept || a.why != b.why;
						}
				}
	CTX("verdict inputs");
	EXPECT(bad == 0, "%u headers whose verdict depends on more than flags, rsvd, group != 0",
	       bad);
}
END_TEST

START_TEST(test_drop_names)
{
	static const struct {
		enum vxgbp_drop why;
		const char *name;
	} c[] = {
		{ VXGBP_DROP_NONE, "accept" },
		{ VXGBP_DROP_I_CLEAR, "i-flag-clear" },
		{ VXGBP_DROP_GBP_NOT_ENABLED, "gbp-not-enabled" },
		{ VXGBP_DROP_RSVD_FLAGS, "reserved-flags" },
		{ VXGBP_DROP_RSVD_VNI, "reserved-byte" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CTX("drop %d", (int)c[i].why);
		EXPECT_STR(vxgbp_drop_name(c[i].why), c[i].name);
	}
	CTX("unknown drop");
	EXPECT(vxgbp_drop_name((enum vxgbp_drop)99) != NULL, "never NULL");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mark");
	TCase *tc = unit_tcase(s, "mark");

	tcase_add_test(tc, test_mark_to_hdr_bits);
	tcase_add_test(tc, test_mark_to_hdr_values);
	tcase_add_test(tc, test_mark_from_hdr_bits);
	tcase_add_test(tc, test_mark_roundtrip);
	tc = unit_tcase(s, "verdict");
	tcase_add_test(tc, test_verdict_named_cases);
	tcase_add_test(tc, test_verdict_every_bit);
	tcase_add_test(tc, test_verdict_exhaustive);
	tcase_add_test(tc, test_verdict_inputs);
	tcase_add_test(tc, test_drop_names);
	return unit_run(s, "mark");
}
