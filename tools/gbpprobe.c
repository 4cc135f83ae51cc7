// SPDX-License-Identifier: BSD-2-Clause
/*
 * gbpprobe - probe a VXLAN(-GBP) VTEP black-box: send it crafted frames
 * built with libvxgbp over a plain UDP socket (or write them to a pcap for
 * replay) and judge what comes back on our own VXLAN port.
 *
 * We play a remote VTEP at LOCAL with fake endpoints behind it (one inner
 * MAC/IP per probe), over an IPv4 or an IPv6 underlay (the VTEP's address
 * says which).  The VTEP under test has a VXLAN device whose remote
 * (and flood list) is LOCAL; behind it lives TARGET (an IPv4 address that
 * answers ARP and ping).  Each probe sends an ICMP echo request to TARGET
 * with a particular header and looks at the replies:
 *
 *   vxlan.plain-as-group-0     plain RFC 7348 VXLAN (no G) is accepted
 *   gbp.group-mapped           G=1 ID=G: accepted; the reply carries ID G
 *                              (needs the mark reflected, e.g. Linux's
 *                              net.ipv4.fwmark_reflect=1; info otherwise)
 *   gbp.policy-applied-set     the reply to an A=0 request has A=1 (info:
 *                              only a VTEP that applies policy sets it)
 *   rsvd.first-byte-ignored    reserved flag bit 7 (first byte) with G
 *   rsvd.second-byte-ignored   reserved bits 10 and 11 (VPP's E and S)
 *   rsvd.tail-byte-ignored     reserved byte 7 = 0xff
 *   rsvd.id-without-g-ignored  ID field set without G
 *                              (RFC 7348 sec. 5: reserved bits MUST be
 *                              ignored on receipt; a dropped probe fails)
 *   learn.control              D=0 from a new MAC: the reply comes back
 *                              unicast (the VTEP learned the MAC)
 *   learn.dont-learn-honoured  D=1 from a new MAC: the reply to it is
 *                              flooded, i.e. the MAC was not learned
 *                              (draft sec. 2.1).  Telling unicast from
 *                              flooded needs a second address of ours in
 *                              the VTEP's flood list (--flood-addr).
 *   gbp.group-zero-accepted    G=1 with ID 0 (a valid header): accepted
 *   vxlan.i-clear-dropped      G=1 without I (no valid VNI): dropped
 *                              (info when the VNI is used anyway)
 *   gpe.on-vxlan-port-ignored  a VXLAN-GPE header (P, next protocol 3:
 *                              Ethernet) on the VXLAN port: P is a
 *                              reserved bit there, to be ignored
 *   mark.flags-mapped          G, D and A with ID G from a source of its
 *                              own, for the receiver to read the mark it
 *                              gets (netfilter, in the guest): gbpprobe
 *                              cannot see it (n/a here)
 *   mcast.igmp-report-no-group the IGMP / MLD reports the VTEP sends while
 *   mcast.mld-report-no-group  we listen carry no group (G with an ID
 *                              fails: nothing gave the VTEP's own stack one)
 *   ip.outer-fragments-reassembled  a datagram over a 1500-byte MTU, in
 *                              fragments: reassembled (info: discarded,
 *                              RFC 7348 sec. 4.3 allows it)
 *   learn.dont-learn-static    D=1 from a MAC the VTEP has pinned to
 *                              --flood-addr (--static-mac), sent from
 *                              LOCAL: the reply must still go to the
 *                              pinned remote (info when dropped)
 *   learn.dont-learn-nexthop   the same from a MAC pinned through an FDB
 *                              nexthop group (--nexthop-mac)
 *   gbp.policy-applied-forwarded    G, A=1, ID G to a MAC nobody has, on
 *   gbp.policy-unapplied-forwarded  --fwd-vni; and G, A=0: the copies a
 *                              VTEP that forwards between its remotes
 *                              sends back to us must keep A as it came
 *                              (n/a when nothing is forwarded)
 *   udp.zero-checksum-ipv6     G over an IPv6 underlay with UDP checksum 0:
 *                              dropped, as RFC 6936 asks by default (info:
 *                              accepted, a tunnel that opted in)
 * probe_info[] holds each probe's source and the sentence it tests;
 * --junit/--sarif write the verdicts for CI (probe_ci.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "cli.h"
#include "pcap_writer.h"
#include "probe_ci.h"

#define MAX_FRAME 2048
#define MLD2_LISTENER_REPORT 143 /* RFC 3810; <netinet/icmp6.h> has MLDv1's only */
#define ETH_MIN 60 /* the shortest Ethernet frame, FCS not counted */
#define EXIT_FAIL 4
#define EXIT_NOANSWER 1
#define EXIT_USAGE 2

enum probe_id {
	P_PLAIN, P_GROUP, P_APPLIED, P_RSVD0, P_RSVD1, P_RSVDTAIL, P_IDNOG,
	P_LEARN, P_DONTLEARN, P_GZERO, P_ICLEAR, P_GPE, P_MARK, P_IGMP, P_MLD, P_FRAG,
	P_DLSTATIC, P_DLNEXTHOP, P_FWDA, P_FWDNOA, P_ZCSUM6, P__COUNT
};

#define DRAFT "draft-smith-vxlan-group-policy sec. 2.1"
/* the fragment probe's UDP payload: its VXLAN datagram (1490 bytes) is
 * over the 1472 a 1500-byte underlay carries unfragmented; it goes to the
 * discard port, so that what comes back (ICMP port unreachable, at most
 * 576 bytes) needs no fragments on any path */
#define FRAG_PAY 1440
#define FRAG_PAY_S "1440"
#define RFC "RFC 7348 sec. 5"
#define RFC_FLAGS "RFC 7348: \"The other 7 bits (designated 'R') are reserved fields and " \
	"MUST be set to zero on transmission and ignored on receipt.\""
#define RFC_RSVD "RFC 7348: \"Reserved fields (24 bits and 8 bits): MUST be set to zero " \
	"on transmission and ignored on receipt.\""
#define DRAFT_D "the draft: D \"indicates that the egress VTEP MUST NOT learn the source " \
	"address of the encapsulated frame.\""
#define DRAFT_A "the draft: the A bit \"indicates that the group policy has already been " \
	"applied to this packet. Policies MUST NOT be applied by devices when the A bit is set.\""

