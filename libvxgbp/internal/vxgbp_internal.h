/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vxgbp_internal.h - what libvxgbp gives this project's own programs and
 * nothing else: frame builders (gbpgen, gbpprobe, the tests), the hooks
 * that gbpdump's summary, merge and -j paths reach into the parser and
 * the tracker with, and switches for tests.  Not installed, not in
 * libvxgbp.so's exports (libvxgbp.map), and no promise: any of it may
 * change in any release (docs/api.md, "Outside the stable ABI").
 *
 * Link the static target vxgbp_internal (the builders' code; it links
 * libvxgbp's static library, whose objects hold the hooks' code beside
 * the parser and tracker they read).
 */
#ifndef VXGBP_INTERNAL_H
#define VXGBP_INTERNAL_H

#include <vxgbp/vxgbp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Parse flags (struct vxgbp_parse_opts.flags) for gbpdump and the tests.
 */
#define VXGBP_PARSE_GENERIC 0x4u          /* layer by layer even for the common
                                             Ethernet/IPv4/UDP/VXLAN/IPv4 shape,
                                             which has a one-pass parser with
                                             the same result (for tests) */
#define VXGBP_PARSE_SUMMARY 0x20u         /* vxgbp_pkt_parse(): fill only what
                                             a traffic summary reads (below) */
/* VXGBP_PARSE_SUMMARY: a frame of one of the one-pass parser's
 * shapes - Ethernet [one 802.1Q tag], IPv4 without options or IPv6
 * without extension headers, then either UDP to a VXLAN port/VXLAN(-GBP)/
 * Ethernet/IPv4/TCP, UDP or ICMP, or (not VXLAN) TCP, UDP to another
 * port than GPE's or Geneve's, ICMP; or Ethernet [one tag]/ARP - and
 * the same VXLAN shape with the outer Ethernet untagged and inner
 * IPv6 without extension headers/TCP, UDP, ICMP or ICMPv6 - gets
 * only caplen, wirelen, have, err (0), err_layer (NULL), vxlan_off, vx,
 * vx_kind, n_encap (0), n_nested (0), has_cooked (0), inner.l2 (off, src,
 * dst, ethertype, n_vlan) and inner.l3 (off, version, src, dst, arp_spa
 * and arp_tpa NULL), each equal to the full parse's (a frame that is not
 * VXLAN: vxlan_off -1, vx zero, no inner layer); every other field is
 * left as it was: read none of them.  No checksum is verified.  Any other
 * frame gets the full parse (as with VXGBP_PARSE_NO_CSUM).  What
 * vxgbp_track_frame() reads for VXGBP_TRACK_MATRIX alone is among these
 * fields (gbpdump --stats). */

/* ------------------------------------------------------------------------
 * Tracker hooks: gbpdump -j N --stats (one tracker a thread, added up) and
 * gbpdump --merge (the state of one capture's trackers, read back and
 * appended to another's).
 */
/* Make dst, a VXGBP_TRACK_MATRIX tracker that has seen no frame, what it
 * would be had it been fed, in order, every frame that the n trackers src
 * (VXGBP_TRACK_MATRIX too) were fed: disjoint frames of one numbering (a
 * capture shared out between threads, each tracker's frames in increasing
 * order).  Exact under any budget of dst's, what a full table drops
 * included (track_absorb.c replays the order in which keys came), as long
 * as no source dropped a key: give the sources budget SIZE_MAX.  The
 * sources are left with the frames counted and the keys held (their
 * waiting frame applied), but for one that shares dst's allocator, whose
 * tables dst may have taken (left empty); give them back as usual.  Its scratch memory comes from dst's allocator, outside
 * the budget, and is given back.  Returns 0; VXGBP_E_NOSPACE when a source
 * dropped keys or the scratch memory could not be had (dst unchanged);
 * VXGBP_E_INVAL: no tracker, dst fed frames or among the sources, or
 * another mode. */
int vxgbp_track_absorb(struct vxgbp_track *dst, struct vxgbp_track *const *src, unsigned n);
/* Start t as a tracker of like's modes with like's allocator (zalloc,
 * free, ctx: vxgbp_track_absorb may then move a source's tables into dst)
 * and budget budget (0: the default).  vxgbp_track_init's returns. */
int vxgbp_track_init_like(struct vxgbp_track *t, const struct vxgbp_track *like, size_t budget);
/* 1 when t is a tracker of VXGBP_TRACK_MATRIX alone (vxgbp_track_absorb
 * can stand for it), else 0. */
int vxgbp_track_matrix_alone(const struct vxgbp_track *t);

