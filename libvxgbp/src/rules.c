// SPDX-License-Identifier: BSD-2-Clause
/*
 * rules.c - the conformance rules: one stable id, level, scope, source,
 * text and categories each.  gbpdump --check, --json "findings" and the Wireshark plugin's
 * expert info all print these ids; never rename one.
 */
#include <string.h>

#include <vxgbp/vxgbp.h>

#define DRAFT "draft-smith-vxlan-group-policy"
#define GPE "draft-ietf-nvo3-vxlan-gpe"

/* A rule: what the API shows of it, and its VXGBP_CAT_* bits. */
struct rule {
	struct vxgbp_rule_info info;
	unsigned cats;
};

#define CSUM_NIC (VXGBP_CAT_CHECKSUM | VXGBP_CAT_NIC_CSUM)

static const struct rule rules[VXGBP_R__COUNT] = {
	[VXGBP_R_I_CLEAR] = { { "gbp.i-flag-clear", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, "RFC 7348 sec. 5",
		"I flag clear: the VNI flag MUST be set to 1 for a valid VNI" } },
	[VXGBP_R_RSVD_FLAGS] = { { "gbp.reserved-flags", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, "RFC 7348 sec. 5; " DRAFT " sec. 2.1",
		"reserved flag bits set: they MUST be zero on transmission" } },
	[VXGBP_R_RSVD_BYTE] = { { "gbp.reserved-byte", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, "RFC 7348 sec. 5",
		"reserved byte after the VNI is not zero: it MUST be zero on transmission" } },
	[VXGBP_R_D_WITHOUT_G] = { { "gbp.d-without-g", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, DRAFT " sec. 2.1",
		"Don't Learn bit set without the G bit: it is a reserved bit then" } },
	[VXGBP_R_A_WITHOUT_G] = { { "gbp.a-without-g", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, DRAFT " sec. 2.1",
		"Policy Applied bit set without the G bit: it is a reserved bit then" } },
	[VXGBP_R_ID_WITHOUT_G] = { { "gbp.id-without-g", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, DRAFT " sec. 2.1",
		"non-zero Group Policy ID without the G bit: the field is reserved then" } },
	[VXGBP_R_ZERO_ID] = { { "gbp.zero-id", VXGBP_LEVEL_INFO, VXGBP_SCOPE_HEADER, DRAFT " sec. 2.1",
		"G bit set with Group Policy ID 0 (Linux sends this for marks without GBP bits)" } },
	[VXGBP_R_UDP_CSUM] = { { "udp.bad-checksum", VXGBP_LEVEL_MUST, VXGBP_SCOPE_OUTER, "RFC 768; RFC 7348 sec. 5",
		"outer UDP checksum does not match (zero is allowed over IPv4)" },
		CSUM_NIC },
	[VXGBP_R_UDP_ZERO_CSUM6] = { { "udp.zero-checksum-ipv6", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_OUTER, "RFC 6935; RFC 6936; RFC 7348 sec. 5",
		"outer UDP checksum is zero over IPv6: allowed only for tunnels that opt in" } },
	[VXGBP_R_IP_CSUM] = { { "ip.bad-checksum", VXGBP_LEVEL_MUST, VXGBP_SCOPE_OUTER, "RFC 791",
		"outer IPv4 header checksum does not match" },
		CSUM_NIC },
	[VXGBP_R_FRAGMENT] = { { "ip.fragment", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_OUTER, "RFC 7348 sec. 4.3",
		"outer IP packet is fragmented: VTEPs SHOULD NOT fragment VXLAN packets" } },
	[VXGBP_R_INNER_VLAN] = { { "vxlan.inner-vlan", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_INNER, "RFC 7348 sec. 6.1",
		"inner frame carries a VLAN tag: the encapsulating VTEP SHOULD NOT include it" } },
	[VXGBP_R_SPORT_RANGE] = { { "udp.source-port-range", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_OUTER, "RFC 7348 sec. 5",
		"outer UDP source port outside the recommended dynamic range 49152-65535" } },
	[VXGBP_R_OUTER_TTL] = { { "ip.ttl-zero", VXGBP_LEVEL_INFO, VXGBP_SCOPE_OUTER, "RFC 791; RFC 8200",
		"outer TTL or hop limit is zero" } },
	[VXGBP_R_TRUNCATED] = { { "frame.truncated", VXGBP_LEVEL_INFO, VXGBP_SCOPE_PARSE, "capture",
		"the capture ends before the frame does (snap length)" },
		VXGBP_CAT_TRUNCATED },
	[VXGBP_R_MALFORMED] = { { "frame.malformed", VXGBP_LEVEL_MUST, VXGBP_SCOPE_PARSE, "RFC 791; RFC 8200; RFC 768",
		"header lengths contradict each other" },
		VXGBP_CAT_MALFORMED },
	[VXGBP_R_CIPSO_LEN] = { { "cipso.length", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "FIPS 188; draft-ietf-cipso-ipsecurity sec. 3",
		"CIPSO option length invalid (6..40 bytes)" },
		VXGBP_CAT_MALFORMED },
	[VXGBP_R_CIPSO_TAG_LEN] = { { "cipso.tag-length", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "draft-ietf-cipso-ipsecurity sec. 3.4",
		"CIPSO tag length invalid for its type, or tag lengths do not add up to the option length" },
		VXGBP_CAT_MALFORMED },
	[VXGBP_R_CIPSO_TAG_ORDER] = { { "cipso.tag-order", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "draft-ietf-cipso-ipsecurity sec. 3.4",
		"CIPSO tag type repeated in one option" } },
	[VXGBP_R_CIPSO_CAT_ORDER] = { { "cipso.category-order", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "draft-ietf-cipso-ipsecurity sec. 3.4.2",
		"CIPSO categories not in ascending order or duplicated" } },
	[VXGBP_R_CIPSO_RANGE] = { { "cipso.range-reversed", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "draft-ietf-cipso-ipsecurity sec. 3.4.3",
		"CIPSO category range with its top below its bottom, or ranges overlapping" } },
	[VXGBP_R_CIPSO_TAG_UNKNOWN] = { { "cipso.tag-unknown", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_LABEL, "draft-ietf-cipso-ipsecurity sec. 3.4",
		"CIPSO tag type not defined by the specification" } },
	[VXGBP_R_CIPSO_DOI] = { { "cipso.doi-reserved", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "draft-ietf-cipso-ipsecurity sec. 3.3",
		"CIPSO DOI 0 is reserved" } },
	[VXGBP_R_CALIPSO_LEN] = { { "calipso.length", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "RFC 5570 sec. 5",
		"CALIPSO option data shorter than 8 bytes or not 8 + 4 x compartment length" },
		VXGBP_CAT_MALFORMED },
	[VXGBP_R_CALIPSO_CSUM] = { { "calipso.bad-checksum", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "RFC 5570 sec. 5",
		"CALIPSO CRC-16 checksum does not match" },
		VXGBP_CAT_CHECKSUM },
	[VXGBP_R_CALIPSO_DOI] = { { "calipso.doi-reserved", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "RFC 5570 sec. 5",
		"CALIPSO DOI 0 is reserved" } },
	[VXGBP_R_POLICY_REAPPLIED] = { { "gbp.policy-reapplied", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, DRAFT " sec. 2.1",
		"policy applied again: a frame seen with A=1 reappears with a changed group ID" },
		VXGBP_CAT_CROSS_FRAME },
	[VXGBP_R_A_CLEARED] = { { "gbp.policy-applied-cleared", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, DRAFT " sec. 2.1",
		"a frame seen with A=1 reappears with A=0" },
		VXGBP_CAT_CROSS_FRAME },
	[VXGBP_R_GROUP_CONFLICT] = { { "gbp.group-conflict", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_HEADER, DRAFT " sec. 2",
		"the same inner source MAC/IP is sent with different group IDs" },
		VXGBP_CAT_CROSS_FRAME },
	[VXGBP_R_FLOW_GROUP_CHANGE] = { { "gbp.flow-group-change", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_HEADER, DRAFT " sec. 2",
		"the group ID changes within one inner flow" },
		VXGBP_CAT_CROSS_FRAME },
	[VXGBP_R_CIPSO_ALIGN] = { { "cipso.alignment-octet", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "draft-ietf-cipso-ipsecurity sec. 3.4.2.3",
		"CIPSO tag alignment octet is not zero" } },
	[VXGBP_R_CIPSO_CAT_INVALID] = { { "cipso.category-invalid", VXGBP_LEVEL_MUST, VXGBP_SCOPE_LABEL, "draft-ietf-cipso-ipsecurity sec. 3.4.3.5",
		"CIPSO category 65535 is not a valid category" } },
	[VXGBP_R_CIPSO_BITMAP_PAD] = { { "cipso.bitmap-trailing-zero", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_LABEL, "draft-ietf-cipso-ipsecurity sec. 3.4.2.5",
		"CIPSO category bitmap ends in zero octets (minimal encoding SHOULD be used, except the 10-octet optimized form)" } },
	[VXGBP_R_CIPSO_LOCAL] = { { "cipso.local-tag", VXGBP_LEVEL_INFO, VXGBP_SCOPE_LABEL, "Linux net/ipv4/cipso_ipv4.c",
		"CIPSO tag 128 (Linux local secid): only accepted on loopback" } },
	[VXGBP_R_GPE_ON_VXLAN_PORT] = { { "gpe.on-vxlan-port", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, "RFC 7348 sec. 5; " GPE " sec. 3.2",
		"VXLAN-GPE header (P bit) sent to a VXLAN port: a GBP or RFC 7348 receiver sees reserved bits and drops it (GPE uses port 4790)" } },
	[VXGBP_R_GPE_VERSION] = { { "gpe.version", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, GPE " sec. 3.2",
		"VXLAN-GPE version is not 0: a receiver that does not support it MUST drop the packet" } },
	[VXGBP_R_GPE_RSVD] = { { "gpe.reserved", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, GPE " sec. 3.2",
		"VXLAN-GPE reserved bits set: they MUST be zero on transmission" } },
	[VXGBP_R_GPE_OAM] = { { "gpe.oam", VXGBP_LEVEL_INFO, VXGBP_SCOPE_HEADER, GPE " sec. 3.2",
		"VXLAN-GPE O bit set: an OAM packet (Linux drops it, it does no OAM processing)" } },
	[VXGBP_R_GPE_NEXT_PROTO] = { { "gpe.next-protocol", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_HEADER, GPE " sec. 3.2",
		"VXLAN-GPE Next Protocol absent (P clear) or not one of IPv4, IPv6, Ethernet, NSH, MPLS: the payload cannot be decoded" } },
	[VXGBP_R_GSO_LENGTH] = { { "ip.gso-length", VXGBP_LEVEL_INFO, VXGBP_SCOPE_FRAME, "RFC 2675; Linux BIG TCP",
		"IPv4 total length 0 or IPv6 jumbogram: a GSO super-frame captured on the sending host; the length is taken from the capture" } },
	[VXGBP_R_CSUM_OFFLOAD] = { { "udp.checksum-offload", VXGBP_LEVEL_INFO, VXGBP_SCOPE_OUTER, "Linux CHECKSUM_PARTIAL",
		"the bad checksum looks offloaded (the field holds the pseudo-header sum, or the frame is a GSO super-frame): captured on the sending host before the NIC filled it in" },
		CSUM_NIC },
	[VXGBP_R_DEPTH] = { { "tunnel.depth", VXGBP_LEVEL_INFO, VXGBP_SCOPE_FRAME, "vxgbp",
		"tunnels nested deeper than the parser walks: the innermost layers are not decoded" },
		VXGBP_CAT_UNDECODED },
	[VXGBP_R_UNJUDGED] = { { "frame.unjudged", VXGBP_LEVEL_SHOULD, VXGBP_SCOPE_PARSE, "vxgbp",
		"the frame could not be judged: it ends or breaks before the parser could tell whether it carries VXLAN" },
		VXGBP_CAT_UNDECODED },
	[VXGBP_R_POLICY_DENIED] = { { "policy.denied", VXGBP_LEVEL_MUST, VXGBP_SCOPE_INNER, "the --policy file",
		"a flow the policy denies was seen (judged per flow, with --policy only)" } },
	[VXGBP_R_POLICY_BYPASSED] = { { "policy.bypassed", VXGBP_LEVEL_MUST, VXGBP_SCOPE_HEADER, DRAFT " sec. 2.1 (A bit); the --policy file",
		"Policy Applied (A) set on a flow the policy denies: enforcement was claimed but bypassed (with --policy only)" } },
};

