/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vxgbp.h - the one public header of libvxgbp, the VXLAN Group Policy codec.
 *
 * VXLAN-GBP (draft-smith-vxlan-group-policy, Linux 3511494ce2f3) reuses
 * reserved bits of the RFC 7348 VXLAN header:
 *
 *    0                   1                   2                   3
 *    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |G|R|R|R|I|R|R|R|R|D|R|R|A|R|R|R|        Group Policy ID        |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *   |          VXLAN Network Identifier (VNI)       |   Reserved    |
 *   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * Conventions (libmnl style):
 *  - every function is vxgbp_<object>_<verb>;
 *  - a negative return is an error (enum vxgbp_err), 0 is success, a
 *    positive return is a length in bytes;
 *  - soft findings (the header decodes, but breaks a rule) are reported in a
 *    uint64_t bitmask of enum vxgbp_rule bits, never as errors;
 *  - no allocation, no globals: results point into the caller's buffer;
 *  - every read of packet bytes is bounds-checked.
 */
#ifndef VXGBP_VXGBP_H
#define VXGBP_VXGBP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header.  vxgbp_version() gives the library's, which
 * may be newer (the same major version keeps the ABI: docs/api.md). */
#define VXGBP_VERSION_MAJOR 1
#define VXGBP_VERSION_MINOR 4
#define VXGBP_VERSION_PATCH 0
#define VXGBP_VERSION "1.4.0"
/* One number to compare: 0xMMmmpp. */
#define VXGBP_VERSION_NUMBER \
	((VXGBP_VERSION_MAJOR << 16) | (VXGBP_VERSION_MINOR << 8) | VXGBP_VERSION_PATCH)

/* The library's version, "1.4.0" (the VXGBP_VERSION it was built with). */
const char *vxgbp_version(void);

/* ------------------------------------------------------------------------
 * Errors
 */
enum vxgbp_err {
	VXGBP_OK = 0,
	VXGBP_E_TRUNCATED = -1,   /* capture ends before the header does */
	VXGBP_E_MALFORMED = -2,   /* lengths or fields contradict each other */
	VXGBP_E_INVAL = -3,       /* invalid argument (value out of range) */
	VXGBP_E_NOSPACE = -4,     /* output buffer too small */
	VXGBP_E_UNSUPPORTED = -5, /* link type or feature not handled */
	VXGBP_E_SYNTAX = -6,      /* text input (group file, spec) unparsable */
};
#define VXGBP_E_MIN VXGBP_E_SYNTAX

/* Text for any return code: "ok", "truncated", ...; never NULL. */
const char *vxgbp_strerror(int err);

/* ------------------------------------------------------------------------
 * The 8-byte header
 */
#define VXGBP_HDR_LEN 8
#define VXGBP_PORT_IANA 4789  /* RFC 7348 */
#define VXGBP_PORT_LINUX 8472 /* Linux's historic default */
#define VXGBP_PORT_GPE 4790   /* VXLAN-GPE, draft-ietf-nvo3-vxlan-gpe */
#define VXGBP_PORT_GENEVE 6081 /* Geneve, RFC 8926 */

/* The first 16 bits of the header, as a host-order word (byte 0 << 8 | byte 1).
 * These are the same bit positions Linux uses in vx_flags (G = bit 31,
 * I = bit 27, D = bit 22, A = bit 19 of the first 32-bit word). */
#define VXGBP_F_G 0x8000u /* Group Based Policy extension present */
#define VXGBP_F_I 0x0800u /* VNI valid */
#define VXGBP_F_D 0x0040u /* Don't Learn (only meaningful with G) */
#define VXGBP_F_A 0x0008u /* Policy Applied (only meaningful with G) */
/* Bits that are reserved in plain RFC 7348 VXLAN (everything but I). */
#define VXGBP_F_RSVD_7348 0xf7ffu
/* Bits that stay reserved with the GBP extension. */
#define VXGBP_F_RSVD_GBP 0x77b7u

#define VXGBP_VNI_MAX 0xffffffu

/* A decoded header.  Every bit of the 8 bytes is kept, so
 * vxgbp_hdr_encode(vxgbp_hdr_decode(b)) == b for any 8 bytes. */
struct vxgbp_hdr {
	uint16_t flags; /* bytes 0-1: VXGBP_F_* and reserved bits */
	uint16_t group; /* bytes 2-3: Group Policy ID (reserved without G) */
	uint32_t vni;   /* bytes 4-6: 24-bit VNI */
	uint8_t rsvd;   /* byte 7: reserved */
};

/* Decode 8 bytes at buf.  Returns VXGBP_HDR_LEN, or VXGBP_E_TRUNCATED when
 * len < 8. */
int vxgbp_hdr_decode(struct vxgbp_hdr *h, const void *buf, size_t len);
/* Encode into buf.  Returns VXGBP_HDR_LEN, VXGBP_E_NOSPACE, or VXGBP_E_INVAL
 * when vni > VXGBP_VNI_MAX. */
int vxgbp_hdr_encode(const struct vxgbp_hdr *h, void *buf, size_t len);
/* Fill h as a conforming sender would: I always set, plus flags, which may
 * hold VXGBP_F_G, VXGBP_F_D and VXGBP_F_A (D and A only with G); the group
 * only with G.  Returns 0, or VXGBP_E_INVAL (another bit, D/A/a group
 * without G, vni > VXGBP_VNI_MAX; h is then untouched).  To craft any other
 * header, set the fields of struct vxgbp_hdr directly. */
int vxgbp_hdr_init(struct vxgbp_hdr *h, uint32_t vni, uint16_t flags, uint16_t group);
/* Header-level findings (VXGBP_RB(rule) bits), stateless. */
uint64_t vxgbp_hdr_check(const struct vxgbp_hdr *h);
/* The reserved bits of the flag word that are set (bytes 0-1 as in
 * vxgbp_hdr.flags): with G, everything but G/I/D/A; without G, everything
 * but I.  0 when none.  The tail byte is h->rsvd. */
uint16_t vxgbp_hdr_rsvd_flags(const struct vxgbp_hdr *h);

static inline int vxgbp_hdr_has_gbp(const struct vxgbp_hdr *h)
{
	return (h->flags & VXGBP_F_G) != 0;
}

/* ------------------------------------------------------------------------
 * VXLAN-GPE (draft-ietf-nvo3-vxlan-gpe; Linux's struct vxlanhdr_gpe and
 * vxlan_parse_gpe_proto()) uses the same 8 bytes differently:
 *
 *   |R|R|Ver|I|P|B|O|       Reserved                | Next Protocol |
 *   |          VXLAN Network Identifier (VNI)       |   Reserved    |
 *
 * In struct vxgbp_hdr terms: flags holds Ver, I, P, B and O; group holds a
 * reserved byte (high) and the Next Protocol (low).  The two extensions
 * cannot both be read from one header: GBP's Group Policy ID covers GPE's
 * Next Protocol, GBP's G bit is reserved in GPE and GPE's P bit is
 * reserved in GBP (Linux refuses a device with both).  The one reading
 * rule (vxgbp_vx_kind):
 *  - destination port 4790: VXLAN-GPE;
 *  - any other VXLAN port: VXLAN(-GBP), unless P is set and G is clear:
 *    then the sender meant GPE; it is decoded as GPE and judged by
 *    gpe.on-vxlan-port (a GBP or RFC 7348 receiver drops it).
 */
#define VXGBP_GPE_F_VER 0x3000u /* version (0 is the only one) */
#define VXGBP_GPE_F_P 0x0400u   /* Next Protocol present */
#define VXGBP_GPE_F_B 0x0200u   /* BUM traffic (draft -05 and later) */
#define VXGBP_GPE_F_O 0x0100u   /* OAM packet */
#define VXGBP_GPE_F_RSVD 0xc0ffu /* reserved bits of the flag word */

#define VXGBP_GPE_NP_IPV4 1
#define VXGBP_GPE_NP_IPV6 2
#define VXGBP_GPE_NP_ETHERNET 3
#define VXGBP_GPE_NP_NSH 4
#define VXGBP_GPE_NP_MPLS 5

enum vxgbp_vx_kind {
	VXGBP_VX_VXLAN = 0, /* RFC 7348, with or without GBP */
	VXGBP_VX_GPE = 1,   /* VXLAN-GPE */
};
/* How to read header h that arrived on UDP destination port dport. */
enum vxgbp_vx_kind vxgbp_vx_kind(const struct vxgbp_hdr *h, uint16_t dport);
/* Findings of a header read as GPE (VXGBP_R_GPE_*, gbp.i-flag-clear,
 * gbp.reserved-byte); on_vxlan_port adds gpe.on-vxlan-port. */
uint64_t vxgbp_gpe_check(const struct vxgbp_hdr *h, int on_vxlan_port);
/* The Next Protocol of a GPE header (h->group & 0xff) and its name:
 * "IPv4", "IPv6", "Ethernet", "NSH", "MPLS"; NULL for another value. */
static inline uint8_t vxgbp_gpe_next_proto(const struct vxgbp_hdr *h)
{
	return (uint8_t)(h->group & 0xff);
}
const char *vxgbp_gpe_np_name(uint8_t np);

/* ------------------------------------------------------------------------
 * Flag names: one table, the meaning of every flag bit a front end shows.
 *
 * D and A mean something only when G is set (the draft, sec. 2.1; Linux's
 * vxlan_parse_gbp_hdr() reads them only under G).  Without G they are
 * reserved bits like any other: rendered in the R=0x.... part, never by
 * name, and judged by the gbp.d-without-g / gbp.a-without-g rules.
 */
#define VXGBP_FLAGSET_DRAFT 0x1u /* RFC 7348 and the draft: G, I, D, A */
#define VXGBP_FLAGSET_VPP 0x2u   /* VPP's vxlan-gbp adds E and S (with G) */