/* Each probe: what it sends, where its rule comes from, the sentence it tests. */
static const struct probe_info probe_info[P__COUNT] = {
	{ "vxlan.plain-as-group-0", "I only (RFC 7348 VXLAN)", DRAFT,
	  "a frame without G carries no group: the draft's header is RFC 7348's with bits "
	  "defined in its reserved fields, so a GBP VTEP still takes plain VXLAN" },
	{ "gbp.group-mapped", "G, ID --group", DRAFT,
	  "the draft: the Group Policy ID \"indicates the source TSI Group membership being "
	  "encapsulated by VXLAN\": the reply to it carries the same group" },
	{ "gbp.policy-applied-set", "G, ID --group, A=0", DRAFT,
	  "the draft: \"Devices that apply the Group policy MUST set the A bit to 1 after the "
	  "policy has been applied\" (info: only a VTEP that applies policy sets it)" },
	{ "rsvd.first-byte-ignored", "G + reserved flag bit 7 (0x0100)", RFC, RFC_FLAGS },
	{ "rsvd.second-byte-ignored", "G + flag bits 10, 11 (0x0030, VPP's E and S)", RFC,
	  RFC_RSVD },
	{ "rsvd.tail-byte-ignored", "G + reserved byte 0xff", RFC, RFC_RSVD },
	{ "rsvd.id-without-g-ignored", "I only, ID field set", RFC "; " DRAFT,
	  "without G the Group Policy ID field is RFC 7348's reserved field: " RFC_RSVD },
	{ "learn.control", "G, D=0, a new source MAC", DRAFT,
	  "the baseline of Don't Learn: a VTEP that learns sends the reply unicast" },
	{ "learn.dont-learn-honoured", "G, D=1, a new source MAC", DRAFT, DRAFT_D },
	{ "gbp.group-zero-accepted", "G, ID 0", DRAFT,
	  "G \"indicates the presence of the Group Policy ID\"; ID 0 is a value like any "
	  "other, the header is valid and the frame is delivered" },
	{ "vxlan.i-clear-dropped", "G, ID --group, I clear", RFC,
	  "RFC 7348: \"the I flag MUST be set to 1 for a valid VXLAN Network ID (VNI)\": "
	  "without it there is no valid VNI to deliver into (info: the VNI used anyway)" },
	{ "gpe.on-vxlan-port-ignored", "a VXLAN-GPE header (I, P, next protocol 3) on the "
	  "VXLAN port", RFC "; draft-ietf-nvo3-vxlan-gpe sec. 3.2",
	  "on a VXLAN port the P bit and the Next Protocol byte are RFC 7348's reserved "
	  "fields: " RFC_FLAGS },
	{ "mark.flags-mapped", "G, D=1, A=1, ID --group", DRAFT,
	  "what the receiver's policy sees: Linux maps ID to mark bits 0-15, D to bit 22, A "
	  "to bit 19 (mark 0x00480200 for ID 512), read in the receiver's netfilter" },
	{ "mcast.igmp-report-no-group", "nothing: watches the IGMP reports the VTEP sends",
	  DRAFT, "the Group Policy ID \"indicates the source TSI Group membership being "
	  "encapsulated\": a report of the VTEP's own stack has none, so it leaves without G "
	  "or with ID 0, never with an ID nobody gave it" },
	{ "mcast.mld-report-no-group", "nothing: watches the MLD reports the VTEP sends",
	  DRAFT, "as mcast.igmp-report-no-group, for IPv6's MLD reports" },
	{ "ip.outer-fragments-reassembled", "I only, " FRAG_PAY_S " bytes of UDP to the "
	  "target's discard port: a datagram over a 1500-byte underlay's MTU, sent in "
	  "fragments; the ICMP port unreachable back is short", "RFC 7348 sec. 4.3",
	  "RFC 7348: \"Intermediate routers may fragment encapsulated VXLAN packets due to the "
	  "larger frame size. The destination VTEP MAY silently discard such VXLAN "
	  "fragments.\" (pass: reassembled; info: discarded, as allowed)" },
	{ "learn.dont-learn-static", "G, D=1 from --local, source MAC --static-mac (pinned "
	  "to --flood-addr on the VTEP)", DRAFT, DRAFT_D " A MAC pinned at another remote "
	  "must stay there: the reply goes to the pinned remote (info: the frame dropped)" },
	{ "learn.dont-learn-nexthop", "G, D=1 from --local, source MAC --nexthop-mac (pinned "
	  "to --flood-addr through an FDB nexthop group on the VTEP)", DRAFT, DRAFT_D " A MAC "
	  "pinned through a nexthop group must stay there: the reply goes to the pinned "
	  "remote (info: the frame dropped)" },
	{ "gbp.policy-applied-forwarded", "G, A=1, ID --group on --fwd-vni, to a MAC the VTEP "
	  "does not know", DRAFT, DRAFT_A " A device that forwards the frame on must keep A: "
	  "without it the next device applies policy again (fail: A cleared or G gone)" },
	{ "gbp.policy-unapplied-forwarded", "G, A=0, ID --group on --fwd-vni, to a MAC the VTEP "
	  "does not know", DRAFT, "the draft: \"Devices that apply the Group policy MUST set the "
	  "A bit to 1 after the policy has been applied\": a forwarded copy keeps A=0 unless "
	  "the VTEP applied policy (info: A set, or the group gone)" },
	{ "udp.zero-checksum-ipv6", "G, ID --group over an IPv6 underlay, UDP checksum 0",
	  "RFC 6936 sec. 5; RFC 6935; RFC 7348 sec. 5", "RFC 6936: \"The default node receiver "
	  "behavior MUST discard all IPv6 packets carrying UDP packets with a zero checksum.\" "
	  "A tunnel may opt in (RFC 6935; Linux: udp6zerocsumrx): pass dropped, info accepted; "
	  "n/a when plain VXLAN over IPv6 got no reply" },
};

struct probe {
	struct vxgbp_hdr hdr;     /* header of everything this probe sends */
	uint8_t mac[6], ip[4];    /* its fake endpoint */
	int pinned;               /* P_DLSTATIC, P_DLNEXTHOP: mac is a MAC the
	                             VTEP pinned at FLOOD (--static-mac,
	                             --nexthop-mac) */
	unsigned sent;
	unsigned replies_a, replies_b; /* echo replies (P_FWDA, P_FWDNOA: the
	                             forwarded copies) at LOCAL / at FLOOD */
	unsigned arps;            /* ARP requests for ip we answered */
	struct vxgbp_hdr reply;   /* header of the first echo reply (P_IGMP,
	                             P_MLD: of the first report with a bogus
	                             ID, else of the first report) */
	unsigned bogus;           /* P_IGMP, P_MLD: reports with G and an ID */
	enum verdict v;
	char note[160];
};

/* An underlay address: IPv4 or IPv6, as the VTEP's address is. */
union uaddr {
	struct sockaddr sa;
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
};

struct ctx {
	int sa, sb;               /* sockets at LOCAL and FLOOD (-1: none) */
	union uaddr local, flood, vtep; /* one family, the VTEP's */
	uint32_t vni;
	uint16_t group;
	uint8_t target_ip[4], target_mac[6];
	int have_target_mac;
	uint32_t fwd_vni;         /* --fwd-vni: the forwarding probes' VNI */
	uint8_t fwd_mac[6];       /* their inner destination, known to nobody */
	int timeout_ms;
	int write_only;           /* -w: the probe frames to a capture, nothing sent */
	struct pcapw wp, rp;      /* -w probe frames, -W frames received */
	struct afile junit, sarif; /* --junit, --sarif (f NULL: not asked for) */
	int verbose;
	struct probe p[P__COUNT];
	unsigned long long rx, rx_bad;
	int arp_replies;          /* answers to our ARP for TARGET */
};

static const char *prog = "gbpprobe";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: gbpprobe [options] --local ADDR --target IP VTEP\n"
"       gbpprobe -w FILE [options] --local ADDR --target IP VTEP\n"
"Probe a VXLAN-GBP VTEP (IPv4 or IPv6 address VTEP: the underlay) black-box and\n"
"print a verdict per probe.  gbpprobe acts as a remote VTEP at --local with\n"
"fake endpoints; the VTEP under test must send the overlay's traffic (and\n"
"floods) to --local.\n"
"\n"
"  --local ADDR       our address (the VTEP's family); we listen on\n"
"                     ADDR:--listen-port\n"
"  --target IP        an inner IPv4 address behind the VTEP that answers ARP\n"
"                     and ping\n"
"  --target-mac MAC   TARGET's MAC (default: ask with ARP)\n"
"  --flood-addr ADDR  a second address of ours that is only in the VTEP's\n"
"                     flood list: tells flooded replies from unicast ones\n"
"                     (the Don't Learn probe needs it)\n"
"  --static-mac MAC   a MAC the VTEP has pinned (static FDB entry) to\n"
"                     --flood-addr: the static Don't Learn probe sends from it\n"
"  --nexthop-mac MAC  a MAC the VTEP has pinned to --flood-addr through an FDB\n"
"                     nexthop group: the nexthop Don't Learn probe sends from it\n"
"  --fwd-vni N        the VNI on which the VTEP forwards frames between its\n"
"                     remotes (default: --vni): the forwarding probes use it\n"
"  --inner-src IP     first fake endpoint address (default 198.51.100.100; probe\n"
"                     N uses IP+N), in TARGET's subnet\n"
"  --vni N            VNI (default 100)\n"
"  --group ID         group ID to send (default 0x200)\n"
"  --port N           the VTEP's VXLAN port (default 4789)\n"
"  --listen-port N    our VXLAN port (default 4789)\n"
"  --timeout MS       wait per probe (default 1000)\n"
"  -w FILE            write the probe frames to FILE (classic pcap) instead of\n"
"                     sending them (nothing is judged)\n"
"  -W FILE            write every frame received to FILE (as seen on our\n"
"                     port, outer headers rebuilt), e.g. for gbpdump --check\n"
"  --force            let -w / -W / --junit / --sarif replace an existing\n"
"                     file (without it, an existing FILE is kept and\n"
"                     gbpprobe exits with 2); a file appears only when\n"
"                     complete\n"
"  --json             one JSON object instead of the table\n"
"  --junit FILE       the verdicts as JUnit XML, one test case per probe (a\n"
"                     failed probe is a failure, n/a skipped), for CI\n"
"  --sarif FILE       the verdicts as SARIF 2.1.0, one result per probe; both\n"
"                     files appear only when the run completes (exit 0, 4 or\n"
"                     1), never over another output of the run, nor over an\n"
"                     existing file without --force; not with -w\n"
"  -v                 log what is sent and received to standard error\n"
"Probes only the addresses given.  Exit status: 0 no probe failed, 4 a probe\n"
"failed, 1 the VTEP never answered, 2 usage or I/O error.\n");
}