/* The tracker's state, for a summary that can be merged with the
 * summaries of the captures before and after it (gbpdump --merge,
 * docs/merge.md).
 *
 * VXGBP_TRACK_FIRSTS (with VXGBP_TRACK_RULES) also records where the rules
 * first saw each endpoint and flow key (frame, group, VXLAN header offset)
 * and, for each slot of the recent-frame cache, the first frame that used
 * it: what a later merge judges against the state the captures before left
 * (a key's first sighting against its last group there, a cache slot's
 * first frame against its last content there).  Without it the per-frame
 * work is what it was.  The records come from zalloc but outside the
 * budget, so asking for them changes no finding and no count: one slot per
 * key the tables hold (64 bytes) and the cache's first frames (2 MiB, at
 * init). */
#define VXGBP_TRACK_FIRSTS 0x8u     /* vxgbp_track_opts.what: first sightings */

enum vxgbp_track_kind {
	VXGBP_ENT_ENDPOINT = 1, /* rules' and matrix's endpoints */
	VXGBP_ENT_FLOW,         /* rules' flows (one direction each) */
	VXGBP_ENT_PAIR,         /* matrix: (source group, VNI, inner destination) */
	VXGBP_ENT_VNI,          /* matrix: per VNI */
};

/* One key of a table and what the tracker holds for it. */
struct vxgbp_track_entry {
	uint32_t vni;
	uint8_t family;         /* endpoint, pair's destination: 0 MAC (6 bytes
	                           of addr), 4 IPv4 or ARP sender, 6 IPv6;
	                           flow: its IP version */
	uint8_t proto;          /* flow: IP protocol */
	uint16_t sport, dport;  /* flow: ports (TCP, UDP; else 0) */
	uint8_t addr[16];       /* endpoint; pair's destination; flow's source */
	uint8_t addr2[16];      /* flow's destination */
	uint32_t src_group;     /* pair: group ID or VXGBP_GROUP_NONE */
	uint64_t frames, bytes; /* pair, VNI */
	uint32_t learned;       /* endpoint: the group the matrix learned (its
	                           last GBP frame), or VXGBP_GROUP_UNKNOWN */
	uint64_t last_frame;    /* endpoint, flow: the rules' last sighting; 0
	                           none (a matrix-only endpoint) */
	uint16_t last_group, last_flags;
	uint64_t first_frame;   /* FIRSTS: the rules' first sighting; 0 none */
	uint16_t first_group;
	int first_off;          /* that frame's VXLAN header offset (flows: -1
	                           when 65535 or more) */
	uint16_t first_sport, first_dport; /* flow: that frame's inner L4 ports
	                           as the parser read them (vxgbp_l4) */
};
/* The next entry of `kind` at or after *it (start at 0), in no particular
 * order: 1 (e filled, *it stepped past it), 0 at the end, VXGBP_E_INVAL (no
 * tracker, or an unknown kind). */
int vxgbp_track_next(const struct vxgbp_track *t, enum vxgbp_track_kind kind, size_t *it,
		     struct vxgbp_track_entry *e);

/* A frame in the recent-frame cache (VXGBP_TRACK_RULES). */
struct vxgbp_track_cached {
	uint32_t slot;          /* the cache slot (hash bits) */
	uint32_t len;           /* inner frame bytes hashed */
	uint64_t hash;          /* of VNI + inner bytes */
	uint64_t frame;
	uint16_t flags, group;  /* that frame's VXLAN flags word and group ID */
	int off;                /* its VXLAN header offset (first frames only; else -1) */
};
/* The next used slot at or after *it: what the cache holds now (first 0),
 * or the first frame that used each slot (first 1; VXGBP_TRACK_FIRSTS).
 * 1, 0 at the end, VXGBP_E_INVAL (no tracker, no cache, no FIRSTS), or
 * (first 1) VXGBP_E_NOSPACE when zalloc refused a first-sighting record:
 * the first sightings are incomplete. */
int vxgbp_track_cache_next(const struct vxgbp_track *t, int first, size_t *it,
			   struct vxgbp_track_cached *c);
/* The rule the tracker finds when frame cur uses the slot holding prev:
 * VXGBP_R_POLICY_REAPPLIED, VXGBP_R_A_CLEARED, or 0 (not the same inner
 * frame, or no change to report). */
unsigned vxgbp_track_cache_judge(const struct vxgbp_track_cached *prev,
				 const struct vxgbp_track_cached *cur);