struct vxgbp_flag_info {
	const char *name;  /* "G", "I", "D", "A", "E", "S" */
	const char *key;   /* "gbp", "vni_valid", "dont_learn", "policy_applied", ... */
	const char *text;  /* "Group Policy ID present", ... */
	uint16_t mask;     /* the bit in vxgbp_hdr.flags */
	uint16_t needs;    /* bits that must be set too for it to mean anything
	                      (VXGBP_F_G for D, A, E, S; 0 for G and I) */
	unsigned set;      /* VXGBP_FLAGSET_* that defines it */
};
/* The i-th flag in header order (the draft's first, then vendors'); NULL
 * past the last. */
const struct vxgbp_flag_info *vxgbp_flag_get(unsigned i);
/* The bits of flags that carry a meaning under the flag sets `sets`
 * (0 means VXGBP_FLAGSET_DRAFT): G and I always, D and A when G is set. */
uint16_t vxgbp_flags_defined(uint16_t flags, unsigned sets);
/* Render flags as gbpdump prints them: the defined bits by name in table
 * order, then "R=0x%04x" for every other bit set: "G,I,D", "I,R=0x0048",
 * "" for 0.  NUL-terminated; returns the length, or VXGBP_E_NOSPACE (buf
 * holds a prefix).  24 bytes always suffice. */
#define VXGBP_FLAGS_STRLEN 24
int vxgbp_flags_format(char *buf, size_t buflen, uint16_t flags, unsigned sets);

/* The one-line summary of a header, as gbpdump's text and the Wireshark
 * plugin's Info column show it (since 1.4):
 *   "VXLAN-GBP vni 100 flags [G,I] group 512 (0x0200) web"
 *   "VXLAN vni 10 flags [I] id-field 0x0042 rsvd 0x01"
 *   "VXLAN-GPE vni 10 flags [I,P] next-proto Ethernet"
 * kind: how the header is read (vxgbp_vx_kind()); sets: the flag sets that
 * name the flags (vxgbp_flags_format()); group_name: NULL, or the name of
 * the group, after it (GBP only).  Writes at most buflen bytes, always
 * NUL-terminated when buflen > 0; returns the length of the whole summary
 * (as snprintf: buflen <= the return means it was cut), or VXGBP_E_INVAL.
 * VXGBP_HDR_SUMMARY_LEN bytes plus strlen(group_name) always suffice. */
#define VXGBP_HDR_SUMMARY_LEN 112
int vxgbp_hdr_summary(char *buf, size_t buflen, const struct vxgbp_hdr *h,
		      enum vxgbp_vx_kind kind, unsigned sets, const char *group_name);

/* ------------------------------------------------------------------------
 * Linux skb->mark mapping and the verdict of a Linux 6.12 VTEP.
 *
 * The mark layout is the kernel's struct vxlan_metadata gbp word:
 * ID in bits 0-15, Don't Learn at bit 22, Policy Applied at bit 19.
 */
#define VXGBP_MARK_ID_MASK 0x0000ffffu
#define VXGBP_MARK_D 0x00400000u
#define VXGBP_MARK_A 0x00080000u
#define VXGBP_MARK_USED (VXGBP_MARK_ID_MASK | VXGBP_MARK_D | VXGBP_MARK_A)

/* The mark a Linux `gbp` device sets for a received header with G set
 * (vxlan_parse_gbp_hdr()).  Returns 0 when G is clear. */
uint32_t vxgbp_mark_from_hdr(const struct vxgbp_hdr *h);
/* The header a Linux 6.12 `gbp` device sends for skb->mark (vxlan_build_gbp_hdr()
 * as called from vxlan_xmit_one()): I always set; G set for any non-zero
 * mark (even one with no GBP bits - the kernel's behaviour); ID, D and A
 * from the mark, other mark bits lost.  flags of VXGBP_MARK_TX_STRICT give the
 * draft's intent instead: G only when the mark has GBP bits. */
#define VXGBP_MARK_TX_STRICT 0x1u
void vxgbp_mark_to_hdr(struct vxgbp_hdr *h, uint32_t mark, uint32_t vni,
		       unsigned flags);

/* Device configuration for the verdict model. */
#define VXGBP_DEV_GBP 0x1u        /* `ip link ... type vxlan ... gbp` */
#define VXGBP_DEV_COLLECT_MD 0x2u /* `external`: GBP goes to tunnel metadata */

enum vxgbp_drop {
	VXGBP_DROP_NONE = 0,
	VXGBP_DROP_I_CLEAR,        /* VNI flag not set */
	VXGBP_DROP_GBP_NOT_ENABLED,/* G set on a device without gbp */
	VXGBP_DROP_RSVD_FLAGS,     /* other unparsed flag bits */
	VXGBP_DROP_RSVD_VNI,       /* reserved tail byte set */
};

struct vxgbp_verdict {
	int accept;         /* 1: delivered, 0: dropped */
	enum vxgbp_drop why;/* reason when dropped */
	uint32_t mark;      /* skb->mark after decap (when mark_set) */
	int mark_set;       /* 0: the kernel leaves skb->mark as it was */
	uint32_t md_gbp;    /* metadata gbp word (collect_md devices) */
};

/* What Linux 6.12's vxlan_rcv() does with this header on a device with
 * dev_flags (VXGBP_DEV_*).  Always returns 0. */
int vxgbp_verdict_linux(const struct vxgbp_hdr *h, unsigned dev_flags,
			struct vxgbp_verdict *v);
/* "accept", "i-flag-clear", "gbp-not-enabled", ... */
const char *vxgbp_drop_name(enum vxgbp_drop why);

/* ------------------------------------------------------------------------
 * Rules: one stable id per conformance rule, shared by gbpdump --check,
 * --json "findings" and the Wireshark plugin's expert info.
 * Findings are bitmasks of VXGBP_RB(rule).
 */
enum vxgbp_rule {
	/* header rules (vxgbp_hdr_check) */
	VXGBP_R_I_CLEAR = 0,      /* gbp.i-flag-clear */
	VXGBP_R_RSVD_FLAGS,       /* gbp.reserved-flags */
	VXGBP_R_RSVD_BYTE,        /* gbp.reserved-byte */
	VXGBP_R_D_WITHOUT_G,      /* gbp.d-without-g */
	VXGBP_R_A_WITHOUT_G,      /* gbp.a-without-g */
	VXGBP_R_ID_WITHOUT_G,     /* gbp.id-without-g */
	VXGBP_R_ZERO_ID,          /* gbp.zero-id (INFO) */
	/* frame rules (vxgbp_pkt_parse) */
	VXGBP_R_UDP_CSUM,         /* udp.bad-checksum */
	VXGBP_R_UDP_ZERO_CSUM6,   /* udp.zero-checksum-ipv6 */
	VXGBP_R_IP_CSUM,          /* ip.bad-checksum */
	VXGBP_R_FRAGMENT,         /* ip.fragment */
	VXGBP_R_INNER_VLAN,       /* vxlan.inner-vlan */
	VXGBP_R_SPORT_RANGE,      /* udp.source-port-range */
	VXGBP_R_OUTER_TTL,        /* ip.ttl-zero (INFO) */
	VXGBP_R_TRUNCATED,        /* frame.truncated */
	VXGBP_R_MALFORMED,        /* frame.malformed */
	/* label rules (vxgbp_cipso_*, vxgbp_calipso_*) */
	VXGBP_R_CIPSO_LEN,        /* cipso.length */
	VXGBP_R_CIPSO_TAG_LEN,    /* cipso.tag-length */
	VXGBP_R_CIPSO_TAG_ORDER,  /* cipso.tag-order */
	VXGBP_R_CIPSO_CAT_ORDER,  /* cipso.category-order */
	VXGBP_R_CIPSO_RANGE,      /* cipso.range-reversed */
	VXGBP_R_CIPSO_TAG_UNKNOWN,/* cipso.tag-unknown */
	VXGBP_R_CIPSO_DOI,        /* cipso.doi-reserved */
	VXGBP_R_CALIPSO_LEN,      /* calipso.length */
	VXGBP_R_CALIPSO_CSUM,     /* calipso.bad-checksum */
	VXGBP_R_CALIPSO_DOI,      /* calipso.doi-reserved */
	/* cross-frame rules (computed by front ends, e.g. gbpdump --check) */
	VXGBP_R_POLICY_REAPPLIED, /* gbp.policy-reapplied */
	VXGBP_R_A_CLEARED,        /* gbp.policy-applied-cleared */
	VXGBP_R_GROUP_CONFLICT,   /* gbp.group-conflict */
	VXGBP_R_FLOW_GROUP_CHANGE,/* gbp.flow-group-change */
	/* more label rules (vxgbp_cipso_*) */
	VXGBP_R_CIPSO_ALIGN,      /* cipso.alignment-octet */
	VXGBP_R_CIPSO_CAT_INVALID,/* cipso.category-invalid */
	VXGBP_R_CIPSO_BITMAP_PAD, /* cipso.bitmap-trailing-zero (SHOULD) */
	VXGBP_R_CIPSO_LOCAL,      /* cipso.local-tag (INFO) */
	/* VXLAN-GPE (vxgbp_gpe_check) */
	VXGBP_R_GPE_ON_VXLAN_PORT,/* gpe.on-vxlan-port */
	VXGBP_R_GPE_VERSION,      /* gpe.version */
	VXGBP_R_GPE_RSVD,         /* gpe.reserved */
	VXGBP_R_GPE_OAM,          /* gpe.oam (INFO) */
	VXGBP_R_GPE_NEXT_PROTO,   /* gpe.next-protocol */
	/* more frame rules */
	VXGBP_R_GSO_LENGTH,       /* ip.gso-length (INFO) */
	VXGBP_R_CSUM_OFFLOAD,     /* udp.checksum-offload (INFO) */
	VXGBP_R_DEPTH,            /* tunnel.depth (INFO) */
	VXGBP_R_UNJUDGED,         /* frame.unjudged */
	/* policy rules (since 1.1; gbpdump --policy: judged at the end, per flow) */
	VXGBP_R_POLICY_DENIED,    /* policy.denied */
	VXGBP_R_POLICY_BYPASSED,  /* policy.bypassed */
	VXGBP_R__COUNT
};
#define VXGBP_RB(r) ((uint64_t)1 << (r))