/* ---- pcap ---- */

/* One frame into -w or -W, stamped with the time now. */
static void pcap_add(struct pcapw *w, const uint8_t *b, size_t n)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	pcapw_write(w, ts.tv_sec, (uint32_t)ts.tv_nsec, b, (uint32_t)n, (uint32_t)n);
}

/* ---- frames ---- */

static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* An ARP request (op 1, broadcast, tha zero) or reply (op 2, to tha) as an
 * Ethernet frame padded to the 60-byte minimum.  Returns its length or <0. */
static int build_arp(uint8_t *b, size_t cap, uint16_t op, const uint8_t *sha,
		     const uint8_t *spa, const uint8_t *tha, const uint8_t *tpa)
{
	struct vxgbp_eth_spec e = { .n_vlan = 0 };
	int n;

	memcpy(e.dst, op == VXGBP_ARP_REQUEST ? bcast : tha, 6);
	memcpy(e.src, sha, 6);
	n = vxgbp_arp_build(b, cap, &e, op, sha, spa, op == VXGBP_ARP_REQUEST ? NULL : tha, tpa);
	if (n < 0 || n >= ETH_MIN || cap < ETH_MIN)
		return n;
	memset(b + n, 0, ETH_MIN - (size_t)n);
	return ETH_MIN;
}

static int is_fwd(int i)
{
	return i == P_FWDA || i == P_FWDNOA;
}

static int build_echo(struct ctx *c, const struct probe *p, uint16_t seq, uint8_t *b, size_t cap)
{
	struct vxgbp_eth_spec e = { .n_vlan = 0 };
	struct vxgbp_ip_spec ip = { .version = 4, .ttl = 64 };
	struct vxgbp_l4_spec l4 = { .proto = 1, .icmp_type = 8, .sport = 0x6770, .dport = seq };
	uint8_t pay[FRAG_PAY];
	size_t n = 32;

	if (p == &c->p[P_FRAG]) { /* UDP to the discard port: a short ICMP error back */
		l4 = (struct vxgbp_l4_spec){ .proto = 17, .sport = 0x6770, .dport = 9 };
		n = FRAG_PAY;
	}
	/* the forwarding probes: to a MAC nobody has, so that a VTEP that
	 * forwards floods the frame to its other remotes */
	memcpy(e.dst, is_fwd((int)(p - c->p)) ? c->fwd_mac : c->target_mac, 6);
	memcpy(e.src, p->mac, 6);
	memcpy(ip.src, p->ip, 4);
	memcpy(ip.dst, c->target_ip, 4);
	for (size_t i = 0; i < n; i++)
		pay[i] = (uint8_t)(0x20 + i % 0x5f);
	return vxgbp_frame_build(b, cap, &e, &ip, &l4, pay, n);
}

static socklen_t ua_len(const union uaddr *u)
{
	return u->sa.sa_family == AF_INET6 ? sizeof(u->v6) : sizeof(u->v4);
}

/* u's address and port into an outer header's spec. */
static void ua_spec(const union uaddr *u, uint8_t *addr, uint16_t *port)
{
	int v6 = u->sa.sa_family == AF_INET6;

	memcpy(addr, v6 ? (const void *)&u->v6.sin6_addr : (const void *)&u->v4.sin_addr,
	       v6 ? 16 : 4);
	*port = ntohs(v6 ? u->v6.sin6_port : u->v4.sin_port);
}

/* s (IPv4 or IPv6, as family says: AF_UNSPEC takes either) and port into
 * u.  0, or -1 when s is no address of that family. */
static int ua_parse(union uaddr *u, const char *s, int family, uint16_t port)
{
	memset(u, 0, sizeof(*u));
	if (family != AF_INET6 && inet_pton(AF_INET, s, &u->v4.sin_addr) == 1) {
		u->v4.sin_family = AF_INET;
		u->v4.sin_port = htons(port);
		return 0;
	}
	if (family != AF_INET && inet_pton(AF_INET6, s, &u->v6.sin6_addr) == 1) {
		u->v6.sin6_family = AF_INET6;
		u->v6.sin6_port = htons(port);
		return 0;
	}
	return -1;
}

/* The UDP payload to the VTEP from LOCAL; zero: with checksum 0, which
 * only IPv6 sockets are told (UDP_NO_CHECK6_TX; over IPv4 the kernel
 * fills it in as ever). */
static int send_udp(struct ctx *c, const uint8_t *b, size_t n, int zero)
{
	int on = 1, off = 0, rc;

	if (zero && setsockopt(c->sa, IPPROTO_UDP, UDP_NO_CHECK6_TX, &on, sizeof(on)) < 0) {
		fprintf(stderr, "%s: UDP_NO_CHECK6_TX: %s\n", prog, strerror(errno));
		return -1;
	}
	rc = (int)sendto(c->sa, b, n, 0, &c->vtep.sa, ua_len(&c->vtep));
	if (rc < 0)
		fprintf(stderr, "%s: sendto: %s\n", prog, strerror(errno));
	if (zero)
		setsockopt(c->sa, IPPROTO_UDP, UDP_NO_CHECK6_TX, &off, sizeof(off));
	return rc < 0 ? -1 : 0;
}

/* Encapsulate inner with h and send it to the VTEP (or write it with -w).
 * The whole frame is built by libvxgbp; the socket carries its UDP payload,
 * the last 8 + ilen bytes (the VXLAN header and the inner frame). */
static int send_vx(struct ctx *c, const struct vxgbp_hdr *h, const uint8_t *inner, size_t ilen,
		   uint16_t sport)
{
	static const uint8_t omac_s[6] = { 0x02, 0x00, 0x00, 0x00, 0xfe, 0x01 };
	static const uint8_t omac_d[6] = { 0x02, 0x00, 0x00, 0x00, 0xfe, 0x02 };
	struct vxgbp_eth_spec e = { .n_vlan = 0 };
	int v6 = c->vtep.sa.sa_family == AF_INET6, zero = h == &c->p[P_ZCSUM6].hdr;
	struct vxgbp_ip_spec ip = { .version = v6 ? 6 : 4, .ttl = 64, .dont_frag = 1 };
	struct vxgbp_l4_spec udp = { .proto = 17, .sport = sport,
				     .csum_mode = zero ? VXGBP_CSUM_ZERO : VXGBP_CSUM_COMPUTE };
	uint8_t frame[MAX_FRAME];
	size_t vxlen = VXGBP_HDR_LEN + ilen;
	uint16_t lport; /* the socket's; the header gets sport */
	int n;

	memcpy(e.src, omac_s, 6);
	memcpy(e.dst, omac_d, 6);
	ua_spec(&c->local, ip.src, &lport);
	ua_spec(&c->vtep, ip.dst, &udp.dport);
	if ((n = vxgbp_vxlan_build(frame, sizeof(frame), &e, &ip, &udp, h, inner, ilen)) < 0) {
		fprintf(stderr, "%s: cannot build a frame: %s\n", prog, vxgbp_strerror(n));
		return -1;
	}
	if (c->write_only) {
		pcap_add(&c->wp, frame, (size_t)n);
		return 0;
	}
	if (c->verbose)
		fprintf(stderr, "%s: send flags 0x%04x id %u vni %u rsvd %u (%zu bytes)\n", prog,
			h->flags, h->group, h->vni, h->rsvd, vxlen);
	return send_udp(c, frame + ((size_t)n - vxlen), vxlen, zero);
}