const struct vxgbp_rule_info *vxgbp_rule_get(unsigned rule)
{
	if (rule >= VXGBP_R__COUNT || !rules[rule].info.id)
		return NULL;
	return &rules[rule].info;
}

unsigned vxgbp_rule_cats(unsigned rule)
{
	return rule < VXGBP_R__COUNT ? rules[rule].cats : 0;
}

int vxgbp_rule_lookup(const char *id)
{
	if (!id)
		return VXGBP_E_INVAL;
	for (unsigned i = 0; i < VXGBP_R__COUNT; i++)
		if (rules[i].info.id && strcmp(rules[i].info.id, id) == 0)
			return (int)i;
	return VXGBP_E_INVAL;
}

const char *vxgbp_level_name(enum vxgbp_level lvl)
{
	switch (lvl) {
	case VXGBP_LEVEL_MUST:
		return "MUST";
	case VXGBP_LEVEL_SHOULD:
		return "SHOULD";
	case VXGBP_LEVEL_INFO:
		return "INFO";
	case VXGBP_LEVEL_OFF:
		return "off";
	}
	return "?";
}

const char *vxgbp_strerror(int err)
{
	switch (err) {
	case VXGBP_OK:
		return "ok";
	case VXGBP_E_TRUNCATED:
		return "truncated: the capture ends before the header does";
	case VXGBP_E_MALFORMED:
		return "malformed: lengths or fields contradict each other";
	case VXGBP_E_INVAL:
		return "invalid argument";
	case VXGBP_E_NOSPACE:
		return "output buffer too small";
	case VXGBP_E_UNSUPPORTED:
		return "unsupported link type or feature";
	case VXGBP_E_SYNTAX:
		return "syntax error";
	}
	return err > 0 ? "ok (length)" : "unknown error";
}