/* Size-versioned structs (docs/api.md) start with uint32_t size: 1 when
 * the library filled field of *s (s->size covers it), else 0. */
#define VXGBP_HAS(s, type, field) \
	((s)->size >= offsetof(type, field) + sizeof(((type *)0)->field))

enum vxgbp_level {
	VXGBP_LEVEL_MUST = 0, /* violates a MUST */
	VXGBP_LEVEL_SHOULD,   /* violates a SHOULD */
	VXGBP_LEVEL_INFO,     /* worth knowing, not a violation */
	VXGBP_LEVEL_OFF,      /* not judged (under a profile; since 1.4) */
};

/* What a rule judges: the layer a finding of it belongs to. */
enum vxgbp_scope {
	VXGBP_SCOPE_FRAME = 0, /* the frame as a whole (ip.gso-length: any IP
	                          header; tunnel.depth) */
	VXGBP_SCOPE_OUTER,     /* the layers that deliver a VXLAN header */
	VXGBP_SCOPE_HEADER,    /* a VXLAN header (header and cross-frame rules) */
	VXGBP_SCOPE_INNER,     /* the frame a VXLAN header carries */
	VXGBP_SCOPE_LABEL,     /* a CIPSO/CALIPSO option, at whichever level
	                          carries it */
	VXGBP_SCOPE_PARSE,     /* where the parse stopped (err_off, err_layer) */
};

struct vxgbp_rule_info {
	const char *id;     /* stable id, e.g. "gbp.i-flag-clear" */
	enum vxgbp_level level;
	enum vxgbp_scope scope;
	const char *source; /* e.g. "RFC 7348 sec. 5", "draft-smith-vxlan-group-policy sec. 2.1" */
	const char *text;   /* one line */
};

/* NULL for an unknown rule. */
const struct vxgbp_rule_info *vxgbp_rule_get(unsigned rule);
/* Rule number for an id, or VXGBP_E_INVAL. */
int vxgbp_rule_lookup(const char *id);
const char *vxgbp_level_name(enum vxgbp_level lvl); /* "MUST", "SHOULD", "INFO", "off" */

/* What kind of problem a rule's finding is (since 1.4): bits, from the
 * rule table, for a front end to group findings by (Wireshark's expert
 * groups) and to know which rules an option turns off. */
#define VXGBP_CAT_MALFORMED 0x01u  /* lengths contradict: the rest cannot be read */
#define VXGBP_CAT_TRUNCATED 0x02u  /* the capture ends before the frame does */
#define VXGBP_CAT_CHECKSUM 0x04u   /* a checksum does not match */
#define VXGBP_CAT_NIC_CSUM 0x08u   /* an IP/UDP checksum a NIC may fill in after
                                      the capture point: not judged with
                                      VXGBP_PARSE_NO_CSUM */
#define VXGBP_CAT_UNDECODED 0x10u  /* part of the frame is not decoded */
#define VXGBP_CAT_CROSS_FRAME 0x20u /* judged across frames (the tracker) */
/* The VXGBP_CAT_* bits of a rule; 0 for an unknown rule or one of none. */
unsigned vxgbp_rule_cats(unsigned rule);

/* ------------------------------------------------------------------------
 * Conformance profiles (since 1.4): the level each rule is judged at, one
 * table for gbpdump --profile, the plugin's preference and vxgbp(7).
 * Profile 0 is "strict", the default: the library's own levels.
 */
#define VXGBP_PROFILE_LINUX 0x1u   /* gbp.reserved-flags is MUST when a Linux
                                      gbp device drops the header for its
                                      bits (vxgbp_verdict_linux()), else SHOULD */
#define VXGBP_PROFILE_NO_CSUM 0x2u /* captured before the NIC: parse with
                                      VXGBP_PARSE_NO_CSUM; VXGBP_CAT_NIC_CSUM
                                      rules off */

struct vxgbp_profile_info {
	const char *name;  /* "strict", "linux", "vpp", "offload" */
	const char *text;  /* one line, what it judges */
	unsigned flagsets; /* VXGBP_FLAGSET_*: the flag bits with a meaning */
	unsigned flags;    /* VXGBP_PROFILE_* */
};
/* The i-th profile, NULL past the last. */
const struct vxgbp_profile_info *vxgbp_profile_get(unsigned i);
/* The number of the profile called name, or VXGBP_E_INVAL. */
int vxgbp_profile_lookup(const char *name);
/* The level (enum vxgbp_level, VXGBP_LEVEL_OFF when not judged) of rule
 * under profile, for header h (NULL: its level for no header in
 * particular); VXGBP_E_INVAL for an unknown profile or rule. */
int vxgbp_profile_level(unsigned profile, unsigned rule, const struct vxgbp_hdr *h);
/* The findings (VXGBP_RB() bits) of a header h read as kind that are
 * judged under profile: without the rules it turns off, and without
 * gbp.reserved-flags when its flag sets name every reserved bit set. */
uint64_t vxgbp_profile_findings(unsigned profile, const struct vxgbp_hdr *h,
				enum vxgbp_vx_kind kind, uint64_t findings);

/* ------------------------------------------------------------------------
 * IP protocol names (since 1.4): one table, a column per spelling.
 */
struct vxgbp_ipproto_info {
	uint8_t proto;       /* IANA protocol number */
	const char *name;    /* tcpdump's (ipproto_values): "ICMPv6", "Options" */
	const char *key;     /* lower case, gbpdump --json's proto_name: "icmp6";
	                        NULL when JSON names none */
	const char *keyword; /* the --policy language's: "icmpv6"; NULL when it
	                        has none */
};
/* The names of protocol proto; NULL when it has none. */
const struct vxgbp_ipproto_info *vxgbp_ipproto_get(uint8_t proto);

/* ------------------------------------------------------------------------
 * Whole-frame parser: outer Ethernet/VLAN/IP/UDP, VXLAN, inner frame.
 */

/* Link types (pcap LINKTYPE_* values) understood by the parser. */
#define VXGBP_LINK_NULL 0
#define VXGBP_LINK_ETHERNET 1
#define VXGBP_LINK_RAW 101
#define VXGBP_LINK_LINUX_SLL 113
#define VXGBP_LINK_IPV4 228
#define VXGBP_LINK_IPV6 229
#define VXGBP_LINK_LINUX_SLL2 276

#define VXGBP_MAX_VLAN 2
#define VXGBP_MAX_PORTS 16

/* What one parse found at one level (outer or inner).  Offsets are from the
 * start of the frame; -1 when the layer is absent. */
struct vxgbp_l2 {
	int off;               /* start of the Ethernet header (-1: no L2) */
	const uint8_t *dst;    /* 6 bytes, into the frame */
	const uint8_t *src;    /* 6 bytes, into the frame */
	unsigned n_vlan;
	uint16_t vlan_tpid[VXGBP_MAX_VLAN];
	uint16_t vlan_tci[VXGBP_MAX_VLAN];
	uint16_t ethertype;    /* after the VLAN tags */
};

struct vxgbp_l3 {
	/* (ordered by size: a parse clears the struct, every byte counts) */
	const uint8_t *src;    /* 4 or 16 bytes, into the frame */
	const uint8_t *dst;
	const uint8_t *arp_spa, *arp_tpa; /* IPv4 ARP only */
	const uint8_t *arp_sha, *arp_tha; /* sender / target hardware address,
	                          arp_hln (6) bytes; with arp_spa only */
	int off;               /* start of the IP header (-1: none) */
	uint32_t tot_len;      /* IPv4 total length / IPv6 40 + payload length
	                          (BIG TCP: from the capture or the jumbogram) */
	uint32_t flow_label;   /* IPv6 only */
	int opt_off;           /* IPv4 options / IPv6 hop-by-hop header; -1: none */
	int cipso_off;         /* IPv4 CIPSO option (type 134) incl. type/len; -1 */
	int calipso_off;       /* IPv6 CALIPSO option (type 7) incl. type/len; -1 */
	uint16_t hdr_len;      /* IPv4 IHL*4 / IPv6 40 + extension headers */
	uint16_t ip_id;        /* IPv4 only */
	uint16_t frag_off;     /* fragment offset in bytes */
	uint16_t opt_len;
	uint16_t cipso_len;
	uint16_t calipso_len;
	/* ARP (when ethertype is 0x0806 and not IP) */
	uint16_t arp_op;
	uint16_t arp_hrd;      /* hardware type (1 Ethernet) */
	uint16_t arp_pro;      /* protocol type, an ethertype (0x0800) */
	uint8_t arp_hln, arp_pln; /* hardware / protocol address lengths */
	uint8_t version;       /* 4 or 6; 0 when not IP */
	uint8_t proto;         /* IPv4 protocol / IPv6 last next-header */
	uint8_t ttl;           /* TTL / hop limit */
	uint8_t tos;           /* TOS / traffic class */
	uint8_t more_frags;
	uint8_t dont_frag;
};