/* -W: the datagram with outer headers made up around it (from the sender
 * to us), so that it is a capture gbpdump can read and check. */
static void record_rx(struct ctx *c, int at, const uint8_t *b, size_t n,
		      const union uaddr *from, const struct vxgbp_hdr *h)
{
	struct vxgbp_eth_spec e = { .n_vlan = 0 };
	struct vxgbp_ip_spec ip = { .version = from->sa.sa_family == AF_INET6 ? 6 : 4, .ttl = 64 };
	struct vxgbp_l4_spec udp = { .proto = 17 };
	uint8_t frame[MAX_FRAME + 64];
	int len;

	ua_spec(from, ip.src, &udp.sport);
	ua_spec(at ? &c->flood : &c->local, ip.dst, &udp.dport);
	e.src[0] = e.dst[0] = 0x02;
	e.src[5] = 0x02;
	e.dst[5] = 0x01;
	len = vxgbp_vxlan_build(frame, sizeof(frame), &e, &ip, &udp, h, b + VXGBP_HDR_LEN,
				n - VXGBP_HDR_LEN);
	if (len > 0)
		pcap_add(&c->rp, frame, (size_t)len);
}

/* An ARP request for one of our endpoints: answer it (from LOCAL; for the
 * pinned MAC too: everything it sends comes from elsewhere than its pin). */
static void answer_arp(struct ctx *c, const struct vxgbp_pkt *pkt)
{
	const struct vxgbp_l3 *l3 = &pkt->inner.l3;
	uint8_t out[ETH_MIN];

	for (int i = 0; i < P__COUNT; i++) {
		struct probe *p = &c->p[i];
		int n;

		if (memcmp(l3->arp_tpa, p->ip, 4))
			continue;
		p->arps++;
		n = build_arp(out, sizeof(out), VXGBP_ARP_REPLY, p->mac, p->ip, pkt->inner.l2.src,
			      l3->arp_spa);
		if (n > 0)
			send_vx(c, &p->hdr, out, (size_t)n, (uint16_t)(50000 + i));
	}
}

/* A multicast report the VTEP sent (IGMP; MLDv1/v2, ICMPv6 131 and 143):
 * counted on P_IGMP / P_MLD, with G and a non-zero ID as bogus (nothing
 * gave it a group).  1 when pkt is one. */
static int on_report(struct ctx *c, const struct vxgbp_pkt *pkt)
{
	const struct vxgbp_l3 *l3 = &pkt->inner.l3;
	uint8_t t = pkt->inner.l4.icmp_type;
	struct probe *p;

	if (l3->version == 4 && l3->proto == IPPROTO_IGMP)
		p = &c->p[P_IGMP];
	else if (l3->version == 6 && l3->proto == IPPROTO_ICMPV6 &&
		 (pkt->have & VXGBP_HAVE_INNER_L4) &&
		 (t == MLD_LISTENER_REPORT || t == MLD2_LISTENER_REPORT))
		p = &c->p[P_MLD];
	else
		return 0;
	p->replies_a++;
	if ((pkt->vx.flags & VXGBP_F_G) && pkt->vx.group) {
		if (!p->bogus++)
			p->reply = pkt->vx;
	} else if (p->replies_a == 1) {
		p->reply = pkt->vx;
	}
	return 1;
}

/* A copy of a forwarding probe's frame the VTEP sent on (its source MAC,
 * our unknown destination, --fwd-vni): counted at LOCAL / FLOOD, the
 * first one's header kept.  1 when pkt is one. */
static int on_forwarded(struct ctx *c, int at, const struct vxgbp_pkt *pkt)
{
	if (pkt->vx.vni != c->fwd_vni || memcmp(pkt->inner.l2.dst, c->fwd_mac, 6))
		return 0;
	for (int i = 0; i < P__COUNT; i++) {
		struct probe *p = &c->p[i];

		if (!is_fwd(i) || memcmp(pkt->inner.l2.src, p->mac, 6))
			continue;
		if (!p->replies_a && !p->replies_b)
			p->reply = pkt->vx;
		if (at)
			p->replies_b++;
		else
			p->replies_a++;
		return 1;
	}
	return 0;
}

/* Handle one datagram from socket at (0: LOCAL, 1: FLOOD): a VXLAN UDP
 * payload, parsed as it is. */
static void on_rx(struct ctx *c, int at, const uint8_t *b, size_t n,
		  const union uaddr *from)
{
	const struct vxgbp_l3 *l3;
	struct vxgbp_pkt pkt = { .size = sizeof(pkt) };

	c->rx++;
	if (vxgbp_pkt_parse_vxlan(&pkt, b, n, n, NULL) < 0 ||
	    !(pkt.have & VXGBP_HAVE_INNER_L2)) {
		c->rx_bad++;
		return;
	}
	if (c->rp.f)
		record_rx(c, at, b, n, from, &pkt.vx);
	l3 = &pkt.inner.l3;
	if (c->verbose)
		fprintf(stderr, "%s: recv at %s flags 0x%04x id %u vni %u ethertype 0x%04x\n",
			prog, at ? "flood" : "local", pkt.vx.flags, pkt.vx.group, pkt.vx.vni,
			pkt.inner.l2.ethertype);
	if (pkt.inner.l2.ethertype == 0x0806 && l3->arp_spa && l3->arp_tpa) {
		if (l3->arp_op == 2 && !memcmp(l3->arp_spa, c->target_ip, 4) && !c->have_target_mac) {
			memcpy(c->target_mac, pkt.inner.l2.src, 6);
			c->have_target_mac = 1;
			c->arp_replies++;
		}
		if (l3->arp_op == 1 && !at) /* answer each request once, from LOCAL */
			answer_arp(c, &pkt);
		return;
	}
	if (on_report(c, &pkt) || on_forwarded(c, at, &pkt))
		return;
	if (l3->version != 4 || !l3->dst || !(pkt.have & VXGBP_HAVE_INNER_L4) ||
	    l3->proto != 1 || (pkt.inner.l4.icmp_type != 0 && pkt.inner.l4.icmp_type != 3))
		return;
	for (int i = 0; i < P__COUNT; i++) {
		struct probe *p = &c->p[i];

		/* echo replies; for P_FRAG, port unreachable */
		if (is_fwd(i) || memcmp(l3->dst, p->ip, 4) ||
		    (pkt.inner.l4.icmp_type == 3) != (i == P_FRAG))
			continue;
		if (!p->replies_a && !p->replies_b)
			p->reply = pkt.vx;
		if (at)
			p->replies_b++;
		else
			p->replies_a++;
	}
}

/* Receive for up to ms milliseconds, or until done(c, arg) says so. */
static void rx_until(struct ctx *c, int ms, int (*done)(struct ctx *, int), int arg)
{
	long end = now_ms() + ms;
	uint8_t buf[MAX_FRAME];

	for (;;) {
		struct pollfd pf[2] = { { c->sa, POLLIN, 0 }, { c->sb, POLLIN, 0 } };
		long left = end - now_ms();
		int r;

		if ((done && done(c, arg)) || left <= 0 || c->write_only)
			return;
		r = poll(pf, c->sb >= 0 ? 2 : 1, (int)left);
		if (r < 0 && errno != EINTR)
			return;
		for (int k = 0; r > 0 && k < 2; k++) {
			union uaddr from;
			socklen_t fl = sizeof(from);
			ssize_t n;

			if (!(pf[k].revents & POLLIN))
				continue;
			n = recvfrom(pf[k].fd, buf, sizeof(buf), MSG_DONTWAIT,
				     &from.sa, &fl);
			if (n >= VXGBP_HDR_LEN)
				on_rx(c, k, buf, (size_t)n, &from);
		}
	}
}

static int have_mac(struct ctx *c, int arg)
{
	(void)arg;
	return c->have_target_mac;
}