/* One key's entries from two captures, the second after the
 * first (gbpdump --merge): x the first's (NULL: the key was not in it), y
 * the second's, its frames numbered from 1; off the frames before y's
 * capture.  *out (which may be x) becomes what one tracker fed both
 * captures in order would hold: pairs and VNIs summed; endpoints and flows
 * with y's last sighting and learned group where y has them, x's first
 * sighting where x has one; y's frame numbers moved up by off.  Returns
 * the rule that tracker finds at y's first sighting, 0 when none (x's last
 * group is y's first, or either sighting missing): VXGBP_R_GROUP_CONFLICT
 * (an endpoint) or VXGBP_R_FLOW_GROUP_CHANGE (a flow).  VXGBP_E_INVAL: an
 * argument NULL, an unknown kind, or a count or frame number past
 * UINT64_MAX (*out is then unchanged). */
int vxgbp_track_entry_append(struct vxgbp_track_entry *out, const struct vxgbp_track_entry *x,
			     const struct vxgbp_track_entry *y, enum vxgbp_track_kind kind,
			     uint64_t off);

/* ------------------------------------------------------------------------
 * Frame builders: the shapes vxgbp_pkt_parse() reads, every field settable
 * (gbpgen, gbpprobe, the tests, the fuzzers' seeds).
 */
struct vxgbp_ip_spec {
	uint8_t version;       /* 4 or 6 */
	uint8_t src[16], dst[16];
	uint8_t ttl;           /* 0 means 64 */
	uint8_t tos;
	uint16_t ip_id;
	uint8_t dont_frag;
	uint32_t flow_label;
	const uint8_t *options;/* IPv4 options (padded by the builder to 4) or an IPv6
	                          hop-by-hop option area (type/len TLVs, padded to 8) */
	size_t options_len;
	unsigned flags;        /* VXGBP_IP_* */
};
#define VXGBP_IP_BIG 0x1u /* Linux BIG TCP: a packet over 65535 bytes is
                             written with IPv4 total length 0, or IPv6
                             payload length 0 and a hop-by-hop Jumbo
                             Payload option (RFC 2675); shorter packets
                             are written as usual */
#define VXGBP_IP_CSUM_BAD 0x2u /* IPv4: a deliberately wrong header checksum */

struct vxgbp_eth_spec {
	uint8_t dst[6], src[6];
	unsigned n_vlan;                 /* 0..VXGBP_MAX_VLAN */
	uint16_t vlan_tpid[VXGBP_MAX_VLAN];/* 0 means 0x8100 */
	uint16_t vlan_tci[VXGBP_MAX_VLAN];
};

struct vxgbp_l4_spec {
	uint8_t proto;         /* 17 UDP, 6 TCP, 1 ICMP, 58 ICMPv6 */
	uint16_t sport, dport; /* UDP/TCP */
	uint8_t tcp_flags;     /* TCP */
	uint32_t tcp_seq, tcp_ack;
	uint8_t icmp_type, icmp_code; /* ICMP: echo id/seq from sport/dport */
	int csum_mode;         /* VXGBP_CSUM_* */
};
#define VXGBP_CSUM_COMPUTE 0
#define VXGBP_CSUM_ZERO 1   /* UDP: checksum 0 (IPv4 only by the rules) */
#define VXGBP_CSUM_BAD 2    /* a deliberately wrong checksum */
#define VXGBP_CSUM_PARTIAL 3 /* UDP/TCP: the pseudo-header sum alone, as
                                Linux leaves it for checksum offload
                                (CHECKSUM_PARTIAL) and a capture on the
                                sending host shows it */
/* Any other l4->proto (GRE 47, IPIP 4, IPv6 41, ...): no L4 header is
 * written; the IP protocol is l4->proto and payload follows the IP header. */

/* Build Ethernet[/VLAN]/IP/L4 + payload into out.  Returns the frame
 * length, or VXGBP_E_NOSPACE / VXGBP_E_INVAL.  eth may be NULL for a raw IP
 * packet. */
int vxgbp_frame_build(void *out, size_t outlen, const struct vxgbp_eth_spec *eth,
		      const struct vxgbp_ip_spec *ip, const struct vxgbp_l4_spec *l4,
		      const void *payload, size_t payload_len);
/* Build a whole VXLAN frame: outer eth/ip/udp(l4->dport, usually 4789) with
 * the 8-byte header hdr and the inner frame as payload. */
int vxgbp_vxlan_build(void *out, size_t outlen, const struct vxgbp_eth_spec *eth,
		      const struct vxgbp_ip_spec *ip, const struct vxgbp_l4_spec *udp,
		      const struct vxgbp_hdr *hdr, const void *inner, size_t inner_len);