struct vxgbp_l4 {
	int off;               /* start of the TCP/UDP/ICMP header; -1 */
	uint32_t len;          /* UDP length (0 on the wire in a GSO packet over
	                          64 KiB: the length the IP header gives) */
	uint32_t tcp_seq, tcp_ack;
	uint32_t payload_len;  /* TCP: bytes after the TCP header as the IP
	                          length says; UDP: the UDP length less 8 */
	uint16_t sport, dport; /* TCP/UDP */
	uint16_t csum;         /* as on the wire */
	uint16_t tcp_win;      /* TCP window */
	uint16_t tcp_urg;      /* TCP urgent pointer */
	uint8_t proto;         /* 6, 17, 1, 58 ... */
	uint8_t tcp_flags;
	uint8_t tcp_hlen;      /* TCP data offset in bytes (20..60) */
	uint8_t icmp_type, icmp_code;
};

struct vxgbp_layers {
	struct vxgbp_l2 l2;
	struct vxgbp_l3 l3;
	struct vxgbp_l4 l4;
};

/* Tunnel layers.  The parser walks tunnels to find VXLAN inside them
 * (GRE and ERSPAN as mirrors send it, Geneve, IP in IP, MPLS) and VXLAN
 * inside VXLAN.  Each layer it walked through before the first VXLAN
 * header is one struct vxgbp_encap, outermost first.
 */
enum vxgbp_encap_kind {
	VXGBP_ENCAP_GRE = 1,   /* GRE (RFC 2784, key and sequence RFC 2890) */
	VXGBP_ENCAP_ERSPAN1,   /* GRE 0x88be without sequence: no ERSPAN header */
	VXGBP_ENCAP_ERSPAN2,   /* GRE 0x88be with sequence: 8-byte header, ver 1 */
	VXGBP_ENCAP_ERSPAN3,   /* GRE 0x22eb: 12-byte header, ver 2 (+8 with O) */
	VXGBP_ENCAP_GENEVE,    /* Geneve (RFC 8926) on UDP 6081 */
	VXGBP_ENCAP_IP,        /* IPv4 (protocol 4) or IPv6 (41) in IP */
	VXGBP_ENCAP_MPLS,      /* MPLS label stack (ethertype 0x8847/0x8848) */
	VXGBP_ENCAP__COUNT
};
#define VXGBP_MAX_ENCAP 6      /* layers before the first VXLAN header */
#define VXGBP_MAX_NESTED 3     /* VXLAN headers inside the first one */

struct vxgbp_encap {
	uint8_t kind;          /* VXGBP_ENCAP_* */
	uint8_t ip_version;    /* the IP header that delivers it: 4, 6, 0 none */
	const uint8_t *ip_src, *ip_dst; /* into the frame (NULL when none) */
	const uint8_t *eth_dst, *eth_src; /* the Ethernet header before that IP
	                          header (or before the MPLS labels); NULL when
	                          none (raw IP links, IP in IP) */
	uint16_t sport, dport; /* Geneve: the UDP ports */
	int off;               /* the tunnel header, from the start of the frame */
	uint16_t hdr_len;      /* its length (GRE with its options, ERSPAN
	                          header, Geneve with options, all MPLS labels) */
	uint16_t proto;        /* what it carries, as an ethertype: 0x6558
	                          Ethernet, 0x0800, 0x86dd, 0x8847 */
	uint16_t flags;        /* GRE (ERSPAN too): the flags and version word;
	                          Geneve: its first 16 bits */
	uint8_t ver;           /* GRE (ERSPAN too) 0, Geneve 0, MPLS labels */
	uint8_t has_id, has_seq;
	uint32_t id;           /* GRE (ERSPAN too) key, Geneve VNI, MPLS top
	                          label */
	uint32_t seq;          /* GRE sequence number */
	uint16_t opt_len;      /* Geneve option bytes */
	uint16_t gre_csum, gre_off; /* GRE with C or R set: checksum and
	                          offset as sent (0 without) */
	/* ERSPAN II and III (0 for the other kinds) */
	uint8_t erspan_ver;    /* the ERSPAN Ver field: 1 type II, 2 type III */
	uint16_t erspan_vlan;  /* the mirrored frame's VLAN (12 bits) */
	uint16_t erspan_session; /* session ID (10 bits) */
};

/* Bits of vxgbp_pkt.have: how far the parse got. */
#define VXGBP_HAVE_L2 0x01u
#define VXGBP_HAVE_L3 0x02u
#define VXGBP_HAVE_L4 0x04u
#define VXGBP_HAVE_VXLAN 0x08u
#define VXGBP_HAVE_INNER_L2 0x10u
#define VXGBP_HAVE_INNER_L3 0x20u
#define VXGBP_HAVE_INNER_L4 0x40u

/* Size-versioned (docs/api.md): set size to sizeof(struct vxgbp_pkt)
 * before the first parse.  A parse fills at most that many bytes and
 * leaves in size the bytes it filled: a field that ends past it was not
 * filled (VXGBP_HAS).  Fields are only ever added at the end. */
struct vxgbp_pkt {
	uint32_t size;         /* the caller's sizeof; then the bytes filled */
	uint32_t caplen;       /* bytes captured (the buffer) */
	uint32_t wirelen;      /* bytes on the wire */
	unsigned have;         /* VXGBP_HAVE_* */
	struct vxgbp_layers outer;
	int vxlan_off;         /* offset of the 8-byte VXLAN header; -1 */
	struct vxgbp_hdr vx;
	struct vxgbp_layers inner;
	uint64_t findings;     /* VXGBP_RB(rule) bits: the first VXLAN packet's
	                          (outer layers, header, inner frame) and the
	                          parse's (frame.truncated/malformed, also when
	                          a nested frame stopped it; tunnel.depth); a
	                          nested header's own are in its nested[i] */
	int err;               /* 0, or the vxgbp_err that stopped the parse */
	int err_off;           /* where it stopped (byte offset); -1 */
	const char *err_layer; /* "eth", "vlan", "ipv4", "ipv6", "udp", "vxlan",
	                          "inner-eth", ... ; NULL when err == 0 */
	int udp_csum_ok;       /* 1 ok, 0 bad, -1 not verified (zero/truncated) */
	int ip_csum_ok;        /* outer IPv4 header checksum, same encoding */
	uint8_t vx_kind;       /* enum vxgbp_vx_kind of the first header */
	uint8_t n_encap;       /* valid entries of encap[] */
	uint8_t n_nested;      /* valid entries of nested[] */
	int nsh_off;           /* GPE carrying NSH (RFC 8300): its header; -1 */
	uint8_t has_cooked;    /* 1: cooked below holds the capture's Linux
	                          cooked (SLL, SLL2) header */
	/* Not cleared by a parse beyond the counts above: read only the first
	 * n_encap / n_nested entries, cooked only with has_cooked. */
	struct vxgbp_encap encap[VXGBP_MAX_ENCAP];
	struct vxgbp_nested {
		int off;               /* this VXLAN header */
		uint8_t kind;          /* enum vxgbp_vx_kind */
		unsigned have;         /* VXGBP_HAVE_INNER_L2..L4 of its frame */
		struct vxgbp_hdr vx;
		const uint8_t *ip_src, *ip_dst; /* the IP header that delivers it */
		uint8_t ip_version;
		uint16_t sport, dport;
		struct vxgbp_layers inner; /* the frame it carries */
		uint64_t findings;     /* this header's and its frame's own
		                          (frame.truncated/malformed: also in
		                          the frame's findings) */
	} nested[VXGBP_MAX_NESTED];
	/* A Linux cooked link header (libpcap's LINKTYPE_LINUX_SLL, _SLL2):
	 * what it says of the frame; VLAN tags after it are in outer.l2. */
	struct vxgbp_cooked {
		uint8_t version;       /* 1 SLL, 2 SLL2 */
		uint16_t pkttype;      /* 0 to us, 1 broadcast, 2 multicast,
		                          3 to another host, 4 sent by us */
		uint16_t hatype;       /* ARPHRD_* (1 Ethernet, 772 loopback) */
		uint16_t proto;        /* the protocol field as sent */
		uint16_t addr_len;     /* link-layer address length as sent */
		uint32_t ifindex;      /* SLL2: the interface index; SLL: 0 */
		const uint8_t *addr;   /* min(addr_len, 8) bytes into the frame */
	} cooked;
	/* Since 1.4: the rules the delivery of tunnel layer encap[i] breaks
	 * (a mirror's own headers: its IPv4 header checksum, a Geneve
	 * layer's UDP checksum), not in findings; the first n_encap only. */
	uint64_t encap_findings[VXGBP_MAX_ENCAP];
};

/* Size-versioned (docs/api.md): start it with vxgbp_parse_opts_init(), or
 * set size to sizeof(struct vxgbp_parse_opts) and every other field. */
struct vxgbp_parse_opts {
	uint32_t size;           /* the caller's sizeof */
	int linktype;            /* VXGBP_LINK_* (vxgbp_parse_opts_init: Ethernet) */
	unsigned n_ports;        /* extra VXLAN UDP destination ports */
	uint16_t ports[VXGBP_MAX_PORTS];
	unsigned flags;          /* VXGBP_PARSE_* */
};
#define VXGBP_PARSE_NO_DEFAULT_PORTS 0x1u /* do not take 4789/8472 */
#define VXGBP_PARSE_NO_CSUM 0x2u          /* do not verify checksums */

#define VXGBP_PARSE_GPE 0x10u             /* vxgbp_pkt_parse_vxlan(): the
                                             datagram came to a GPE port
                                             (4790): read the header as GPE */
#define VXGBP_PARSE_NO_WALK 0x8u          /* find VXLAN only in the first UDP
                                             datagram: walk no tunnel, no
                                             nesting, no GPE port */
/* The one port rule, for every front end: what a UDP datagram carries, by
 * its destination port alone.  A receiving VTEP's socket is bound to the
 * destination port (Linux vxlan_rcv(), RFC 7348 sec. 5), and the source
 * port is a hash of the inner flow, so a VXLAN port there means nothing.
 *   VXGBP_UDP_VXLAN   4789 and 8472 (not with VXGBP_PARSE_NO_DEFAULT_PORTS)
 *                     and every port added with vxgbp_parse_opts_add_port
 *   VXGBP_UDP_GPE     4790 (unless added as a VXLAN port)
 *   VXGBP_UDP_GENEVE  6081 (unless added as a VXLAN port)
 * GPE and Geneve are not taken with VXGBP_PARSE_NO_WALK. */