static int have_reply(struct ctx *c, int i)
{
	return c->p[i].replies_a + c->p[i].replies_b > 0;
}

/* Send probe i's echo request; on no answer try once more (the first one
 * may have waited for ARP).  Then linger a little to catch flood copies. */
static void run_echo(struct ctx *c, int i)
{
	struct probe *p = &c->p[i];
	uint8_t inner[MAX_FRAME];

	for (uint16_t seq = 1; seq <= 2 && !have_reply(c, i); seq++) {
		int n = build_echo(c, p, seq, inner, sizeof(inner));

		if (n < 0 || send_vx(c, &p->hdr, inner, (size_t)n, (uint16_t)(50000 + i)))
			return;
		p->sent++;
		rx_until(c, c->timeout_ms, have_reply, i);
	}
	if (have_reply(c, i) && c->sb >= 0)
		rx_until(c, c->timeout_ms / 4 + 50, NULL, 0);
}

/* The probes judged on whether a reply came back alone, beyond the
 * reserved-bit ones: G with ID 0 must be taken, a frame without I dropped;
 * the mark probe is judged at the receiver. */
static void judge_more(struct ctx *c, int i, int plain_ok)
{
	struct probe *p = &c->p[i];
	int got = have_reply(c, i);

	if (!plain_ok) {
		p->v = V_NA;
		snprintf(p->note, sizeof(p->note), "no baseline reply");
		return;
	}
	switch (i) {
	case P_GZERO:
		p->v = got ? V_PASS : V_FAIL;
		snprintf(p->note, sizeof(p->note), got ? "G=1 ID 0: accepted (reply %s G)"
			 : "G=1 ID 0: dropped (no reply)", p->reply.flags & VXGBP_F_G ? "with"
			 : "without");
		break;
	case P_FRAG:
		p->v = got ? V_PASS : V_INFO;
		snprintf(p->note, sizeof(p->note), "a %d-byte datagram in fragments: %s",
			 VXGBP_HDR_LEN + 14 + 28 + FRAG_PAY, got ? "reassembled (port unreachable "
			 "back)" : "discarded (no reply)");
		break;
	case P_ICLEAR:
		p->v = got ? V_INFO : V_PASS;
		snprintf(p->note, sizeof(p->note), "flags 0x%04x (no I): %s", p->hdr.flags, got
			 ? "accepted (the VNI used anyway)" : "dropped (no reply)");
		break;
	default: /* P_MARK */
		p->v = V_NA;
		snprintf(p->note, sizeof(p->note), "flags 0x%04x id %u: %s; the mark is read at "
			 "the receiver", p->hdr.flags, p->hdr.group, got ? "accepted" : "dropped");
		break;
	}
}

/* The learning probes: unicast or flooded replies (--flood-addr). */
static void judge_learn(struct ctx *c, int i, int plain_ok)
{
	struct probe *p = c->p;
	int got = have_reply(c, i);

	if (c->sb < 0) {
		p[i].v = V_NA;
		snprintf(p[i].note, sizeof(p[i].note), "needs --flood-addr");
	} else if (!got) {
		p[i].v = plain_ok ? V_FAIL : V_NA;
		snprintf(p[i].note, sizeof(p[i].note), "no reply");
	} else {
		int flooded = p[i].replies_b > 0;

		if (i == P_LEARN)
			p[i].v = flooded ? V_INFO : V_PASS;
		else if (have_reply(c, P_LEARN) && p[P_LEARN].replies_b)
			p[i].v = V_NA; /* no learning at all: cannot tell */
		else
			p[i].v = flooded ? V_PASS : V_FAIL;
		snprintf(p[i].note, sizeof(p[i].note),
			 "D=%d: reply %s (%u at local, %u at flood address)",
			 (p[i].hdr.flags & VXGBP_F_D) != 0,
			 flooded ? "flooded: MAC not learned" : "unicast: MAC learned",
			 p[i].replies_a, p[i].replies_b);
	}
}

/* D=1 from a MAC the VTEP has pinned at FLOOD (a static entry, or a
 * nexthop group), sent from LOCAL: a reply to FLOOD only says the pin held
 * (not learned), one to LOCAL only that the MAC moved (learned); none,
 * that the VTEP dropped the frame. */
static void judge_pinned(struct ctx *c, int i, int plain_ok)
{
	struct probe *p = &c->p[i];
	unsigned a = p->replies_a, b = p->replies_b;

	if (!p->pinned || c->sb < 0) {
		p->v = V_NA;
		snprintf(p->note, sizeof(p->note), "needs --%s-mac and --flood-addr",
			 i == P_DLSTATIC ? "static" : "nexthop");
		return;
	}
	if (!plain_ok)
		p->v = V_NA;
	else if (!a && !b)
		p->v = V_INFO;
	else
		p->v = a && !b ? V_FAIL : b && !a ? V_PASS : V_INFO;
	snprintf(p->note, sizeof(p->note), "D=1 from the %s MAC: %s (%u at local, %u at "
		 "flood address)", i == P_DLSTATIC ? "pinned" : "nexthop-pinned",
		 !a && !b ? "dropped (no reply)" : a && !b
		 ? "reply unicast to the sender: the MAC moved" : b && !a
		 ? "reply to the pinned remote: not learned" : "reply flooded", a, b);
}

/* The copies of a frame sent to a MAC the VTEP does not know, which it
 * forwarded to its remotes: A=1 must stay set (the draft's A sentence);
 * A=0 stays clear unless the VTEP applied policy, which a black box cannot
 * see (info).  Nothing forwarded: n/a. */
static void judge_fwd(struct ctx *c, int i)
{
	struct probe *p = &c->p[i];
	const struct vxgbp_hdr *r = &p->reply;
	int sent_a = i == P_FWDA, g = (r->flags & VXGBP_F_G) != 0, a = (r->flags & VXGBP_F_A) != 0;

	if (!have_reply(c, i)) {
		p->v = V_NA;
		snprintf(p->note, sizeof(p->note), "G=1 A=%d ID %u on VNI %u: not forwarded (no "
			 "copy at local or flood address)", sent_a, p->hdr.group, c->fwd_vni);
		return;
	}
	if (sent_a)
		p->v = g && a ? V_PASS : V_FAIL;
	else
		p->v = g && !a ? V_PASS : V_INFO;
	if (g)
		snprintf(p->note, sizeof(p->note), "sent A=%d ID %u: forwarded A=%d ID %u (%u at "
			 "local, %u at flood address)", sent_a, p->hdr.group, a, r->group,
			 p->replies_a, p->replies_b);
	else
		snprintf(p->note, sizeof(p->note), "sent A=%d ID %u: forwarded without G (%u at "
			 "local, %u at flood address)", sent_a, p->hdr.group, p->replies_a,
			 p->replies_b);
}

/* G over IPv6 with UDP checksum 0: dropped is the default RFC 6936 asks
 * of a receiver, accepted a tunnel that opted in.  Judged only when plain
 * VXLAN over the same IPv6 underlay (checksum set) got a reply. */
static void judge_zcsum(struct ctx *c, int plain_ok)
{
	struct probe *p = &c->p[P_ZCSUM6];
	int got = have_reply(c, P_ZCSUM6);

	if (c->vtep.sa.sa_family != AF_INET6) {
		p->v = V_NA;
		snprintf(p->note, sizeof(p->note), "IPv4 underlay: needs the VTEP's IPv6 address");
	} else if (!plain_ok) {
		p->v = V_NA;
		snprintf(p->note, sizeof(p->note), "no baseline reply over IPv6");
	} else {
		p->v = got ? V_INFO : V_PASS;
		snprintf(p->note, sizeof(p->note), "G=1 ID %u over IPv6, UDP checksum 0: %s",
			 p->hdr.group, got ? "accepted (the tunnel takes zero checksums)"
			 : "dropped (no reply)");
	}
}