/* Tunnel headers, the shapes vxgbp_pkt_parse() walks (for gbpgen and
 * tests): the header for spec, then payload, into out. */
struct vxgbp_tunnel_spec {
	unsigned kind;         /* VXGBP_ENCAP_GRE, _ERSPAN1/2/3, _GENEVE, _MPLS */
	uint16_t proto;        /* GRE / Geneve protocol type carried (0: 0x6558,
	                          Ethernet); MPLS: ignored */
	unsigned flags;        /* VXGBP_TUN_* */
	uint32_t id;           /* GRE key (with VXGBP_TUN_KEY), ERSPAN session
	                          ID (10 bits), Geneve VNI, MPLS label */
	uint32_t seq;          /* GRE sequence (with VXGBP_TUN_SEQ; ERSPAN II
	                          and III always carry one) */
	uint16_t vlan;         /* ERSPAN: the mirrored frame's VLAN */
	uint32_t index;        /* ERSPAN II: index (20 bits); III: timestamp */
	const uint8_t *options;/* Geneve options (TLVs), a multiple of 4 <= 252 */
	size_t options_len;
	unsigned n_labels;     /* MPLS: labels (1..4), id, id+1, ... */
};
#define VXGBP_TUN_KEY 0x1u   /* GRE: key present */
#define VXGBP_TUN_SEQ 0x2u   /* GRE: sequence number present */
#define VXGBP_TUN_CSUM 0x4u  /* GRE: checksum present (computed) */
#define VXGBP_TUN_OAM 0x8u   /* Geneve: O bit */
/* Returns the length written (header + payload), VXGBP_E_NOSPACE or
 * VXGBP_E_INVAL (unknown kind, a field that does not fit). */
int vxgbp_tunnel_build(void *out, size_t outlen, const struct vxgbp_tunnel_spec *t,
		       const void *payload, size_t payload_len);

/* Build an Ethernet ARP packet for IPv4 (RFC 826): op 1 request, 2 reply;
 * sender sha/spa, target tha/tpa (tha may be NULL: zero, as in a request).
 * eth gives the Ethernet header (dst, src, VLAN tags).  Returns the frame
 * length (42 bytes untagged), VXGBP_E_NOSPACE or VXGBP_E_INVAL. */
#define VXGBP_ARP_REQUEST 1
#define VXGBP_ARP_REPLY 2
int vxgbp_arp_build(void *out, size_t outlen, const struct vxgbp_eth_spec *eth,
		    uint16_t op, const uint8_t sha[6], const uint8_t spa[4],
		    const uint8_t tha[6], const uint8_t tpa[4]);

/* Internet checksum (RFC 1071), for the builders and the tests. */
uint16_t vxgbp_csum_fold(uint32_t sum);
uint32_t vxgbp_csum_add(uint32_t sum, const void *buf, size_t len);

/* What to put in one tag when building. */
struct vxgbp_cipso_tag_spec {
	uint8_t type;          /* 1, 2, 5, 6: level + categories, encoded as the
	                          draft says (bitmap minimal, enumeration as given,
	                          ranges made from the category runs, descending,
	                          a last bottom of 0 omitted as Linux does) */
	uint8_t level;
	const uint16_t *cats;  /* categories; for tags 1, 5, 6 any order */
	unsigned n_cats;
	const uint8_t *raw;    /* when set (any type): the tag is type, length and
	                          these bytes verbatim - for crafting bad tags */
	size_t raw_len;
	uint8_t len_override;  /* non-zero: write this as the tag length */
};
/* Build a CIPSO option into out.  Returns its length, VXGBP_E_NOSPACE, or
 * VXGBP_E_INVAL (more than 40 bytes, a category beyond what the tag type can
 * carry, more than 15 enumerated categories or 7 ranges).  DOI 0 and
 * out-of-order enumerations are written as asked (to craft findings). */
int vxgbp_cipso_build(void *out, size_t outlen, uint32_t doi,
		      const struct vxgbp_cipso_tag_spec *tags, unsigned n_tags);

/* Build a CALIPSO option (as Linux's calipso_genopt: bitmap in whole words
 * up to the highest category, no bitmap without categories).  flags
 * VXGBP_CALIPSO_BAD_CSUM writes a wrong checksum.  Returns the option
 * length, VXGBP_E_NOSPACE, or VXGBP_E_INVAL (category above 1951). */
#define VXGBP_CALIPSO_BAD_CSUM 0x1u
int vxgbp_calipso_build(void *out, size_t outlen, uint32_t doi, uint8_t level,
			const uint16_t *cats, unsigned n_cats, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* VXGBP_INTERNAL_H */