enum vxgbp_udp_kind {
	VXGBP_UDP_OTHER = 0,
	VXGBP_UDP_VXLAN,
	VXGBP_UDP_GPE,
	VXGBP_UDP_GENEVE,
};
/* (VXGBP_UDP_OTHER, too, for an opts whose size the library cannot take.) */
enum vxgbp_udp_kind vxgbp_udp_kind(const struct vxgbp_parse_opts *o, uint16_t dport);

/* Names of a tunnel layer: text as gbpdump prints it ("GRE", "ERSPAN-II",
 * "Geneve", "IP", "MPLS") and a JSON key ("gre", "erspan2",
 * ...).  NULL for an unknown kind. */
struct vxgbp_encap_info {
	const char *name;
	const char *key;
};
const struct vxgbp_encap_info *vxgbp_encap_get(unsigned kind);

/* Initialise opts: Ethernet, ports 4789 and 8472, no flag.  Inline, so
 * that size is the sizeof of the caller's build. */
static inline void vxgbp_parse_opts_init(struct vxgbp_parse_opts *o)
{
	unsigned i;

	o->size = sizeof(*o);
	o->linktype = VXGBP_LINK_ETHERNET;
	o->n_ports = 0;
	for (i = 0; i < VXGBP_MAX_PORTS; i++)
		o->ports[i] = 0;
	o->flags = 0;
}
/* Add a VXLAN port.  VXGBP_E_NOSPACE past VXGBP_MAX_PORTS; VXGBP_E_INVAL
 * for an opts whose size the library cannot take. */
int vxgbp_parse_opts_add_port(struct vxgbp_parse_opts *o, uint16_t port);

/* Parse one frame of caplen bytes (wirelen as on the wire; pass caplen if
 * unknown).
 *
 * Where VXLAN is found: in a UDP datagram to a VXLAN or GPE port
 * (vxgbp_udp_kind), behind any chain of up to VXGBP_MAX_ENCAP tunnel
 * layers (GRE, ERSPAN I/II/III, Geneve, IP in IP, MPLS; encap[]).  The
 * first VXLAN header found is p->vx, the layers that deliver it p->outer
 * (so the outer rules judge the VXLAN packet, not a mirror's headers), the
 * frame it carries p->inner.  A UDP datagram to a VXLAN port inside that
 * frame is nested VXLAN: each further header (up to VXGBP_MAX_NESTED) is
 * decoded and judged into nested[], with the frame it carries.  A deeper
 * chain stops the walk with the INFO finding tunnel.depth.
 *
 * Returns 0 when the frame was parsed as far as it goes (a
 * non-VXLAN frame is not an error: test have & VXGBP_HAVE_VXLAN), or
 * p->err (VXGBP_E_TRUNCATED: the capture ends early; VXGBP_E_MALFORMED:
 * the frame contradicts itself), with p->err_off and p->err_layer set and
 * every layer before it filled in.  Never reads outside [frame, frame+caplen).
 * VXGBP_E_INVAL, nothing parsed: p->size below the first release's
 * sizeof(struct vxgbp_pkt), or opts->size below its; VXGBP_E_UNSUPPORTED,
 * nothing parsed: opts sets a field past the library's own struct. */
int vxgbp_pkt_parse(struct vxgbp_pkt *p, const void *frame, size_t caplen,
		    size_t wirelen, const struct vxgbp_parse_opts *opts);
/* Since 1.3: the layer where a parse stopped (p->err set), as a rule's
 * scope: VXGBP_SCOPE_FRAME inside nested header *nested (its VXLAN header
 * or the frame it carries; *nested -1 otherwise), _HEADER the first VXLAN
 * header, _INNER the frame it carries, _OUTER what delivers it. */
enum vxgbp_scope vxgbp_pkt_err_scope(const struct vxgbp_pkt *p, int *nested);

/* Since 1.4: the fabric header, the VXLAN header a frame's analysis is
 * about (tracker, counters, matrix, cross-frame rules, policy audit).  A
 * mirror (AWS Traffic Mirroring, Azure vTAP) wraps the fabric's frame in a
 * VXLAN header of its own, so the first header is not always the fabric's.
 *   VXGBP_FABRIC_GBP        walking inward, the first header with G; failing
 *                           that the innermost (a mirror wraps the tenant's)
 *   VXGBP_FABRIC_FIRST      the first header (the outermost VXLAN)
 *   VXGBP_FABRIC_INNERMOST  the innermost header
 * Returns 0 for p->vx (also when the frame has no VXLAN header), k for
 * p->nested[k - 1], VXGBP_E_INVAL (p NULL, mode unknown). */
enum vxgbp_fabric_mode {
	VXGBP_FABRIC_GBP = 0,
	VXGBP_FABRIC_FIRST = 1,
	VXGBP_FABRIC_INNERMOST = 2,
};
int vxgbp_pkt_fabric(const struct vxgbp_pkt *p, unsigned mode);
/* "gbp", "first", "innermost"; NULL for another value. */
const char *vxgbp_fabric_name(unsigned mode);
/* The mode vxgbp_fabric_name() spells name, or VXGBP_E_INVAL. */
int vxgbp_fabric_lookup(const char *name);

/* Since 1.4: the mirror a frame arrived through, for the counters of
 * mirrors (vxgbp_track_mirrors): the outermost layer around the fabric
 * header that names a mirror session.  An ERSPAN or Geneve layer of
 * encap[] (outermost first), else the first VXLAN header when the fabric
 * header (vxgbp_pkt_fabric(p, mode)) is a nested one: a mirror, or a
 * provider's underlay, wraps the fabric's frame.  GRE, IP in IP and MPLS
 * deliver, and name no session.  Returns the kind (VXGBP_MIRROR_NONE: the
 * frame came through none) and *id (when not NULL) the session: the VNI,
 * the ERSPAN II/III session ID (ERSPAN I: 0); VXGBP_E_INVAL (p NULL, mode
 * unknown). */
enum vxgbp_mirror_kind {
	VXGBP_MIRROR_NONE = 0,
	VXGBP_MIRROR_VXLAN,   /* a VXLAN header outside the fabric header */
	VXGBP_MIRROR_GPE,     /* a VXLAN-GPE header there */
	VXGBP_MIRROR_GENEVE,  /* Geneve (encap[]) */
	VXGBP_MIRROR_ERSPAN1, /* ERSPAN type I: no session ID */
	VXGBP_MIRROR_ERSPAN2,
	VXGBP_MIRROR_ERSPAN3,
	VXGBP_MIRROR__COUNT
};
int vxgbp_pkt_mirror(const struct vxgbp_pkt *p, unsigned mode, uint32_t *id);
/* Since 1.4: which layer that mirror is, for findings scoped to it: 1 and
 * *index its index in encap[] (an ERSPAN or Geneve layer), 0 when it is
 * none of encap[] (a VXLAN header, or no mirror); VXGBP_E_INVAL (p or
 * index NULL, mode unknown). */
int vxgbp_pkt_mirror_encap(const struct vxgbp_pkt *p, unsigned mode, unsigned *index);
/* Names of a mirror kind: text ("VXLAN", "VXLAN-GPE", "Geneve",
 * "ERSPAN-I", ...), a JSON key ("vxlan", "gpe", "geneve", "erspan1", ...)
 * and what its id is ("vni", "session"; NULL for ERSPAN I, which has
 * none).  NULL for VXGBP_MIRROR_NONE or an unknown kind. */
struct vxgbp_mirror_info {
	const char *name;
	const char *key;
	const char *id_name;
};
const struct vxgbp_mirror_info *vxgbp_mirror_get(unsigned kind);

/* Parse from where you are: the same struct, the same findings for the same
 * bytes, offsets from the start of buf.
 *
 * vxgbp_pkt_parse_vxlan: buf is a VXLAN UDP payload (the 8-byte header,
 * then the inner Ethernet frame), as a UDP dissector or a socket hands it
 * over.  vxlan_off is 0; the outer layers are absent (off -1, no
 * VXGBP_HAVE_L2..L4) and the rules that need them (checksums, fragments,
 * source port, TTL) are not judged; everything else - header rules, inner
 * layers, inner labels, inner VLAN - is exactly what vxgbp_pkt_parse() gives
 * for the same bytes inside a whole frame.  opts: only flags count.
 *
 * vxgbp_pkt_parse_inner: buf is an inner Ethernet frame alone; fills
 * p->inner (and the inner-frame findings) as the two above would. */
int vxgbp_pkt_parse_vxlan(struct vxgbp_pkt *p, const void *buf, size_t caplen,
			  size_t wirelen, const struct vxgbp_parse_opts *opts);
int vxgbp_pkt_parse_inner(struct vxgbp_pkt *p, const void *buf, size_t caplen,
			  size_t wirelen, const struct vxgbp_parse_opts *opts);