/* The reports the VTEP sent during the run: any with a group fails. */
static void judge_report(struct ctx *c, int i)
{
	struct probe *p = &c->p[i];
	const char *what = i == P_IGMP ? "IGMP" : "MLD";

	if (!p->replies_a) {
		p->v = V_NA;
		snprintf(p->note, sizeof(p->note), "no %s report seen", what);
		return;
	}
	p->v = p->bogus ? V_FAIL : V_PASS;
	snprintf(p->note, sizeof(p->note), "%u %s reports, %u with G and an ID (flags 0x%04x "
		 "id %u)", p->replies_a, what, p->bogus, p->reply.flags, p->reply.group);
}

/* gbp.group-mapped and gbp.policy-applied-set, both from the reply to
 * the G=1 A=0 request. */
static void judge_group(struct ctx *c, int i)
{
	struct probe *p = &c->p[i];
	const struct vxgbp_hdr *r = &c->p[P_GROUP].reply;

	if (!have_reply(c, P_GROUP)) {
		p->v = i == P_GROUP ? V_FAIL : V_NA;
		snprintf(p->note, sizeof(p->note), "no reply to G=1 ID %u", c->group);
	} else if (!(r->flags & VXGBP_F_G)) {
		p->v = V_INFO;
		snprintf(p->note, sizeof(p->note),
			 "accepted; reply without G (the VTEP does not reflect the group)");
	} else if (i == P_GROUP) {
		p->v = r->group == c->group ? V_PASS : V_FAIL;
		snprintf(p->note, sizeof(p->note), "sent ID %u, reply ID %u", c->group, r->group);
	} else {
		p->v = (r->flags & VXGBP_F_A) ? V_PASS : V_INFO;
		snprintf(p->note, sizeof(p->note), "reply A=%d (sent A=0)",
			 (r->flags & VXGBP_F_A) != 0);
	}
}

static void judge(struct ctx *c)
{
	struct probe *p = c->p;
	int plain_ok = have_reply(c, P_PLAIN) || have_reply(c, P_GROUP);

	for (int i = 0; i < P__COUNT; i++) {
		int got = have_reply(c, i);

		if (c->write_only || !c->have_target_mac) {
			p[i].v = V_NA;
			snprintf(p[i].note, sizeof(p[i].note), c->write_only ? "written to the pcap, not sent"
				 : "not run: no ARP answer for the target");
			continue;
		}
		switch (i) {
		case P_PLAIN:
			p[i].v = got ? V_PASS : V_FAIL;
			snprintf(p[i].note, sizeof(p[i].note), got ? "reply %s"
				 : "no reply to plain VXLAN", p[i].reply.flags & VXGBP_F_G
				 ? "with G" : "without G");
			break;
		case P_GROUP:
		case P_APPLIED:
			judge_group(c, i);
			break;
		case P_RSVD0:
		case P_RSVD1:
		case P_RSVDTAIL:
		case P_IDNOG:
		case P_GPE:
			p[i].v = !plain_ok ? V_NA : got ? V_PASS : V_FAIL;
			snprintf(p[i].note, sizeof(p[i].note), "flags 0x%04x id %u rsvd 0x%02x: %s",
				 p[i].hdr.flags, p[i].hdr.group, p[i].hdr.rsvd,
				 !plain_ok ? "no baseline reply" : got ? "ignored (reply)"
				 : "dropped (no reply)");
			break;
		case P_GZERO:
		case P_ICLEAR:
		case P_MARK:
		case P_FRAG:
			judge_more(c, i, plain_ok);
			break;
		case P_LEARN:
		case P_DONTLEARN:
			judge_learn(c, i, plain_ok);
			break;
		case P_DLSTATIC:
		case P_DLNEXTHOP:
			judge_pinned(c, i, plain_ok);
			break;
		case P_FWDA:
		case P_FWDNOA:
			judge_fwd(c, i);
			break;
		case P_ZCSUM6:
			judge_zcsum(c, plain_ok);
			break;
		case P_IGMP:
		case P_MLD:
			judge_report(c, i);
			break;
		}
	}
}

static void print_report(struct ctx *c, int json, const char *vtep)
{
	unsigned n[4] = { 0, 0, 0, 0 };
	char tgt[16];

	inet_ntop(AF_INET, c->target_ip, tgt, sizeof(tgt));
	for (int i = 0; i < P__COUNT; i++)
		n[c->p[i].v]++;
	if (json) {
		printf("{\"vtep\":\"%s\",\"target\":\"%s\",\"vni\":%u,\"group\":%u,"
		       "\"target_mac_by_arp\":%s,\"received\":%llu,\"probes\":[",
		       vtep, tgt, c->vni, c->group, c->arp_replies ? "true" : "false", c->rx);
		for (int i = 0; i < P__COUNT; i++) {
			const struct probe *p = &c->p[i];

			printf("%s{\"id\":\"%s\",\"verdict\":\"%s\",\"sent\":%u,\"replies\":%u,"
			       "\"flooded\":%u,\"reply_flags\":%u,\"reply_group\":%u,\"note\":\"%s\"}",
			       i ? "," : "", probe_info[i].id, probe_verdict_name(p->v), p->sent,
			       p->replies_a, p->replies_b, p->reply.flags, p->reply.group, p->note);
		}
		printf("],\"summary\":{\"pass\":%u,\"fail\":%u,\"info\":%u,\"n/a\":%u}}\n",
		       n[V_PASS], n[V_FAIL], n[V_INFO], n[V_NA]);
		return;
	}
	printf("gbpprobe: VTEP %s, target %s, VNI %u, group %u\n", vtep, tgt, c->vni, c->group);
	printf("%-27s %-7s %s\n", "PROBE", "VERDICT", "OBSERVED");
	for (int i = 0; i < P__COUNT; i++)
		printf("%-27s %-7s %s\n", probe_info[i].id, probe_verdict_name(c->p[i].v),
		       c->p[i].note);
	printf("summary: %u pass, %u fail, %u info, %u n/a\n", n[V_PASS], n[V_FAIL], n[V_INFO],
	       n[V_NA]);
}

static int parse_num(const char *s, unsigned long max, unsigned long *v)
{
	unsigned long long x;

	if (cli_parse_num(s, max, &x))
		return -1;
	*v = (unsigned long)x;
	return 0;
}

static int open_sock(const union uaddr *a)
{
	int s = socket(a->sa.sa_family, SOCK_DGRAM, 0), one = 1, dont = IP_PMTUDISC_DONT;

	if (s < 0)
		return -1;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* DF clear (IPv4), or fragmented at the source as the path needs
	 * (IPv6): the fragment probe's datagram goes out in fragments */
	if (a->sa.sa_family == AF_INET6) {
		setsockopt(s, IPPROTO_IPV6, IPV6_MTU_DISCOVER, &dont, sizeof(dont));
		/* hear VTEPs that send UDP checksum 0 over IPv6 (RFC 6935
		 * lets a tunnel; Open vSwitch does by default): we listen as a
		 * tunnel that opted in */
		setsockopt(s, IPPROTO_UDP, UDP_NO_CHECK6_RX, &one, sizeof(one));
	} else {
		setsockopt(s, IPPROTO_IP, IP_MTU_DISCOVER, &dont, sizeof(dont));
	}
	if (bind(s, &a->sa, ua_len(a)) < 0) {
		close(s);
		return -1;
	}
	return s;
}