/* ------------------------------------------------------------------------
 * Cross-frame analysis: a tracker the caller owns (vxgbp_track_size() bytes
 * of its memory) fed one parsed frame at a time, in capture order.  It
 * keeps, within a memory budget the caller sets:
 *  - endpoints: (VNI, inner source MAC) and (VNI, inner source IP or ARP
 *    sender) -> the group that endpoint last sent with;
 *  - flows: (VNI, inner IP version, protocol, addresses, ports) -> group;
 *  - a fixed cache of recent inner frames (hash of VNI + inner bytes);
 *  - counters per VNI and per group, and traffic per (source group, VNI,
 *    inner destination), resolved at the end to (source group, destination
 *    group): a destination's group is learned from the frames that
 *    endpoint itself sent, even when it speaks only later in the capture.
 * and judges the four cross-frame rules on the frame where they are seen:
 *   gbp.policy-reapplied        the same inner frame seen again with another
 *                               group ID, A=1 on either sighting
 *   gbp.policy-applied-cleared  the same inner frame seen with A=1, then A=0
 *   gbp.group-conflict          one endpoint sends with different group IDs
 *   gbp.flow-group-change       the group ID changes within one inner flow
 * (a re-sighting already reported is not also an endpoint or flow change).
 *
 * The library allocates nothing itself: tables come from the caller's
 * zalloc/free (zlib style), never more than budget bytes in all (a table
 * that doubles holds its old and new slots for the copy: both count).  The
 * fixed part is taken at init: the recent-frame cache (RULES, 1.5 MiB) and
 * the per-group counters (MATRIX, 1.25 MiB); the tables start empty and
 * double from 64 slots of 64 bytes.  When a table cannot grow (budget, or
 * zalloc returned NULL) it keeps its size for good and new keys are not
 * stored: the frame still counts everywhere it can, the keys that found no
 * room are counted (summary.dropped_*), and no count or finding is ever
 * made up.  Keys already held keep working.
 *
 * With VXGBP_TRACK_MATRIX alone, a frame's table updates are made during
 * the next vxgbp_track_frame() call (a one-frame pipeline that prefetches
 * the slots); vxgbp_track_summary/vnis/groups/matrix apply the waiting
 * frame first, so what they give is never behind.  Not thread-safe: one
 * thread at a time, the reading functions included.
 */
#define VXGBP_GROUP_NONE 0x10000u    /* plain VXLAN (G clear) */
#define VXGBP_GROUP_UNKNOWN 0x20000u /* a destination never seen sending GBP
                                        (or not stored: FULL_ENDPOINTS) */

#define VXGBP_TRACK_RULES 0x1u  /* the four cross-frame rules */
#define VXGBP_TRACK_MATRIX 0x2u /* VNI/group counters, group-to-group matrix */
/* VXGBP_TRACK_FLOWS (since 1.1): below, with vxgbp_track_flows() */

#define VXGBP_TRACK_BUDGET_DEFAULT ((size_t)256 << 20)

/* Size-versioned (docs/api.md): size is the caller's sizeof. */
struct vxgbp_track_opts {
	uint32_t size;   /* sizeof(struct vxgbp_track_opts) */
	unsigned what;   /* VXGBP_TRACK_RULES | VXGBP_TRACK_MATRIX */
	size_t budget;   /* most bytes of tables held at once; 0: the default */
	void *(*zalloc)(void *ctx, size_t size);         /* zeroed, or NULL */
	void (*free)(void *ctx, void *ptr, size_t size); /* size as asked */
	void *ctx;
	unsigned fabric; /* since 1.4: enum vxgbp_fabric_mode, the header the
	                    tracker follows (vxgbp_pkt_fabric()) */
};

struct vxgbp_track; /* opaque: vxgbp_track_size() bytes, malloc-aligned */
size_t vxgbp_track_size(void);
/* Start a tracker in t.  Returns 0, VXGBP_E_INVAL (no zalloc or free, no
 * `what` or an unknown bit in it, o->size below the first release's
 * sizeof), VXGBP_E_UNSUPPORTED (o sets a field past the library's struct),
 * or VXGBP_E_NOSPACE (the budget or zalloc cannot give the fixed part).  On
 * error t is not started (fini is a no-op). */
int vxgbp_track_init(struct vxgbp_track *t, const struct vxgbp_track_opts *o);
/* Give every table back through free(); t may then be init'ed again.
 * Calling it again, or on a tracker whose init failed, does nothing. */
void vxgbp_track_fini(struct vxgbp_track *t);

enum vxgbp_track_key {
	VXGBP_KEY_FRAME = 1, /* the same inner frame, seen again */
	VXGBP_KEY_MAC,       /* VNI + inner source MAC */
	VXGBP_KEY_IP,        /* VNI + inner source IP (or ARP sender) */
	VXGBP_KEY_FLOW,      /* VNI + inner 5-tuple */
};
/* "inner frame", "source MAC", "source IP", "flow"; NULL for another value. */
const char *vxgbp_track_key_name(enum vxgbp_track_key key);

/* One cross-frame finding: which rule, on what key, against which frame. */
struct vxgbp_track_hit {
	unsigned rule;            /* VXGBP_R_POLICY_REAPPLIED ... */
	enum vxgbp_track_key key;
	uint64_t prev_frame;      /* the earlier frame it contradicts */
	uint16_t prev_group;      /* its group ID */
	uint16_t prev_flags;      /* its flags word */
};

#define VXGBP_TRACK_MAX_HITS 4
#define VXGBP_TRACK_FULL_ENDPOINTS 0x1u
#define VXGBP_TRACK_FULL_FLOWS 0x2u
#define VXGBP_TRACK_FULL_PAIRS 0x4u
#define VXGBP_TRACK_FULL_VNIS 0x8u
#define VXGBP_TRACK_FULL_MIRRORS 0x20u /* since 1.4: a mirror not stored */

struct vxgbp_track_result {
	uint64_t findings;        /* VXGBP_RB() of the cross-frame rules hit */
	unsigned n_hits;
	struct vxgbp_track_hit hit[VXGBP_TRACK_MAX_HITS];
	unsigned full;            /* VXGBP_TRACK_FULL_*: keys of this frame not stored */
	unsigned unjudged;        /* since 1.4, VXGBP_TRACK_UNJUDGED_*: the rules'
	                             keys this frame could not be judged on */
};
/* The frame the fabric header carries has no Ethernet header (VXLAN-GPE
 * carrying IPv4 or IPv6): it is tracked by its inner IP addresses, and
 * gbp.group-conflict by source MAC (VXGBP_KEY_MAC) is not judged on it. */
#define VXGBP_TRACK_UNJUDGED_MAC 0x1u

/* Feed one frame: p as parsed (any entry point; frames without VXLAN are
 * counted too), its buffer still in place (the inner frame's bytes, from
 * p->inner.l2.dst to the end of the capture, are hashed; nothing is kept
 * pointing into it), frame its number (1-based, increasing).  r (may be NULL)
 * gets the cross-frame findings of this frame, hits in the order found
 * (the re-sighting, or MAC, IP, flow).  Returns 0, or VXGBP_E_NOSPACE when
 * a key found no room (r->full says which; with MATRIX alone, the keys of
 * the frame fed before, whose updates the pipeline made now), or
 * VXGBP_E_INVAL (no tracker, p NULL, frame 0). */
int vxgbp_track_frame(struct vxgbp_track *t, const struct vxgbp_pkt *p, uint64_t frame,
		      struct vxgbp_track_result *r);

/* Size-versioned (docs/api.md): set size to sizeof(struct
 * vxgbp_track_summary); the library leaves the bytes it filled. */
struct vxgbp_track_summary {
	uint32_t size;            /* the caller's sizeof; then the bytes filled */
	uint64_t frames, bytes;   /* every frame fed (bytes on the wire) */
	uint64_t vxlan, gbp;      /* with a VXLAN header / with G set */
	uint64_t other;           /* no VXLAN header */
	uint64_t unparsed;        /* stopped by an error before a VXLAN header */
	size_t endpoints, flows, vnis, groups, pairs; /* keys held */
	uint64_t dropped_endpoints, dropped_flows, dropped_vnis, dropped_pairs;
	                          /* keys that found no room, once per frame that
	                             brought one (a key seen in 3 frames counts
	                             3); for pairs and VNIs these are the frames
	                             missing from those tables' counts */
	uint64_t dropped_pair_bytes;
	unsigned full;            /* VXGBP_TRACK_FULL_* tables that ran out */
	size_t mem;               /* bytes of tables held now */
	/* since 1.4, VXGBP_TRACK_MATRIX: frames through a mirror
	 * (vxgbp_pkt_mirror()), their bytes, the mirrors held, and the frames
	 * of mirrors that found no room (in mirror_frames, in no row) */
	uint64_t mirror_frames, mirror_bytes;
	size_t mirrors;
	uint64_t dropped_mirrors, dropped_mirror_bytes;
};
/* Fill s (all zero for no tracker).  Returns 0, or VXGBP_E_INVAL (s NULL,
 * or s->size below the first release's sizeof). */
int vxgbp_track_summary(const struct vxgbp_track *t, struct vxgbp_track_summary *s);

/* Counters of one VNI or group. */
struct vxgbp_track_count {
	uint32_t key;             /* VNI, or group ID / VXGBP_GROUP_NONE */
	uint64_t frames, bytes;
};
/* One cell of the group-to-group matrix. */
struct vxgbp_track_cell {
	uint32_t src, dst;        /* group ID, VXGBP_GROUP_NONE or _UNKNOWN */
	uint64_t frames, bytes;
};
/* Copy out the counters, sorted by key (groups: VXGBP_GROUP_NONE last),
 * or the matrix, sorted by (src, dst), equal cells merged.  n is the room
 * in out (summary.vnis / .groups / .pairs is always enough).  Return the
 * number written, or VXGBP_E_NOSPACE. */
int vxgbp_track_vnis(const struct vxgbp_track *t, struct vxgbp_track_count *out, size_t n);
int vxgbp_track_groups(const struct vxgbp_track *t, struct vxgbp_track_count *out, size_t n);
int vxgbp_track_matrix(const struct vxgbp_track *t, struct vxgbp_track_cell *out, size_t n);
/* Since 1.4: frames and bytes per mirror (VXGBP_TRACK_MATRIX), the mirror
 * each frame came through as vxgbp_pkt_mirror() names it under the
 * tracker's fabric mode; frames through none are in no row.  The mirrors
 * are held outside the budget, at most 6,144 of them (a tracker of budget
 * SIZE_MAX, what vxgbp_track_absorb's sources get, holds every one);
 * frames of one more are counted in summary.dropped_mirrors. */
struct vxgbp_track_mirror {
	uint32_t kind;            /* enum vxgbp_mirror_kind */
	uint32_t id;              /* VNI or session ID */
	uint64_t frames, bytes;
};
/* Copy out the mirrors, sorted by (kind, id).  n: the room in out
 * (summary.mirrors is enough).  The number written, VXGBP_E_NOSPACE, or
 * VXGBP_E_INVAL (no tracker). */
int vxgbp_track_mirrors(const struct vxgbp_track *t, struct vxgbp_track_mirror *out, size_t n);

/* Since 1.1: bidirectional flows (VXGBP_TRACK_FLOWS), for a policy audit.
 *
 * A flow is the inner 5-tuple of the first VXLAN header's IPv4/IPv6 frame
 * within a VNI, both directions together: IP version, protocol, the two
 * addresses, and the two ports for TCP and UDP (other protocols, ICMP
 * included, by addresses and protocol alone).  Its initiator is the side
 * that sent the first frame seen, unless a TCP SYN without ACK is seen
 * later from the other side: the first such SYN names the initiator.
 * Resolved when read (vxgbp_track_flows), like the matrix:
 *  - src_group: the group ID of the initiator's last frame in the flow,
 *    VXGBP_GROUP_NONE when that frame had G clear;
 *  - dst_group: the responder's group as the matrix learns it (the last
 *    group the responder's address sent GBP with in this VNI, in any flow,
 *    even later in the capture), VXGBP_GROUP_UNKNOWN when never seen.
 * Flows are kept in the same budget as the other tables: a flow that finds
 * no room is not stored and counted (vxgbp_track_flow_stats, full bit
 * VXGBP_TRACK_FULL_BIFLOWS); its frames are then in no flow. */
#define VXGBP_TRACK_FLOWS 0x4u     /* vxgbp_track_opts.what: bidirectional flows */
#define VXGBP_TRACK_FULL_BIFLOWS 0x10u /* result/summary .full: a flow not stored */

struct vxgbp_track_flow {
	uint64_t first_frame;     /* the flow's first frame (1-based) */
	uint64_t frames[2];       /* [0] initiator to responder, [1] back */
	uint64_t bytes[2];        /* bytes on the wire (outer frames) */
	uint64_t a_frames;        /* frames with G and A (Policy Applied) set,
	                             either direction */
	uint64_t first_a_frame;   /* the first of them; 0: none */
	uint32_t vni;
	uint32_t src_group;       /* initiator's: group ID or VXGBP_GROUP_NONE */
	uint32_t dst_group;       /* responder's: group ID, _NONE never, or
	                             VXGBP_GROUP_UNKNOWN */
	uint16_t sport, dport;    /* initiator's and responder's port (TCP,
	                             UDP; 0 for other protocols) */
	uint8_t ip_version;       /* 4 or 6 */
	uint8_t proto;            /* IP protocol (IPv6: the last next header) */
	uint8_t syn;              /* 1: a TCP SYN without ACK named the initiator */
	uint8_t src[16], dst[16]; /* initiator's and responder's address (4 or
	                             16 bytes used) */
};
/* Flows held now and flows dropped (frames that brought a flow that found
 * no room: a flow seen in 3 such frames counts 3).  Returns 0, or
 * VXGBP_E_INVAL (no tracker, or one without VXGBP_TRACK_FLOWS). */
int vxgbp_track_flow_stats(const struct vxgbp_track *t, size_t *held, uint64_t *dropped);
/* Copy out the flows, sorted by first frame.  n is the room in out
 * (vxgbp_track_flow_stats' held is enough).  Returns the number written,
 * VXGBP_E_NOSPACE, or VXGBP_E_INVAL (no tracker, or no VXGBP_TRACK_FLOWS). */
int vxgbp_track_flows(const struct vxgbp_track *t, struct vxgbp_track_flow *out, size_t n);

/* ------------------------------------------------------------------------
 * Address and name helpers.
 */
/* Format an IPv4 (len 4) or IPv6 (len 16, RFC 5952) address into buf.
 * Returns the length written, or VXGBP_E_NOSPACE / VXGBP_E_INVAL. */
int vxgbp_addr_format(char *buf, size_t buflen, const uint8_t *addr, size_t len);
/* "aa:bb:cc:dd:ee:ff"; buflen >= 18. */
int vxgbp_mac_format(char *buf, size_t buflen, const uint8_t mac[6]);

/* Group names: "0x200 web" / "512 web" lines, '#' comments, blank lines.
 * The table lives in caller-provided storage. */
struct vxgbp_group_name {
	uint16_t id;
	char name[32];
};
struct vxgbp_groups {
	struct vxgbp_group_name *v; /* caller's array, kept sorted by id */
	size_t n, cap;
};
void vxgbp_groups_init(struct vxgbp_groups *g, struct vxgbp_group_name *storage,
		       size_t cap);
/* Parse one line.  0 (added or blank/comment), VXGBP_E_SYNTAX, VXGBP_E_NOSPACE.
 * On VXGBP_E_SYNTAX *col (when col is not NULL) is the 0-based column of the
 * problem. */
int vxgbp_groups_parse_line(struct vxgbp_groups *g, const char *line, size_t len,
			    size_t *col);
/* Name for id, or NULL. */
const char *vxgbp_groups_name(const struct vxgbp_groups *g, uint16_t id);

/* ------------------------------------------------------------------------
 * Group-based policy (since 1.1; the language: docs/policy.md).  One rule
 * a line, first match wins, as an ACL:
 *
 *     default deny                      # the default when absent
 *     allow client -> web tcp 80,443
 *     allow web -> db tcp 5432
 *     allow * -> dns udp 53
 *     deny  0x100 -> unknown any
 *
 * A rule judges a flow (vxgbp_track_flow) by its initiator's group (src),
 * the responder's group (dst), the IP protocol and the responder's port.
 * Groups are names from a struct vxgbp_groups, IDs (decimal or 0x-hex),
 * `none` (VXGBP_GROUP_NONE: G clear), `unknown` (VXGBP_GROUP_UNKNOWN) or
 * `*` (any of these).  Storage is the caller's, as for vxgbp_groups.
 */
#define VXGBP_POLICY_DENY 0
#define VXGBP_POLICY_ALLOW 1
#define VXGBP_POLICY_SOME 2   /* vxgbp_policy_pair only: depends on protocol/port */

#define VXGBP_POLICY_ANY_GROUP 0xffffffffu /* a rule's `*` */
#define VXGBP_POLICY_ANY_PROTO 0xffffu     /* a rule's `any` */
#define VXGBP_POLICY_MAX_PORTS 16          /* port ranges in one rule */
#define VXGBP_POLICY_DEFAULT 0xffffffffu   /* *rule_index: no rule matched */

struct vxgbp_policy_rule {
	uint32_t src, dst;     /* group ID, VXGBP_GROUP_NONE, _UNKNOWN or
	                          VXGBP_POLICY_ANY_GROUP */
	uint32_t line;         /* the line number given to the parser */
	uint16_t proto;        /* 0..255, or VXGBP_POLICY_ANY_PROTO */
	uint8_t action;        /* VXGBP_POLICY_DENY or _ALLOW */
	uint8_t n_ports;       /* 0: every port (and protocols without ports) */
	uint16_t port_lo[VXGBP_POLICY_MAX_PORTS]; /* inclusive ranges; with */
	uint16_t port_hi[VXGBP_POLICY_MAX_PORTS]; /* ports, only TCP/UDP match */
};
struct vxgbp_policy {
	struct vxgbp_policy_rule *v; /* caller's array, in file order */
	size_t n, cap;
	const struct vxgbp_groups *groups; /* names (may be NULL: IDs only) */
	uint8_t dflt;          /* VXGBP_POLICY_DENY (the default) or _ALLOW */
	uint32_t dflt_line;    /* the `default` line; 0: none (deny) */
	const struct vxgbp_policy_index *index; /* vxgbp_policy_index_init's,
	                          or NULL: every rule is scanned */
};
void vxgbp_policy_init(struct vxgbp_policy *p, struct vxgbp_policy_rule *storage,
		       size_t cap, const struct vxgbp_groups *groups);
/* Parse one line (lineno is kept in the rule).  0 (added, `default`, blank
 * or comment), VXGBP_E_SYNTAX, VXGBP_E_NOSPACE.  On VXGBP_E_SYNTAX *col is
 * the 0-based column of the problem and *msg (both when not NULL) a
 * one-line reason ("unknown group name", ...). */
int vxgbp_policy_parse_line(struct vxgbp_policy *p, const char *line, size_t len,
			    uint32_t lineno, size_t *col, const char **msg);
/* The verdict for one flow: src/dst group (as vxgbp_track_flow gives
 * them), IP protocol, responder's port (0 without ports).  Returns
 * VXGBP_POLICY_ALLOW or _DENY; *rule_index (when not NULL) is the index of
 * the rule in p->v that decided, or VXGBP_POLICY_DEFAULT. */
int vxgbp_policy_judge(const struct vxgbp_policy *p, uint32_t src, uint32_t dst,
		       uint8_t ipproto, uint16_t dport, unsigned *rule_index);
/* The verdict for all traffic from group src to group dst (group IDs, or
 * VXGBP_GROUP_NONE / VXGBP_GROUP_UNKNOWN as the tracker's matrix uses them):
 * ALLOW when every flow would be allowed, DENY when every flow would be
 * denied, SOME when it depends on protocol/port.  Exact. */
int vxgbp_policy_pair(const struct vxgbp_policy *p, uint32_t src, uint32_t dst);
/* Rule i can never decide: one earlier rule matches every flow it
 * matches.  Returns 1 (*by, when not NULL, is the first such rule's index)
 * or 0. */