static void probes_init(struct ctx *c, const uint8_t base_ip[4])
{
	for (int i = 0; i < P__COUNT; i++) {
		struct probe *p = &c->p[i];
		uint32_t a = ((uint32_t)base_ip[0] << 24 | (uint32_t)base_ip[1] << 16 |
			      (uint32_t)base_ip[2] << 8 | base_ip[3]) + (uint32_t)i + 1;

		p->ip[0] = (uint8_t)(a >> 24);
		p->ip[1] = (uint8_t)(a >> 16);
		p->ip[2] = (uint8_t)(a >> 8);
		p->ip[3] = (uint8_t)a;
		/* locally administered, one per probe and run; a pinned one
		 * came with its option */
		if (!p->pinned) {
			p->mac[0] = 0x02;
			p->mac[1] = 0x67;
			p->mac[2] = 0x62;
			p->mac[3] = (uint8_t)(getpid() >> 8);
			p->mac[4] = (uint8_t)getpid();
			p->mac[5] = (uint8_t)(i + 1);
		}
		vxgbp_hdr_init(&p->hdr, c->vni, VXGBP_F_G, c->group);
	}
	vxgbp_hdr_init(&c->p[P_PLAIN].hdr, c->vni, 0, 0);
	c->p[P_RSVD0].hdr.flags |= 0x0100;
	c->p[P_RSVD1].hdr.flags |= 0x0030;
	c->p[P_RSVDTAIL].hdr.rsvd = 0xff;
	vxgbp_hdr_init(&c->p[P_IDNOG].hdr, c->vni, 0, 0);
	c->p[P_IDNOG].hdr.group = c->group;
	c->p[P_DONTLEARN].hdr.flags |= VXGBP_F_D;
	c->p[P_GZERO].hdr.group = 0;
	c->p[P_ICLEAR].hdr.flags &= (uint16_t)~VXGBP_F_I;
	vxgbp_hdr_init(&c->p[P_FRAG].hdr, c->vni, 0, 0);
	/* VXLAN-GPE: I and P, version 0; Next Protocol Ethernet in the last
	 * byte of the first word, which GBP reads as the group's low byte */
	vxgbp_hdr_init(&c->p[P_GPE].hdr, c->vni, 0, 0);
	c->p[P_GPE].hdr.flags |= VXGBP_GPE_F_P;
	c->p[P_GPE].hdr.group = VXGBP_GPE_NP_ETHERNET;
	c->p[P_MARK].hdr.flags |= VXGBP_F_D | VXGBP_F_A;
	c->p[P_DLSTATIC].hdr.flags |= VXGBP_F_D;
	c->p[P_DLNEXTHOP].hdr.flags |= VXGBP_F_D;
	c->p[P_FWDA].hdr.flags |= VXGBP_F_A;
	c->p[P_FWDA].hdr.vni = c->p[P_FWDNOA].hdr.vni = c->fwd_vni;
	memcpy(c->fwd_mac, c->p[P_FWDA].mac, 6);
	c->fwd_mac[2] = 0x66; /* not one of ours: 02:67:66:... */
}

enum { O_LOCAL = 256, O_TARGET, O_TMAC, O_FLOOD, O_ISRC, O_VNI, O_GROUP, O_PORT, O_LPORT,
       O_TIMEOUT, O_JSON, O_VERSION, O_FORCE, O_JUNIT, O_SARIF, O_SMAC, O_NHMAC, O_FWDVNI };

/* The command line beyond what goes straight into struct ctx. */
struct args {
	const char *local, *target, *flood, *wfile, *rfile, *isrc, *vtep, *junit, *sarif;
	unsigned long port, lport;
	int json, force;
	int fwd_vni_set;          /* --fwd-vni given (else it is --vni) */
};

/* A number option into *out; 0 or -1 (bad, or 0 where 0 is not allowed). */
static int num_opt(const char *arg, unsigned long max, int zero_ok, unsigned long *out)
{
	return parse_num(arg, max, out) || (!zero_ok && !*out) ? -1 : 0;
}

/* One option with a value; 0 or -1 (a bad value). */
static int set_opt(struct ctx *c, struct args *a, int opt, const char *arg)
{
	unsigned long v;

	switch (opt) {
	case O_LOCAL: a->local = arg; return 0;
	case O_TARGET: a->target = arg; return 0;
	case O_FLOOD: a->flood = arg; return 0;
	case O_ISRC: a->isrc = arg; return 0;
	case 'w': a->wfile = arg; return 0;
	case 'W': a->rfile = arg; return 0;
	case O_JUNIT: a->junit = arg; return 0;
	case O_SARIF: a->sarif = arg; return 0;
	case O_TMAC:
		c->have_target_mac = 1;
		return cli_parse_mac(arg, c->target_mac);
	case O_SMAC:
	case O_NHMAC: {
		struct probe *p = &c->p[opt == O_SMAC ? P_DLSTATIC : P_DLNEXTHOP];

		p->pinned = 1;
		return cli_parse_mac(arg, p->mac);
	}
	case O_FWDVNI:
		if (num_opt(arg, VXGBP_VNI_MAX, 1, &v))
			return -1;
		c->fwd_vni = (uint32_t)v;
		a->fwd_vni_set = 1;
		return 0;
	case O_PORT:
		return num_opt(arg, 0xffff, 0, &a->port);
	case O_LPORT:
		return num_opt(arg, 0xffff, 0, &a->lport);
	case O_VNI:
		if (num_opt(arg, VXGBP_VNI_MAX, 1, &v))
			return -1;
		c->vni = (uint32_t)v;
		return 0;
	case O_GROUP:
		if (num_opt(arg, 0xffff, 1, &v))
			return -1;
		c->group = (uint16_t)v;
		return 0;
	case O_TIMEOUT:
		if (num_opt(arg, 60000, 0, &v))
			return -1;
		c->timeout_ms = (int)v;
		return 0;
	default:
		return -1;
	}
}

/* --junit and --sarif: not with -w (nothing is judged), not "-" (the
 * report is on standard output), not the name of another output. */
static int ci_names_ok(const struct args *a)
{
	const char *f[2] = { a->junit, a->sarif };

	if (a->wfile && (f[0] || f[1])) {
		fprintf(stderr, "%s: --junit and --sarif judge a run; -w sends nothing\n", prog);
		return 0;
	}
	for (int i = 0; i < 2; i++) {
		if (!f[i])
			continue;
		if (!strcmp(f[i], "-") || (a->rfile && !strcmp(f[i], a->rfile)) ||
		    (i && f[0] && !strcmp(f[0], f[1]))) {
			fprintf(stderr, "%s: %s: not a name for --%s (standard output has the "
				"report; one file per output)\n", prog, f[i], i ? "sarif" : "junit");
			return 0;
		}
	}
	return 1;
}

/* -1: go on; else the exit status. */
static int parse_args(int argc, char **argv, struct ctx *c, struct args *a)
{
	static const struct option lopts[] = {
		{ "local", required_argument, NULL, O_LOCAL },
		{ "target", required_argument, NULL, O_TARGET },
		{ "target-mac", required_argument, NULL, O_TMAC },
		{ "static-mac", required_argument, NULL, O_SMAC },
		{ "nexthop-mac", required_argument, NULL, O_NHMAC },
		{ "fwd-vni", required_argument, NULL, O_FWDVNI },
		{ "flood-addr", required_argument, NULL, O_FLOOD },
		{ "inner-src", required_argument, NULL, O_ISRC },
		{ "vni", required_argument, NULL, O_VNI },
		{ "group", required_argument, NULL, O_GROUP },
		{ "port", required_argument, NULL, O_PORT },
		{ "listen-port", required_argument, NULL, O_LPORT },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "json", no_argument, NULL, O_JSON },
		{ "force", no_argument, NULL, O_FORCE },
		{ "junit", required_argument, NULL, O_JUNIT },
		{ "sarif", required_argument, NULL, O_SARIF },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, O_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "w:W:vh", lopts, NULL)) != -1) {
		switch (opt) {
		case O_JSON: a->json = 1; break;
		case O_FORCE: a->force = 1; break;
		case 'v': c->verbose++; break;
		case 'h':
			usage(stdout);
			return 0;
		case O_VERSION:
			printf("gbpprobe (vxgbp) %s\n", VXGBP_VERSION);
			return 0;
		case '?':
			usage(stderr);
			return EXIT_USAGE;
		default:
			if (set_opt(c, a, opt, optarg) == 0)
				break;
			fprintf(stderr, "%s: bad option value '%s' (gbpprobe --help)\n", prog,
				optarg);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1 || !a->local || !a->target) {
		usage(stderr);
		return EXIT_USAGE;
	}
	a->vtep = argv[optind];
	return ci_names_ok(a) ? -1 : EXIT_USAGE;
}

/* --junit and --sarif: checked and created (as temporary files) before
 * anything is sent, never over -W or each other.  0 or -1 (said why). */