int vxgbp_policy_shadowed(const struct vxgbp_policy *p, size_t i, size_t *by);

/* Since 1.4: an index over the rules, in the caller's memory, so that
 * vxgbp_policy_judge() and vxgbp_policy_shadowed() (and through them
 * _pair() and _audit()) give the same answers without a scan of every
 * rule (docs/policy.md, "Policies at scale").  Build it once the rules are
 * loaded:
 *
 *     size_t len = vxgbp_policy_index_size(&p);
 *     void *mem = len ? malloc(len) : NULL;
 *     if (!mem || vxgbp_policy_index_init(&p, mem, len) < 0) ...
 *
 * vxgbp_policy_index_init() attaches it (p->index); vxgbp_policy_parse_line()
 * detaches it when it adds a rule, and an index whose rule count is not
 * p->n is ignored.  Change p->v by hand and build it again.  The memory
 * is the caller's to free once p->index is NULL or p is gone. */
struct vxgbp_policy_index; /* opaque */
/* The bytes an index of p's rules needs, its working space included; 0
 * when p is NULL or too big to index (over 2^29 - 1 rules, or as many
 * port ranges in all). */
size_t vxgbp_policy_index_size(const struct vxgbp_policy *p);
/* Build the index into mem (len bytes, aligned as malloc aligns) and
 * attach it to p.  0; VXGBP_E_NOSPACE (len below
 * vxgbp_policy_index_size(p)); VXGBP_E_INVAL (p or mem NULL, mem not
 * aligned, or a rule the parser cannot make: over 16 port ranges, a range
 * reversed).  On an error p->index is NULL. */
int vxgbp_policy_index_init(struct vxgbp_policy *p, void *mem, size_t len);

/* Since 1.3: the audit of one tracked flow (vxgbp_track_flows), the one
 * place the audit's verdicts are decided (docs/policy.md):
 *  - denied: the policy denies the flow (vxgbp_policy_judge on its groups,
 *    protocol and responder's port); policy.denied at its first frame;
 *  - bypassed: denied, yet a frame of it carried G and A (Policy Applied):
 *    something let it through; policy.bypassed at the first such frame. */
struct vxgbp_policy_verdict {
	uint64_t findings;     /* VXGBP_RB(VXGBP_R_POLICY_DENIED / _BYPASSED) */
	uint64_t denied_at;    /* the frame policy.denied is raised at; 0: none */
	uint64_t bypassed_at;  /* the frame policy.bypassed is raised at; 0: none */
	unsigned rule;         /* the deciding rule's index in p->v, or
	                          VXGBP_POLICY_DEFAULT */
	uint8_t verdict;       /* VXGBP_POLICY_ALLOW or _DENY */
};
/* Judge flow f into *v.  Returns v->verdict, or VXGBP_E_INVAL (an
 * argument NULL). */
int vxgbp_policy_audit(const struct vxgbp_policy *p, const struct vxgbp_track_flow *f,
		       struct vxgbp_policy_verdict *v);

/* ------------------------------------------------------------------------
 * CIPSO (IPv4 option 134, draft-ietf-cipso-ipsecurity-01 / FIPS 188) and
 * CALIPSO (IPv6 hop-by-hop option 7, RFC 5570).  Parsers never read outside
 * [opt, opt+len) and report every violation as a finding (VXGBP_RB bits of
 * the VXGBP_R_CIPSO_* / VXGBP_R_CALIPSO_* rules); builders write the exact
 * bytes Linux's NetLabel sends for the same label.
 */
#define VXGBP_CIPSO_OPT 134
#define VXGBP_CALIPSO_OPT 7
#define VXGBP_CIPSO_HDR_LEN 6     /* type, length, 4-byte DOI */
#define VXGBP_CIPSO_MAX_LEN 40    /* the whole IPv4 option area */
#define VXGBP_CIPSO_MAX_TAGS 17   /* 34 bytes of tags, 2 bytes at least each */

/* Tag types. */
#define VXGBP_CIPSO_TAG_RBM 1     /* restrictive bitmap */
#define VXGBP_CIPSO_TAG_ENUM 2    /* enumerated categories */
#define VXGBP_CIPSO_TAG_RANGE 5   /* ranged categories */
#define VXGBP_CIPSO_TAG_PBM 6     /* permissive bitmap (FIPS 188) */
#define VXGBP_CIPSO_TAG_FREE 7    /* free form (FIPS 188) */
#define VXGBP_CIPSO_TAG_LOCAL 128 /* Linux NetLabel local: 32-bit secid, loopback */

/* Categories valid on the wire: 0..65534 (65535 is not a category);
 * bitmaps reach 239 (30 bytes), CALIPSO bitmaps 1951 (61 words). */
#define VXGBP_CIPSO_CAT_MAX 65534u

struct vxgbp_cipso_tag {
	uint8_t type;          /* 1, 2, 5, 6, 7, 128, ... */
	uint8_t len;           /* tag length incl. type and length bytes */
	uint8_t has_level;     /* 1: tags 1, 2, 5, 6 long enough to hold one */
	uint8_t level;         /* sensitivity level (when has_level) */
	const uint8_t *data;   /* after the level (1, 2, 5, 6) or after the length
	                          byte (7, 128, unknown); into the buffer */
	uint8_t data_len;
};

struct vxgbp_cipso {
	uint8_t len;           /* option length as on the wire */
	uint32_t doi;
	unsigned n_tags;       /* tags decoded (at most VXGBP_CIPSO_MAX_TAGS) */
	struct vxgbp_cipso_tag tags[VXGBP_CIPSO_MAX_TAGS];
	uint64_t findings;     /* VXGBP_R_CIPSO_* bits */
};

/* Parse a CIPSO option starting at its type byte (134); len is what the
 * caller's buffer holds from there.  Returns the option length (findings,
 * if any, in c->findings), VXGBP_E_INVAL (not type 134, NULL),
 * VXGBP_E_TRUNCATED (the buffer ends before the option's length says), or
 * VXGBP_E_MALFORMED (option shorter than its 6-byte header; c->findings
 * says so too). */
int vxgbp_cipso_parse(struct vxgbp_cipso *c, const void *opt, size_t len);
/* Walk the categories of a tag: *iter starts at 0; each call gives the next
 * run of consecutive categories [*lo, *hi] (lo == hi for a single one) and
 * returns 1, or 0 at the end.  Bitmaps come in ascending order,
 * enumerations in the order sent (ascending when valid); ranges (tag 5, sent
 * in descending order) are given last pair first as [min, max], so a valid
 * tag also comes out ascending.  Tags without categories (7, 128, unknown)
 * give nothing. */
int vxgbp_cipso_cat_next(const struct vxgbp_cipso_tag *t, unsigned *iter,
			 uint16_t *lo, uint16_t *hi);
/* The tag that carries the MAC label: the first of type 1, 2, 5 or 6 with a
 * level; NULL when there is none. */
const struct vxgbp_cipso_tag *vxgbp_cipso_label_tag(const struct vxgbp_cipso *c);
/* "bitmap", "enumerated", "ranged", "permissive", "freeform", "local",
 * "unknown". */
const char *vxgbp_cipso_tag_name(uint8_t type);
/* Format the categories of a tag as "0,1,5-9" (runs of 3 or more as lo-hi)
 * into buf (always NUL-terminated when buflen > 0).  Returns the length, or
 * VXGBP_E_NOSPACE when buf was too small (then holds a prefix). */
int vxgbp_cipso_cats_format(char *buf, size_t buflen, const struct vxgbp_cipso_tag *t);
/* The same text with no length limit, handed to put() a piece at a time
 * (put returns 0 to go on, negative to stop).  Returns the total length, or
 * put's negative return. */
typedef int (*vxgbp_put_fn)(void *ctx, const char *s, size_t n);
int vxgbp_cipso_cats_put(const struct vxgbp_cipso_tag *t, vxgbp_put_fn put, void *ctx);

struct vxgbp_calipso {
	uint8_t data_len;      /* option data length as on the wire */
	uint32_t doi;
	uint8_t level;
	uint8_t cmpt_len;      /* compartment bitmap length in 32-bit words */
	const uint8_t *cmpt;   /* compartment bitmap, into the buffer */
	uint16_t cmpt_bytes;   /* cmpt_len * 4, or less when the option is shorter */
	uint16_t csum;         /* CRC-16 as on the wire (sent low byte first) */
	uint16_t csum_calc;    /* CRC-16 computed over the option */
	int csum_ok;
	uint64_t findings;     /* VXGBP_R_CALIPSO_* bits */
};

/* Parse a CALIPSO option starting at its type byte (7).  Returns the option
 * length (data length + 2), VXGBP_E_INVAL, VXGBP_E_TRUNCATED, or
 * VXGBP_E_MALFORMED (data shorter than the 8-byte header; c->findings
 * says so). */
int vxgbp_calipso_parse(struct vxgbp_calipso *c, const void *opt, size_t len);
/* Categories of the compartment bitmap, as vxgbp_cipso_cat_next. */
int vxgbp_calipso_cat_next(const struct vxgbp_calipso *c, unsigned *iter,
			   uint16_t *lo, uint16_t *hi);
int vxgbp_calipso_cats_format(char *buf, size_t buflen, const struct vxgbp_calipso *c);
int vxgbp_calipso_cats_put(const struct vxgbp_calipso *c, vxgbp_put_fn put, void *ctx);
/* The RFC 5570 checksum of a whole option (type byte on): CRC-16/CCITT as
 * HDLC uses it (reflected, initial 0xffff, complemented - Linux's
 * ~crc_ccitt(0xffff, ...)) over every byte, the checksum field taken as
 * zero.  Returns 0 for an option shorter than 10 bytes. */
uint16_t vxgbp_calipso_csum(const void *opt, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* VXGBP_VXGBP_H */