static int open_ci(struct ctx *c, const struct args *a)
{
	char errbuf[AFILE_ERRBUF_SIZE];
	const char *others[4] = { NULL };
	int n = 0;

	if (a->rfile)
		others[n++] = a->rfile;
	if (a->sarif)
		others[n++] = a->sarif;
	if (a->junit && probe_ci_open(&c->junit, a->junit, others, a->force, errbuf) < 0)
		goto bad;
	if (a->sarif) {
		others[n - 1] = a->junit;
		if (probe_ci_open(&c->sarif, a->sarif, others, a->force, errbuf) < 0)
			goto bad;
	}
	return 0;
bad:
	fprintf(stderr, "%s: %s\n", prog, errbuf);
	return -1;
}

/* Addresses, probes, and the capture or the sockets.  0 or an exit status. */
static int setup(struct ctx *c, const struct args *a)
{
	struct pcapw_opts po = { .flags = a->force ? PCAPW_FORCE : 0,
				 .linktype = VXGBP_LINK_ETHERNET };
	char errbuf[PCAPW_ERRBUF_SIZE];
	uint8_t base_ip[4];

	if (ua_parse(&c->vtep, a->vtep, AF_UNSPEC, (uint16_t)a->port) ||
	    ua_parse(&c->local, a->local, c->vtep.sa.sa_family, (uint16_t)a->lport) ||
	    (a->flood && ua_parse(&c->flood, a->flood, c->vtep.sa.sa_family, (uint16_t)a->lport))) {
		fprintf(stderr, "%s: VTEP, --local and --flood-addr are addresses of one family "
			"(IPv4 or IPv6)\n", prog);
		return EXIT_USAGE;
	}
	if (inet_pton(AF_INET, a->target, c->target_ip) != 1 ||
	    inet_pton(AF_INET, a->isrc, base_ip) != 1) {
		fprintf(stderr, "%s: --target and --inner-src are IPv4 addresses\n", prog);
		return EXIT_USAGE;
	}
	if (!a->fwd_vni_set)
		c->fwd_vni = c->vni;
	probes_init(c, base_ip);
	if (a->wfile) {
		c->write_only = 1;
		if (!c->have_target_mac)
			memcpy(c->target_mac, bcast, 6);
		if (pcapw_open(&c->wp, a->wfile, &po, errbuf) < 0)
			goto bad_file;
		return 0;
	}
	if (open_ci(c, a))
		return EXIT_USAGE;
	if ((c->sa = open_sock(&c->local)) < 0 ||
	    (a->flood && (c->sb = open_sock(&c->flood)) < 0)) {
		fprintf(stderr, "%s: cannot listen on %s:%lu: %s\n", prog,
			c->sa < 0 ? a->local : a->flood, a->lport, strerror(errno));
		return EXIT_USAGE;
	}
	if (a->rfile && pcapw_open(&c->rp, a->rfile, &po, errbuf) < 0)
		goto bad_file;
	return 0;
bad_file:
	fprintf(stderr, "%s: %s\n", prog, errbuf);
	return EXIT_USAGE;
}

/* Does probe i send frames of its own in this run?  Not gbp.policy-applied-set
 * (judged from gbp.group-mapped's reply), not the reports (watched), not a
 * pinned-MAC probe without its MAC and --flood-addr, not the zero-checksum
 * probe over an IPv4 underlay. */
static int probe_sends(const struct ctx *c, int i)
{
	switch (i) {
	case P_APPLIED:
	case P_IGMP:
	case P_MLD:
		return 0;
	case P_DLSTATIC:
	case P_DLNEXTHOP:
		return c->p[i].pinned && c->sb >= 0;
	case P_ZCSUM6:
		return c->vtep.sa.sa_family == AF_INET6;
	default:
		return 1;
	}
}

/* TARGET's MAC (ARP from the plain-VXLAN probe's endpoint), then every
 * probe.  With -w, the frames are written instead.  0, or -1 when a frame
 * could not be built or sent. */
static int run_probes(struct ctx *c, const struct args *a)
{
	uint8_t arp[ETH_MIN];
	int n = build_arp(arp, sizeof(arp), VXGBP_ARP_REQUEST, c->p[P_PLAIN].mac,
			  c->p[P_PLAIN].ip, NULL, c->target_ip);

	if (n < 0) {
		fprintf(stderr, "%s: cannot build an ARP request: %s\n", prog, vxgbp_strerror(n));
		return -1;
	}
	for (int k = 0; k < 3 && !c->have_target_mac && !c->write_only; k++) {
		if (send_vx(c, &c->p[P_PLAIN].hdr, arp, (size_t)n, 50000))
			return -1;
		rx_until(c, c->timeout_ms, have_mac, 0);
	}
	if (c->write_only)
		send_vx(c, &c->p[P_PLAIN].hdr, arp, (size_t)n, 50000);
	if (!c->have_target_mac && !c->write_only) {
		fprintf(stderr, "%s: no ARP answer for %s from %s: is --local in the VTEP's "
			"flood list?\n", prog, a->target, a->vtep);
		return 0;
	}
	for (int i = 0; i < P__COUNT; i++)
		if (probe_sends(c, i))
			run_echo(c, i);
	return 0;
}

/* --junit / --sarif: the verdicts and the exit status rc, written and
 * moved into place.  rc, or EXIT_USAGE when a file could not be written. */
static int write_ci(struct ctx *c, const struct args *a, int rc)
{
	struct probe_result r[P__COUNT];
	struct probe_ci_run run = { .vtep = a->vtep, .target = a->target, .vni = c->vni,
				    .group = c->group, .received = c->rx, .exit_code = rc,
				    .r = r, .n = P__COUNT };
	char errbuf[AFILE_ERRBUF_SIZE];

	for (int i = 0; i < P__COUNT; i++) {
		const struct probe *p = &c->p[i];

		r[i] = (struct probe_result){ &probe_info[i], p->v, p->note, p->sent,
					      p->replies_a, p->replies_b, p->reply.flags,
					      p->reply.group };
	}
	if ((c->junit.f && probe_junit_write(&c->junit, &run, errbuf) < 0) ||
	    (c->sarif.f && probe_sarif_write(&c->sarif, &run, errbuf) < 0)) {
		fprintf(stderr, "%s: %s\n", prog, errbuf);
		return EXIT_USAGE;
	}
	return rc;
}

/* The verdicts, printed; the exit status they make. */
static int report(struct ctx *c, const struct args *a)
{
	int rc = 0;

	judge(c);
	print_report(c, a->json, a->vtep);
	if (!c->write_only && !c->rx)
		rc = EXIT_NOANSWER;
	for (int i = 0; i < P__COUNT && !rc; i++)
		if (c->p[i].v == V_FAIL)
			rc = EXIT_FAIL;
	return write_ci(c, a, rc);
}

/* Close the captures (kept unless rc is a usage or I/O error) and sockets. */
static int teardown(struct ctx *c, int rc)
{
	char errbuf[PCAPW_ERRBUF_SIZE];
	int keep = rc != EXIT_USAGE;

	/* a CI file still open was not written: the run failed */
	afile_close(&c->junit, 0, errbuf);
	afile_close(&c->sarif, 0, errbuf);
	if (pcapw_close(&c->wp, keep, errbuf) < 0 || pcapw_close(&c->rp, keep, errbuf) < 0) {
		fprintf(stderr, "%s: %s\n", prog, errbuf);
		rc = EXIT_USAGE;
	}
	if (c->sa >= 0)
		close(c->sa);
	if (c->sb >= 0)
		close(c->sb);
	return rc;
}

int main(int argc, char **argv)
{
	struct ctx *c = calloc(1, sizeof(*c));
	struct args a = { .isrc = "198.51.100.100", .port = VXGBP_PORT_IANA,
			  .lport = VXGBP_PORT_IANA };
	int rc;

	if (!c) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_USAGE;
	}
	c->sa = c->sb = -1;
	c->vni = 100;
	c->group = 0x200;
	c->timeout_ms = 1000;
	if ((rc = parse_args(argc, argv, c, &a)) >= 0) {
		free(c);
		return rc;
	}
	rc = setup(c, &a);
	if (!rc && run_probes(c, &a))
		rc = EXIT_USAGE;
	if (!rc)
		rc = report(c, &a);
	rc = teardown(c, rc);
	free(c);
	return rc;
}
