// SPDX-License-Identifier: BSD-2-Clause
/*
 * gbpgen - write a capture of VXLAN(-GBP) frames described on the command
 * line or in a text file, built with libvxgbp's builder.  Every header field
 * can be set, reserved bits too, so it makes conforming frames and broken
 * ones alike (the fixtures, probes, benchmarks).
 *
 *   gbpgen -w out.pcap 'vni=100 gbp=0x200 d=1' 'vni=100 mark=0x1000000'
 *   gbpgen -w out.pcapng --pcapng -f frames.txt
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#include "cli.h"
#include "lines.h"
#include "pcap_writer.h"

/* Records stay below the capture's snap length (262144): BIG TCP frames of
 * ~70 kB and GSO super-frames fit. */
#define MAX_FRAME 200000
#define MAX_PAYLOAD 131072
#define MAX_WRAP 8
#define GENEVE_OPT_MAX 252

/* A tunnel layer around the VXLAN frame (wrap=), outermost first. */
enum wrap_kind {
	W_GRE, W_ERSPAN1, W_ERSPAN2, W_ERSPAN3, W_GENEVE, W_VXLAN, W_IP, W_MPLS, W__COUNT
};

struct wrap {
	enum wrap_kind kind;
	struct vxgbp_tunnel_spec t;  /* GRE, ERSPAN, Geneve, MPLS */
	struct vxgbp_ip_spec ip;     /* the IP header that delivers it (not MPLS) */
	struct vxgbp_l4_spec udp;    /* Geneve and VXLAN */
	struct vxgbp_hdr hdr;        /* VXLAN */
	uint8_t smac[6], dmac[6];    /* the Ethernet frame it carries, if any */
	uint8_t opts[GENEVE_OPT_MAX];
};

struct spec {
	/* outer */
	struct vxgbp_eth_spec eth;
	struct vxgbp_ip_spec ip;
	struct vxgbp_l4_spec udp;
	struct vxgbp_hdr hdr;
	int encap;       /* 1: VXLAN, 0: the inner frame alone */
	/* inner */
	struct vxgbp_eth_spec ieth;
	struct vxgbp_ip_spec iip;
	struct vxgbp_l4_spec il4;
	int inner_arp;
	size_t payload;
	/* record */
	unsigned long count;
	long long ts_sec;
	long ts_nsec;
	int time_set;
	long long step_nsec;
	long snaplen;      /* -1: whole frame */
	long ip_len;       /* -1: as built; else override the outer IP length field */
	long udp_len;      /* -1: as built; else override the outer UDP length field */
	int ttl_zero;      /* outer TTL / hop limit 0 */
	long long flow_mod; /* vary inner src address over N values */
	/* the diverse-capture keys: 0 = off */
	unsigned long hosts, vnis, groups, vteps;
	int pick;          /* PICK_*: how frame k's flow is chosen */
	unsigned long long seed;
	size_t payload_max;
	uint8_t outer_opts[40], inner_opts[40];
	/* tunnels around it, VXLAN-GPE, Linux cooked link headers */
	struct wrap wrap[MAX_WRAP];
	unsigned n_wrap;
	int gpe;           /* 1: the header is GPE; its Next Protocol says what the
	                      inner frame is (IPv4/IPv6 alone, NSH, Ethernet) */
	uint32_t nsh_spi;
	uint8_t nsh_si;
	uint16_t pkttype;  /* LINUX_SLL/SLL2 packet type */
	uint32_t ifindex;  /* LINUX_SLL2 interface index */
};

static const char *prog = "gbpgen";

/* 4 or 6, or -1 */
static int parse_ip(const char *s, uint8_t out[16])
{
	memset(out, 0, 16);
	if (inet_pton(AF_INET, s, out) == 1)
		return 4;
	if (inet_pton(AF_INET6, s, out) == 1)
		return 6;
	return -1;
}

static int parse_hex(const char *s, uint8_t *out, size_t cap, size_t *n)
{
	size_t len = strlen(s);

	if (len % 2 || len / 2 > cap)
		return -1;
	for (size_t i = 0; i < len / 2; i++) {
		unsigned b;

		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	*n = len / 2;
	return 0;
}

static void spec_default(struct spec *s)
{
	static const uint8_t omac_s[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	static const uint8_t omac_d[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
	static const uint8_t imac_s[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x01 };
	static const uint8_t imac_d[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x02 };

	memset(s, 0, sizeof(*s));
	memcpy(s->eth.src, omac_s, 6);
	memcpy(s->eth.dst, omac_d, 6);
	s->ip.version = 4;
	s->ip.ttl = 64;
	s->iip.ttl = 64;
	s->ttl_zero = 0;
	parse_ip("192.0.2.1", s->ip.src);
	parse_ip("192.0.2.2", s->ip.dst);
	s->udp.proto = 17;
	s->udp.sport = 49152;
	s->udp.dport = VXGBP_PORT_IANA;
	vxgbp_hdr_init(&s->hdr, 100, 0, 0);
	s->encap = 1;
	memcpy(s->ieth.src, imac_s, 6);
	memcpy(s->ieth.dst, imac_d, 6);
	s->iip.version = 4;
	parse_ip("198.51.100.1", s->iip.src);
	parse_ip("198.51.100.2", s->iip.dst);
	s->il4.proto = 1;
	s->il4.icmp_type = 8;
	s->il4.sport = 1;
	s->il4.dport = 1;
	s->count = 1;
	s->ts_sec = 1700000000;
	s->step_nsec = 1000000;
	s->snaplen = -1;
	s->ip_len = -1;
	s->udp_len = -1;
	s->nsh_spi = 100;
	s->nsh_si = 255;
	s->ifindex = 1;
}

/* How frame k of a spec picks its flow (pick=). */
enum { PICK_CYCLE, PICK_UNIFORM, PICK_SKEW };

/* ---- spec keys: one table entry a key (name, help, setter) ---- */
struct spec_key;
typedef int (*spec_setter)(struct spec *s, const struct spec_key *k, const char *val);

struct spec_key {
	const char *section;   /* --help groups the keys under these */
	const char *name;
	const char *arg;       /* what the value is, for --help */
	const char *help;
	spec_setter set;
	size_t off, size;      /* set_num: the field of struct spec */
	unsigned long long max;/* set_num: the largest value; others: a parameter */
};

/* A plain number into a field of struct spec (unsigned or non-negative). */
static int set_num(struct spec *s, const struct spec_key *k, const char *val)
{
	unsigned long long v;
	unsigned char *f = (unsigned char *)s + k->off;

	if (cli_parse_num(val, k->max, &v))
		return -1;
	switch (k->size) {
	case 1: { uint8_t x = (uint8_t)v; memcpy(f, &x, 1); break; }
	case 2: { uint16_t x = (uint16_t)v; memcpy(f, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(f, &x, 4); break; }
	default: { uint64_t x = v; memcpy(f, &x, 8); break; }
	}
	return 0;
}

static int set_time(struct spec *s, const struct spec_key *k, const char *val)
{
	unsigned long long v;
	char frac[10] = "000000000", whole[24];
	const char *dot;

	(void)k;
	s->time_set = 1;
	if (cli_parse_num(val, ~0ull, &v) == 0) {
		s->ts_sec = (long long)v;
		s->ts_nsec = 0;
		return 0;
	}
	if (!(dot = strchr(val, '.')) || dot - val >= 20)
		return -1;
	memcpy(whole, val, (size_t)(dot - val));
	whole[dot - val] = '\0';
	if (cli_parse_num(whole, ~0ull, &v) || strlen(dot + 1) > 9 || !dot[1])
		return -1;
	memcpy(frac, dot + 1, strlen(dot + 1));
	s->ts_sec = (long long)v;
	s->ts_nsec = strtol(frac, NULL, 10);
	return 0;
}

static int set_gbp(struct spec *s, const struct spec_key *k, const char *val)
{
	unsigned long long v;

	(void)k;
	if (cli_parse_num(val, 0xffff, &v))
		return -1;
	s->hdr.flags |= VXGBP_F_G;
	s->hdr.group = (uint16_t)v;
	return 0;
}

/* g= i= d= a=: k->max is the flag bit */
static int set_flag(struct spec *s, const struct spec_key *k, const char *val)
{
	unsigned long long v;

	if (cli_parse_num(val, 1, &v))
		return -1;
	if (v)
		s->hdr.flags |= (uint16_t)k->max;
	else
		s->hdr.flags &= (uint16_t)~k->max;
	return 0;
}

static int set_mark(struct spec *s, const struct spec_key *k, const char *val)
{
	unsigned long long v;

	(void)k;
	if (cli_parse_num(val, 0xffffffffu, &v))
		return -1;
	vxgbp_mark_to_hdr(&s->hdr, (uint32_t)v, s->hdr.vni, 0);
	return 0;
}

/* A word of a list: its index in words (NULL-terminated), or -1. */
static int pick(const char *val, const char *const *words)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(val, words[i]))
			return i;
	return -1;
}

static int set_encap(struct spec *s, const struct spec_key *k, const char *val)
{
	static const char *const w[] = { "none", "vxlan", NULL };
	int i = pick(val, w);

	(void)k;
	if (i < 0)
		return -1;
	s->encap = i;
	return 0;
}

/* Which Ethernet / IP spec a key sets: k->max bit 0 inner, bit 1 source */
#define KEY_INNER 1u
#define KEY_SRC 2u

static int set_mac(struct spec *s, const struct spec_key *k, const char *val)
{
	struct vxgbp_eth_spec *e = k->max & KEY_INNER ? &s->ieth : &s->eth;

	return cli_parse_mac(val, k->max & KEY_SRC ? e->src : e->dst);
}

static int set_addr(struct spec *s, const struct spec_key *k, const char *val)
{
	struct vxgbp_ip_spec *ip = k->max & KEY_INNER ? &s->iip : &s->ip;
	uint8_t a[16];
	int fam;

	if ((fam = parse_ip(val, a)) < 0)
		return -1;
	if (fam != ip->version) { /* switching family resets the other address */
		memset(ip->src, 0, 16);
		memset(ip->dst, 0, 16);
		ip->version = (uint8_t)fam;
		if (ip == &s->iip && (s->il4.proto == 1 || s->il4.proto == 58)) {
			s->il4.proto = fam == 6 ? 58 : 1;
			s->il4.icmp_type = fam == 6 ? 128 : 8;
		}
	}
	memcpy(k->max & KEY_SRC ? ip->src : ip->dst, a, 16);
	return 0;
}

static int set_vlan(struct spec *s, const struct spec_key *k, const char *val)
{
	struct vxgbp_eth_spec *e = k->max & KEY_INNER ? &s->ieth : &s->eth;
	char buf[64], *tok, *save = NULL;
	unsigned long long v;

	if (strlen(val) >= sizeof(buf))
		return -1;
	strcpy(buf, val);
	e->n_vlan = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (e->n_vlan >= VXGBP_MAX_VLAN || cli_parse_num(tok, 0xffff, &v))
			return -1;
		e->vlan_tci[e->n_vlan++] = (uint16_t)v;
	}
	return 0;
}

static int set_qinq(struct spec *s, const struct spec_key *k, const char *val)
{
	unsigned long long v;

	(void)k;
	if (cli_parse_num(val, 1, &v))
		return -1;
	s->eth.vlan_tpid[0] = v ? 0x88a8 : 0x8100;
	return 0;
}

static int set_ttl(struct spec *s, const struct spec_key *k, const char *val)
{
	unsigned long long v;

	(void)k;
	if (cli_parse_num(val, 255, &v))
		return -1;
	s->ip.ttl = (uint8_t)v;
	s->ttl_zero = v == 0; /* the builder sends 0 as 64: patched after */
	return 0;
}

/* csum= icsum=: k->max KEY_INNER for the inner L4 header */
static int set_csum(struct spec *s, const struct spec_key *k, const char *val)
{
	static const char *const w[] = { "compute", "zero", "bad", "partial", NULL };
	static const int mode[] = { VXGBP_CSUM_COMPUTE, VXGBP_CSUM_ZERO, VXGBP_CSUM_BAD,
				    VXGBP_CSUM_PARTIAL };
	int i = pick(val, w);

	if (i < 0)
		return -1;
	(k->max & KEY_INNER ? &s->il4 : &s->udp)->csum_mode = mode[i];
	return 0;
}

static int set_big(struct spec *s, const struct spec_key *k, const char *val)
{
	unsigned long long v;

	(void)k;
	if (cli_parse_num(val, 1, &v))
		return -1;
	s->ip.flags = v ? VXGBP_IP_BIG : 0;
	s->iip.flags = s->ip.flags;
	return 0;
}

/* A GPE Next Protocol by name or number. */
static int parse_np(const char *val, uint8_t *np)
{
	static const char *const w[] = { "", "ipv4", "ipv6", "eth", "nsh", "mpls", NULL };
	unsigned long long v;
	int i = pick(val, w);

	if (i > 0) {
		*np = (uint8_t)i;
		return 0;
	}
	if (cli_parse_num(val, 0xff, &v))
		return -1;
	*np = (uint8_t)v;
	return 0;
}

/* gpe=NP: the header Linux sends on a GPE device (I and P, the Next
 * Protocol, nothing else), to port 4790 */
static int set_gpe(struct spec *s, const struct spec_key *k, const char *val)
{
	uint8_t np;

	(void)k;
	if (parse_np(val, &np))
		return -1;
	s->gpe = 1;
	s->hdr.flags = VXGBP_F_I | VXGBP_GPE_F_P;
	s->hdr.group = np;
	s->udp.dport = VXGBP_PORT_GPE;
	return 0;
}

static int set_ipopt(struct spec *s, const struct spec_key *k, const char *val)
{
	int inner = (k->max & KEY_INNER) != 0;
	uint8_t *buf = inner ? s->inner_opts : s->outer_opts;
	struct vxgbp_ip_spec *ip = inner ? &s->iip : &s->ip;
	size_t n;

	if (parse_hex(val, buf, sizeof(s->outer_opts), &n))
		return -1;
	ip->options = buf;
	ip->options_len = n;
	return 0;
}

static int set_proto(struct spec *s, const struct spec_key *k, const char *val)
{
	static const char *const w[] = { "icmp", "udp", "tcp", "arp", NULL };
	int i = pick(val, w);

	(void)k;
	s->inner_arp = 0;
	switch (i) {
	case 0:
		s->il4.proto = s->iip.version == 6 ? 58 : 1;
		s->il4.icmp_type = s->iip.version == 6 ? 128 : 8;
		return 0;
	case 1:
		s->il4.proto = 17;
		s->il4.sport = 40000;
		s->il4.dport = 53;
		return 0;
	case 2:
		s->il4.proto = 6;
		s->il4.sport = 40000;
		s->il4.dport = 80;
		s->il4.tcp_flags = 0x02;
		return 0;
	case 3:
		s->inner_arp = 1;
		return 0;
	default:
		return -1;
	}
}

/* ---- wrap=KIND[,param=value...]: a tunnel layer around the frame ---- */
static const char *const wrap_names[W__COUNT + 1] = {
	"gre", "erspan1", "erspan2", "erspan3", "geneve", "vxlan", "ip", "mpls", NULL
};

#define WB(k) (1u << (k))
#define W_ERSPAN (WB(W_ERSPAN1) | WB(W_ERSPAN2) | WB(W_ERSPAN3))
#define W_UDP (WB(W_GENEVE) | WB(W_VXLAN))
#define W_DELIVERED (((1u << W__COUNT) - 1) & ~WB(W_MPLS)) /* by an IP header */
#define W_CARRY_ETH (WB(W_GRE) | W_ERSPAN | W_UDP)

enum wrap_param {
	WP_SRC, WP_DST, WP_TTL, WP_SMAC, WP_DMAC, WP_PROTO, WP_KEY, WP_SEQ, WP_CSUM,
	WP_SESSION, WP_VLAN, WP_INDEX, WP_VNI, WP_OPT, WP_OAM, WP_SPORT, WP_DPORT,
	WP_GBP, WP_FLAGS, WP_RSVD, WP_LABEL, WP_LABELS, WP_IPCSUM,
};

static const struct {
	const char *name;
	enum wrap_param p;
	unsigned kinds;      /* WB() of the kinds that take it */
	unsigned long long max;
} wrap_params[] = {
	{ "src", WP_SRC, W_DELIVERED, 0 },
	{ "dst", WP_DST, W_DELIVERED, 0 },
	{ "ttl", WP_TTL, W_DELIVERED, 255 },
	{ "ipcsum", WP_IPCSUM, W_DELIVERED, 0 },
	{ "smac", WP_SMAC, W_CARRY_ETH, 0 },
	{ "dmac", WP_DMAC, W_CARRY_ETH, 0 },
	{ "proto", WP_PROTO, WB(W_GRE) | WB(W_GENEVE), 0 },
	{ "key", WP_KEY, WB(W_GRE), 0xffffffffu },
	{ "seq", WP_SEQ, WB(W_GRE) | WB(W_ERSPAN2) | WB(W_ERSPAN3), 0xffffffffu },
	{ "csum", WP_CSUM, WB(W_GRE) | W_UDP, 0 },
	{ "session", WP_SESSION, WB(W_ERSPAN2) | WB(W_ERSPAN3), 0x3ff },
	{ "vlan", WP_VLAN, WB(W_ERSPAN2) | WB(W_ERSPAN3), 0xfff },
	{ "index", WP_INDEX, WB(W_ERSPAN2), 0xfffff },
	{ "timestamp", WP_INDEX, WB(W_ERSPAN3), 0xffffffffu },
	{ "vni", WP_VNI, W_UDP, VXGBP_VNI_MAX },
	{ "opt", WP_OPT, WB(W_GENEVE), 0 },
	{ "oam", WP_OAM, WB(W_GENEVE), 1 },
	{ "sport", WP_SPORT, W_UDP, 0xffff },
	{ "dport", WP_DPORT, W_UDP, 0xffff },
	{ "gbp", WP_GBP, WB(W_VXLAN), 0xffff },
	{ "flags", WP_FLAGS, WB(W_VXLAN), 0xffff },
	{ "rsvd", WP_RSVD, WB(W_VXLAN), 0xff },
	{ "label", WP_LABEL, WB(W_MPLS), 0xfffff },
	{ "labels", WP_LABELS, WB(W_MPLS), 4 },
};

/* A layer's defaults; k is its place among the layers (documentation
 * addresses 203.0.113.0/24, one pair a layer). */
static void wrap_default(struct wrap *w, enum wrap_kind kind, unsigned k)
{
	static const unsigned tun[W__COUNT] = {
		[W_GRE] = VXGBP_ENCAP_GRE, [W_ERSPAN1] = VXGBP_ENCAP_ERSPAN1,
		[W_ERSPAN2] = VXGBP_ENCAP_ERSPAN2, [W_ERSPAN3] = VXGBP_ENCAP_ERSPAN3,
		[W_GENEVE] = VXGBP_ENCAP_GENEVE, [W_MPLS] = VXGBP_ENCAP_MPLS,
	};

	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->t.kind = tun[kind];
	w->t.n_labels = 1;
	w->t.id = kind == W_MPLS ? 1000 : 0;
	w->ip.version = 4;
	w->ip.ttl = 64;
	parse_ip("203.0.113.1", w->ip.src);
	parse_ip("203.0.113.2", w->ip.dst);
	w->ip.src[3] = (uint8_t)(1 + 2 * k);
	w->ip.dst[3] = (uint8_t)(2 + 2 * k);
	w->udp.proto = 17;
	w->udp.sport = (uint16_t)(50000 + k);
	w->udp.dport = kind == W_GENEVE ? VXGBP_PORT_GENEVE : VXGBP_PORT_IANA;
	vxgbp_hdr_init(&w->hdr, 1000 + k, 0, 0);
	memcpy(w->smac, (const uint8_t[6]){ 0x02, 0, 0, 0, (uint8_t)(0x10 + k), 1 }, 6);
	memcpy(w->dmac, (const uint8_t[6]){ 0x02, 0, 0, 0, (uint8_t)(0x10 + k), 2 }, 6);
}

/* An address of a layer; switching family resets the other one. */
static int wrap_addr(struct wrap *w, const char *val, int src)
{
	uint8_t a[16];
	int fam = parse_ip(val, a);

	if (fam < 0)
		return -1;
	if (fam != w->ip.version) {
		memset(w->ip.src, 0, 16);
		memset(w->ip.dst, 0, 16);
		w->ip.version = (uint8_t)fam;
	}
	memcpy(src ? w->ip.src : w->ip.dst, a, 16);
	return 0;
}

/* proto=: a GRE/Geneve protocol by name or number */
static int wrap_proto(struct wrap *w, const char *val)
{
	static const char *const names[] = { "eth", "ipv4", "ipv6", "mpls", NULL };
	static const uint16_t et[] = { 0x6558, 0x0800, 0x86dd, 0x8847 };
	unsigned long long v;
	int i = pick(val, names);

	if (i < 0 && cli_parse_num(val, 0xffff, &v))
		return -1;
	w->t.proto = i < 0 ? (uint16_t)v : et[i];
	return 0;
}

static int wrap_set_num(struct wrap *w, enum wrap_param p, unsigned long long v);

/* The parameters that are not a plain number. */
static int wrap_set_text(struct wrap *w, enum wrap_param p, const char *val)
{
	size_t n;

	switch (p) {
	case WP_SRC:
	case WP_DST:
		return wrap_addr(w, val, p == WP_SRC);
	case WP_SMAC:
	case WP_DMAC:
		return cli_parse_mac(val, p == WP_SMAC ? w->smac : w->dmac);
	case WP_PROTO:
		return wrap_proto(w, val);
	case WP_OPT:
		if (parse_hex(val, w->opts, sizeof(w->opts), &n) || n % 4)
			return -1;
		w->t.options_len = n;
		return 0;
	case WP_IPCSUM: /* bad: a wrong IPv4 header checksum (a broken mirror) */
		if (strcmp(val, "bad"))
			return -1;
		w->ip.flags |= VXGBP_IP_CSUM_BAD;
		return 0;
	case WP_CSUM: /* 0, 1; bad: a wrong UDP checksum (a broken mirror) */
		if (!strcmp(val, "bad") && w->kind != W_GRE) {
			w->udp.csum_mode = VXGBP_CSUM_BAD;
			return 0;
		}
		if (strcmp(val, "0") && strcmp(val, "1"))
			return -1;
		return wrap_set_num(w, p, val[0] == '1');
	default:
		return -1;
	}
}

static int wrap_set_num(struct wrap *w, enum wrap_param p, unsigned long long v)
{
	switch (p) {
	case WP_TTL: w->ip.ttl = (uint8_t)v; break;
	case WP_KEY: w->t.flags |= VXGBP_TUN_KEY; w->t.id = (uint32_t)v; break;
	case WP_SEQ: w->t.seq = (uint32_t)v; w->t.flags |= VXGBP_TUN_SEQ; break;
	case WP_CSUM:
		if (w->kind == W_GRE)
			w->t.flags = v ? w->t.flags | VXGBP_TUN_CSUM : w->t.flags & ~VXGBP_TUN_CSUM;
		else
			w->udp.csum_mode = v ? VXGBP_CSUM_COMPUTE : VXGBP_CSUM_ZERO;
		break;
	case WP_SESSION: case WP_LABEL: w->t.id = (uint32_t)v; break;
	case WP_VLAN: w->t.vlan = (uint16_t)v; break;
	case WP_INDEX: w->t.index = (uint32_t)v; break;
	case WP_VNI: w->t.id = (uint32_t)v; w->hdr.vni = (uint32_t)v; break;
	case WP_OAM: w->t.flags = v ? VXGBP_TUN_OAM : 0; break;
	case WP_SPORT: w->udp.sport = (uint16_t)v; break;
	case WP_DPORT: w->udp.dport = (uint16_t)v; break;
	case WP_GBP: w->hdr.flags |= VXGBP_F_G; w->hdr.group = (uint16_t)v; break;
	case WP_FLAGS: w->hdr.flags = (uint16_t)v; break;
	case WP_RSVD: w->hdr.rsvd = (uint8_t)v; break;
	case WP_LABELS:
		if (!v)
			return -1;
		w->t.n_labels = (unsigned)v;
		break;
	default:
		return -1;
	}
	return 0;
}

/* One param=value of a layer. */
static int wrap_param(struct wrap *w, const char *name, const char *val)
{
	for (size_t i = 0; i < sizeof(wrap_params) / sizeof(wrap_params[0]); i++) {
		unsigned long long v;

		if (strcmp(name, wrap_params[i].name))
			continue;
		if (!(wrap_params[i].kinds & WB(w->kind)))
			return -1;
		if (!wrap_params[i].max)
			return wrap_set_text(w, wrap_params[i].p, val);
		if (cli_parse_num(val, wrap_params[i].max, &v))
			return -1;
		return wrap_set_num(w, wrap_params[i].p, v);
	}
	return -1;
}

/* wrap=KIND[,param=value...]: one more layer, outside those before it */
static int set_wrap(struct spec *s, const struct spec_key *k, const char *val)
{
	char buf[1024], *tok, *save = NULL;
	struct wrap *w;
	int kind;

	(void)k;
	if (s->n_wrap >= MAX_WRAP || strlen(val) >= sizeof(buf))
		return -1;
	strcpy(buf, val);
	tok = strtok_r(buf, ",", &save);
	if (!tok || (kind = pick(tok, wrap_names)) < 0)
		return -1;
	w = &s->wrap[s->n_wrap];
	wrap_default(w, (enum wrap_kind)kind, s->n_wrap);
	while ((tok = strtok_r(NULL, ",", &save))) {
		char *eq = strchr(tok, '=');

		if (!eq)
			return -1;
		*eq = '\0';
		if (wrap_param(w, tok, eq + 1))
			return -1;
	}
	if ((w->ip.flags & VXGBP_IP_CSUM_BAD) && w->ip.version != 4)
		return -1; /* IPv6 has no header checksum */
	s->n_wrap++;
	return 0;
}

static int set_pick(struct spec *s, const struct spec_key *k, const char *val)
{
	static const char *const w[] = { "cycle", "uniform", "skew", NULL };
	int i = pick(val, w);

	(void)k;
	if (i < 0)
		return -1;
	s->pick = i;
	return 0;
}

#define F(field) offsetof(struct spec, field), sizeof(((struct spec *)0)->field)
#define NUM(sec, name, arg, help, field, max) { sec, name, arg, help, set_num, F(field), max }
#define KEY(sec, name, arg, help, fn, param) { sec, name, arg, help, fn, 0, 0, param }

static const struct spec_key spec_keys[] = {
	NUM("Record", "count", "N", "frames from this spec (1)", count, 100000000),
	KEY("Record", "time", "SEC[.FRAC]", "time of the first frame (1700000000; "
	    "else on from the spec before)", set_time, 0),
	NUM("Record", "step", "NSEC", "time between frames (1000000)", step_nsec,
	    1000000000000ull),
	NUM("Record", "snaplen", "N", "cut each record to N bytes (whole frames)", snaplen, MAX_FRAME),
	NUM("Record", "flows", "N", "vary the inner addresses and ports over N flows",
	    flow_mod, 16777216),
	NUM("Record", "hosts", "N", "inner source and destination hosts drawn from N "
	    "addresses each, a flow being a (source, destination, port) triple", hosts,
	    16777216),
	NUM("Record", "vnis", "N", "VNIs vni= .. vni=+N-1, one per source host", vnis,
	    VXGBP_VNI_MAX),
	NUM("Record", "groups", "N", "group IDs gbp= .. gbp=+N-1, one per source host",
	    groups, 0x10000),
	NUM("Record", "vteps", "N", "outer addresses over N VTEPs, by host", vteps, 65536),
	KEY("Record", "pick", "cycle|uniform|skew", "how frame k picks its flow: k mod "
	    "flows (cycle, the default), uniformly at random, or skewed (a few flows carry "
	    "most frames); random draws are seeded by seed= and k", set_pick, 0),
	NUM("Record", "seed", "N", "the seed of pick= and payload-max= (0)", seed,
	    ~0ull),
	NUM("Record", "payload-max", "BYTES", "payload lengths drawn between payload= and "
	    "this, frame by frame", payload_max, MAX_PAYLOAD),
	NUM("Record", "pkttype", "N", "--link sll|sll2: the packet type (0: to us, 4: "
	    "sent by us)", pkttype, 0xff),
	NUM("Record", "ifindex", "N", "--link sll2: the interface index (1)", ifindex,
	    0xffffffffu),
	NUM("VXLAN", "vni", "N", "the VNI (100)", hdr.vni, VXGBP_VNI_MAX),
	KEY("VXLAN", "gbp", "ID", "set G and the Group Policy ID", set_gbp, 0),
	NUM("VXLAN", "id", "N", "the ID field alone, with or without G", hdr.group, 0xffff),
	KEY("VXLAN", "g", "0|1", "the G flag (Group Policy ID present)", set_flag, VXGBP_F_G),
	KEY("VXLAN", "i", "0|1", "the I flag (VNI valid; set by default)", set_flag, VXGBP_F_I),
	KEY("VXLAN", "d", "0|1", "the D flag (Don't Learn)", set_flag, VXGBP_F_D),
	KEY("VXLAN", "a", "0|1", "the A flag (Policy Applied)", set_flag, VXGBP_F_A),
	NUM("VXLAN", "flags", "0xHHHH", "the raw 16 flag bits (bytes 0-1)", hdr.flags, 0xffff),
	NUM("VXLAN", "rsvd", "N", "the reserved byte 7", hdr.rsvd, 0xff),
	KEY("VXLAN", "mark", "M", "the header Linux 6.12 sends for skb->mark M", set_mark, 0),
	KEY("VXLAN", "encap", "vxlan|none", "none: the inner frame alone, not encapsulated",
	    set_encap, 0),
	KEY("VXLAN", "gpe", "NP", "a VXLAN-GPE header as Linux sends it (I and P, Next "
	    "Protocol NP: eth, ipv4, ipv6, nsh, mpls or a number) to port 4790 (dport= "
	    "after it changes that); ipv4/ipv6: the inner IP packet without Ethernet, "
	    "nsh: an NSH header (MD type 2, no metadata) then the inner Ethernet frame",
	    set_gpe, 0),
	NUM("VXLAN", "nsh-spi", "N", "gpe=nsh: the Service Path Identifier (100)", nsh_spi,
	    0xffffff),
	NUM("VXLAN", "nsh-si", "N", "gpe=nsh: the Service Index (255)", nsh_si, 0xff),
	KEY("Outer", "outer-smac", "MAC", "source MAC (02:00:00:00:00:01)", set_mac, KEY_SRC),
	KEY("Outer", "outer-dmac", "MAC", "destination MAC (02:00:00:00:00:02)", set_mac, 0),
	KEY("Outer", "outer-src", "ADDR", "source address, IPv4 or IPv6 (192.0.2.1)", set_addr,
	    KEY_SRC),
	KEY("Outer", "outer-dst", "ADDR", "destination address (192.0.2.2)", set_addr, 0),
	KEY("Outer", "vlan", "TCI[,TCI]", "802.1Q tags (none)", set_vlan, 0),
	KEY("Outer", "qinq", "0|1", "the first tag is 802.1ad (0x88a8)", set_qinq, 0),
	KEY("Outer", "ttl", "N", "TTL / hop limit (64)", set_ttl, 0),
	NUM("Outer", "ip-id", "N", "IPv4 identification", ip.ip_id, 0xffff),
	NUM("Outer", "df", "0|1", "IPv4 Don't Fragment", ip.dont_frag, 1),
	NUM("Outer", "sport", "N", "UDP source port (49152)", udp.sport, 0xffff),
	NUM("Outer", "dport", "N", "UDP destination port (4789)", udp.dport, 0xffff),
	KEY("Outer", "csum", "compute|zero|bad|partial", "the UDP checksum (compute); "
	    "partial: the pseudo-header sum a sender that offloads it leaves", set_csum, 0),
	KEY("Outer", "big", "0|1", "BIG TCP lengths for the outer and inner IP packet: "
	    "over 65535 bytes, IPv4 total length 0 or an IPv6 Jumbo Payload option",
	    set_big, 0),
	KEY("Outer", "ipopt", "HEX", "raw IPv4 options or IPv6 hop-by-hop options",
	    set_ipopt, 0),
	KEY("Inner", "inner-smac", "MAC", "source MAC (02:00:00:00:01:01)", set_mac,
	    KEY_INNER | KEY_SRC),
	KEY("Inner", "inner-dmac", "MAC", "destination MAC (02:00:00:00:01:02)", set_mac,
	    KEY_INNER),
	KEY("Inner", "inner-src", "ADDR", "source address, IPv4 or IPv6 (198.51.100.1)",
	    set_addr, KEY_INNER | KEY_SRC),
	KEY("Inner", "inner-dst", "ADDR", "destination address (198.51.100.2)", set_addr,
	    KEY_INNER),
	KEY("Inner", "ivlan", "TCI[,TCI]", "802.1Q tags (none)", set_vlan, KEY_INNER),
	KEY("Inner", "proto", "icmp|udp|tcp|arp", "what the inner frame is: icmp (the "
	    "default) an echo request, udp ports 40000 > 53, tcp a SYN 40000 > 80, arp a "
	    "request", set_proto, 0),
	NUM("Inner", "isport", "N", "source port (ICMP: echo identifier, 1)", il4.sport, 0xffff),
	NUM("Inner", "idport", "N", "destination port (ICMP: echo sequence, 1)", il4.dport,
	    0xffff),
	NUM("Inner", "tcp-flags", "N", "TCP flags", il4.tcp_flags, 0xff),
	KEY("Inner", "icsum", "compute|zero|bad|partial", "the UDP/TCP/ICMP checksum "
	    "(compute)", set_csum, KEY_INNER),
	NUM("Inner", "payload", "BYTES", "payload length (0; over 65515 with big=1)",
	    payload, MAX_PAYLOAD),
	NUM("Inner", "ittl", "N", "TTL / hop limit (64)", iip.ttl, 255),
	KEY("Inner", "iipopt", "HEX", "raw IPv4 options or IPv6 hop-by-hop options",
	    set_ipopt, KEY_INNER),
	NUM("Broken", "ip-len", "N", "overwrite the outer IP total (IPv4) or payload "
	    "(IPv6) length after building", ip_len, 0xffff),
	NUM("Broken", "udp-len", "N", "overwrite the outer UDP length after building",
	    udp_len, 0xffff),
	KEY("Tunnel", "wrap", "KIND[,P=V...]", "one more tunnel layer around the frame, "
	    "outside the ones before it (see below)", set_wrap, 0),
};

#undef NUM
#undef KEY
#undef F

/* "  key=ARG   help" with the help wrapped at 79 columns. */
static void usage_key(FILE *f, const struct spec_key *k)
{
	const char *w = k->help;
	char kv[40];
	int col;

	snprintf(kv, sizeof(kv), "%s=%s", k->name, k->arg);
	col = fprintf(f, "  %-22s", kv);
	while (*w) {
		int n = (int)strcspn(w, " ");

		if (col + 1 + n > 79)
			col = fprintf(f, "\n%24s", "") - 1;
		col += fprintf(f, " %.*s", n, w);
		w += n;
		w += strspn(w, " ");
	}
	fputc('\n', f);
}

static void usage_keys(FILE *f)
{
	const char *section = "";

	for (size_t i = 0; i < sizeof(spec_keys) / sizeof(spec_keys[0]); i++) {
		if (strcmp(spec_keys[i].section, section))
			fprintf(f, "%s:\n", section = spec_keys[i].section);
		usage_key(f, &spec_keys[i]);
	}
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: gbpgen -w FILE [--pcapng] [--force] [--link ether|sll|sll2]\n"
"              [--mix SEED] [-f SPECFILE] [SPEC ...]\n"
"Write a capture of VXLAN(-GBP) frames.  Each SPEC (one argument, or one line\n"
"of SPECFILE, '#' comments) is space-separated key=value; later keys win.\n"
"\n"
"-w FILE      output ('-' for standard output); an existing file is kept\n"
"             unless --force is given, the spec file is never overwritten;\n"
"             the file appears only when complete\n"
"--pcapng     write pcapng instead of classic pcap (microseconds)\n"
"--link L     the link type: ether (1, the default), sll (LINUX_SLL, 113) or\n"
"             sll2 (LINUX_SLL2, 276): the Ethernet header becomes Linux's\n"
"             cooked header (source MAC as the address, pkttype=, ifindex=)\n"
"--mix SEED   interleave the specs' frames in a random order made from SEED\n"
"             (each spec's frames keep their order); the clock starts at the\n"
"             first spec's time and steps by each frame's spec\n"
"Exit status: 0 written, 1 a spec could not be built, 2 usage or I/O error.\n"
"\n"
"Keys (defaults in parentheses):\n");
	usage_keys(f);
	fprintf(f,
"\n"
"wrap=KIND[,P=V...] layers, outermost first; the VXLAN frame above is innermost.\n"
"Layer k (0 = the first wrap=) is delivered by IPv4 203.0.113.(2k+1) >\n"
"203.0.113.(2k+2) unless src=/dst= say otherwise (IPv4 or IPv6); where it\n"
"carries Ethernet and holds an IP packet, an Ethernet header 02:00:00:00:1k:01 >\n"
"02:00:00:00:1k:02 is added (smac=, dmac=).  The outermost layer gets the\n"
"outer-smac/outer-dmac/vlan Ethernet header.\n"
"  gre      GRE in IP: proto=eth|ipv4|ipv6|mpls|N (eth, 0x6558), key=N,\n"
"           seq=N, csum=0|1\n"
"  erspan1  GRE 0x88be, no ERSPAN header\n"
"  erspan2  GRE 0x88be, seq=N, session=N, vlan=N, index=N\n"
"  erspan3  GRE 0x22eb, seq=N, session=N, vlan=N, timestamp=N\n"
"  geneve   UDP 6081: vni=N, opt=HEX (whole options), oam=0|1, proto= as gre,\n"
"           sport=N, dport=N, csum=0|1|bad\n"
"  vxlan    UDP 4789: vni=N (1000+k), gbp=ID, flags=0xHHHH, sport=N, dport=N,\n"
"           rsvd=N, csum=0|1|bad (carries Ethernet)\n"
"  ip       IP in IP: protocol 4 or 41 by what it carries\n"
"  mpls     a label stack: label=N (1000), labels=1..4 (delivered by Ethernet\n"
"           0x8847, or proto=mpls of a gre/geneve layer)\n"
"All layers but mpls take src=, dst=, ttl=; smac=, dmac= where they carry\n"
"Ethernet.\n");
}

/* Apply one key=value.  Returns 0 or -1 with a message in err. */
static int spec_set(struct spec *s, const char *key, const char *val, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(spec_keys) / sizeof(spec_keys[0]); i++) {
		if (strcmp(key, spec_keys[i].name))
			continue;
		if (spec_keys[i].set(s, &spec_keys[i], val) == 0)
			return 0;
		snprintf(err, errlen, "bad value '%s' for %s", val, key);
		return -1;
	}
	snprintf(err, errlen, "unknown key '%s'", key);
	return -1;
}

static int spec_parse(struct spec *s, const char *text, char *err, size_t errlen)
{
	char buf[4096], *tok, *save = NULL;

	spec_default(s);
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "spec longer than %zu characters", sizeof(buf) - 1);
		return -1;
	}
	strcpy(buf, text);
	for (tok = strtok_r(buf, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok) {
			snprintf(err, errlen, "expected key=value, got '%s'", tok);
			return -1;
		}
		*eq = '\0';
		if (spec_set(s, tok, eq + 1, err, errlen))
			return -1;
	}
	return 0;
}

/* An ARP request from the inner source to the inner destination. */
static int build_arp(uint8_t *b, size_t cap, const struct spec *s)
{
	struct vxgbp_eth_spec e = s->ieth;

	memset(e.dst, 0xff, 6);
	return vxgbp_arp_build(b, cap, &e, VXGBP_ARP_REQUEST, s->ieth.src, s->iip.src, NULL,
			       s->iip.dst);
}

/* What a buffer holds, so the next layer knows what it carries. */
enum shape { SH_ETH, SH_IP4, SH_IP6, SH_MPLS };

/* Two buffers a frame is built in, layer by layer, and the payload bytes. */
struct bufs {
	uint8_t *cur, *tmp, *pay;
	size_t len;       /* bytes in cur */
	enum shape shape; /* what they are */
};

static void swap_bufs(struct bufs *b, int n, enum shape shape)
{
	uint8_t *t = b->cur;

	b->cur = b->tmp;
	b->tmp = t;
	b->len = (size_t)n;
	b->shape = shape;
}

static uint16_t shape_ethertype(enum shape sh)
{
	static const uint16_t et[] = { [SH_ETH] = 0x6558, [SH_IP4] = 0x0800,
				       [SH_IP6] = 0x86dd, [SH_MPLS] = 0x8847 };

	return et[sh];
}

/* Put an Ethernet header (dst, src, tags, ethertype of what b holds) in
 * front of b. */
static int add_eth(struct bufs *b, const uint8_t dst[6], const uint8_t src[6],
		   const struct vxgbp_eth_spec *tags)
{
	size_t off = 12, n = tags ? tags->n_vlan : 0, hl = 14 + 4 * n;
	uint16_t et = shape_ethertype(b->shape);

	if (b->shape == SH_ETH)
		return VXGBP_E_INVAL;
	if (b->len > MAX_FRAME - hl)
		return VXGBP_E_NOSPACE;
	memcpy(b->tmp, dst, 6);
	memcpy(b->tmp + 6, src, 6);
	for (size_t i = 0; i < n; i++) {
		uint16_t tpid = tags->vlan_tpid[i] ? tags->vlan_tpid[i] : 0x8100;

		b->tmp[off] = (uint8_t)(tpid >> 8);
		b->tmp[off + 1] = (uint8_t)tpid;
		b->tmp[off + 2] = (uint8_t)(tags->vlan_tci[i] >> 8);
		b->tmp[off + 3] = (uint8_t)tags->vlan_tci[i];
		off += 4;
	}
	b->tmp[off] = (uint8_t)(et >> 8);
	b->tmp[off + 1] = (uint8_t)et;
	memcpy(b->tmp + hl, b->cur, b->len);
	swap_bufs(b, (int)(hl + b->len), SH_ETH);
	return 0;
}

/* RFC 8300 sec. 2: the NSH base header (Ver 0, O 0, TTL 63, Length 2
 * words, MD Type 2 with no metadata, Next Protocol 3 Ethernet) and the
 * service path header (SPI, SI), in front of the Ethernet frame in b. */
#define NSH_LEN 8
static int add_nsh(struct bufs *b, const struct spec *s)
{
	uint8_t *h = b->tmp;

	if (b->len > MAX_FRAME - NSH_LEN)
		return VXGBP_E_NOSPACE;
	h[0] = 63 >> 2;                   /* Ver 0, O 0, U 0, TTL high 4 bits */
	h[1] = (uint8_t)((63 & 3) << 6 | NSH_LEN / 4);
	h[2] = 2;                         /* MD Type 2 */
	h[3] = 3;                         /* Ethernet */
	h[4] = (uint8_t)(s->nsh_spi >> 16);
	h[5] = (uint8_t)(s->nsh_spi >> 8);
	h[6] = (uint8_t)s->nsh_spi;
	h[7] = s->nsh_si;
	memcpy(h + NSH_LEN, b->cur, b->len);
	swap_bufs(b, (int)(NSH_LEN + b->len), SH_ETH);
	return 0;
}

/* The innermost frame: Ethernet (or ARP), or an IP packet alone when a GPE
 * header says so, NSH in front when it says that. */
static int build_inner(const struct spec *s, struct bufs *b)
{
	uint8_t np = (uint8_t)s->hdr.group;
	int ip_alone = s->gpe && (np == VXGBP_GPE_NP_IPV4 || np == VXGBP_GPE_NP_IPV6);
	int n;

	memset(b->pay, 0, s->payload);
	for (size_t i = 0; i < s->payload; i++)
		b->pay[i] = (uint8_t)i;
	if (s->inner_arp && ip_alone)
		return VXGBP_E_INVAL;
	if (s->inner_arp)
		n = build_arp(b->tmp, MAX_FRAME, s);
	else
		n = vxgbp_frame_build(b->tmp, MAX_FRAME, ip_alone ? NULL : &s->ieth, &s->iip,
				      &s->il4, b->pay, s->payload);
	if (n < 0)
		return n;
	swap_bufs(b, n, ip_alone ? (s->iip.version == 4 ? SH_IP4 : SH_IP6) : SH_ETH);
	if (s->gpe && np == VXGBP_GPE_NP_NSH)
		return add_nsh(b, s);
	return 0;
}

/* Deliberately wrong fields of the VXLAN packet's IP/UDP headers (at 0). */
static void patch_outer(const struct spec *s, uint8_t *out)
{
	size_t l4 = s->ip.version == 4 ? (size_t)(out[0] & 0x0f) * 4 :
		    40 + (out[6] == 0 ? 8 * ((size_t)out[41] + 1) : 0);

	if (s->ttl_zero) { /* the builder sends 0 as 64 */
		if (s->ip.version == 4) {
			uint16_t c;

			out[8] = 0;
			out[10] = 0;
			out[11] = 0;
			c = vxgbp_csum_fold(vxgbp_csum_add(0, out, l4));
			out[10] = (uint8_t)(c >> 8);
			out[11] = (uint8_t)c;
		} else {
			out[7] = 0;
		}
	}
	/* contradicting lengths; checksums stay as built */
	if (s->ip_len >= 0) {
		out[s->ip.version == 4 ? 2 : 4] = (uint8_t)(s->ip_len >> 8);
		out[s->ip.version == 4 ? 3 : 5] = (uint8_t)s->ip_len;
	}
	if (s->udp_len >= 0) {
		out[l4 + 4] = (uint8_t)(s->udp_len >> 8);
		out[l4 + 5] = (uint8_t)s->udp_len;
	}
}

/* What a layer carries (SH_*), -1 for what it takes as it comes. */
static int wrap_carries(const struct wrap *w, enum shape cur)
{
	uint16_t proto = w->t.proto ? w->t.proto : 0x6558;

	switch (w->kind) {
	case W_GRE:
	case W_GENEVE:
		for (int sh = SH_ETH; sh <= SH_MPLS; sh++)
			if (proto == shape_ethertype((enum shape)sh))
				return sh;
		return -1;
	case W_IP:
	case W_MPLS:
		return cur == SH_IP4 || cur == SH_IP6 ? (int)cur : SH_IP4;
	default:
		return SH_ETH;
	}
}

/* The IP header that delivers a layer, and what it makes. */
static int wrap_ip(struct bufs *b, const struct wrap *w, uint8_t proto, int udp)
{
	struct vxgbp_l4_spec l4 = udp ? w->udp : (struct vxgbp_l4_spec){ .proto = proto };
	int n = vxgbp_frame_build(b->tmp, MAX_FRAME, NULL, &w->ip, &l4, b->cur, b->len);

	if (n < 0)
		return n;
	swap_bufs(b, n, w->ip.version == 4 ? SH_IP4 : SH_IP6);
	return 0;
}

/* Wrap b in one layer. */
static int wrap_one(struct bufs *b, const struct wrap *w0)
{
	struct wrap w = *w0;
	int want = wrap_carries(&w, b->shape), n;

	w.t.options = w.t.options_len ? w.opts : NULL;
	if (want == SH_ETH && b->shape != SH_ETH && (n = add_eth(b, w.dmac, w.smac, NULL)))
		return n;
	if (want >= 0 && want != (int)b->shape)
		return VXGBP_E_INVAL; /* e.g. an Ethernet frame where IP belongs */
	switch (w.kind) {
	case W_VXLAN:
		n = vxgbp_vxlan_build(b->tmp, MAX_FRAME, NULL, &w.ip, &w.udp, &w.hdr,
				      b->cur, b->len);
		if (n < 0)
			return n;
		swap_bufs(b, n, w.ip.version == 4 ? SH_IP4 : SH_IP6);
		return 0;
	case W_IP:
		return wrap_ip(b, &w, b->shape == SH_IP4 ? 4 : 41, 0);
	default:
		break;
	}
	if ((n = vxgbp_tunnel_build(b->tmp, MAX_FRAME, &w.t, b->cur, b->len)) < 0)
		return n;
	swap_bufs(b, n, SH_MPLS);
	if (w.kind == W_MPLS)
		return 0;
	return wrap_ip(b, &w, 47, w.kind == W_GENEVE);
}

/* splitmix64's finaliser: the seeded draws of pick= and payload-max=. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Add n (< 2^24) to an address's last three bytes, big-endian with carry. */
static void addr_add(uint8_t *a, int version, unsigned long n)
{
	size_t at = version == 4 ? 3 : 15;

	for (int i = 0; i < 3 && n; i++, at--) {
		unsigned long v = a[at] + (n & 0xff);

		a[at] = (uint8_t)v;
		n = (n >> 8) + (v >> 8);
	}
}

static void mac_set(uint8_t mac[6], unsigned long n)
{
	mac[3] = (uint8_t)(n >> 16);
	mac[4] = (uint8_t)(n >> 8);
	mac[5] = (uint8_t)n;
}

/* The flow of frame k (pick=): 0 without flows=. */
static unsigned long flow_of(const struct spec *s, unsigned long k)
{
	unsigned long n = (unsigned long)s->flow_mod;
	uint64_t r, u;

	if (n == 0)
		return 0;
	if (s->pick == PICK_CYCLE)
		return k % n;
	r = mix64(s->seed ^ mix64(k));
	if (s->pick == PICK_UNIFORM)
		return (unsigned long)(r % n);
	u = r >> 43; /* 21 bits, uniform; u^3 puts most frames on the first flows */
	u = (((u * u) >> 21) * u) >> 21;
	return (unsigned long)((u * n) >> 21);
}

/* The original flows= variation: the inner source (address, MAC, port) and
 * the outer source port by flow. */
static void vary_flow(struct spec *s, unsigned long f)
{
	size_t at = s->iip.version == 4 ? 3 : 15;

	s->iip.src[at] = (uint8_t)(s->iip.src[at] + f);
	s->iip.src[at - 1] = (uint8_t)(s->iip.src[at - 1] + (f >> 8));
	s->iip.src[at - 2] = (uint8_t)(s->iip.src[at - 2] + (f >> 16));
	mac_set(s->ieth.src, f);
	s->il4.sport = (uint16_t)(s->il4.sport + f);
	s->udp.sport = (uint16_t)(49152 + (f % 16384));
}

/* Frame k's variation: flows=, hosts=, vnis=, groups=, vteps=, payload-max=. */
static void vary(struct spec *s, unsigned long k)
{
	unsigned long f = flow_of(s, k), h = f, d = 0;

	if (s->hosts) {
		h = f % s->hosts;
		d = (f / s->hosts + f * 7 + 1) % s->hosts;
		addr_add(s->iip.src, s->iip.version, h);
		addr_add(s->iip.dst, s->iip.version, d);
		mac_set(s->ieth.src, h);
		mac_set(s->ieth.dst, d);
		s->il4.sport = (uint16_t)(s->il4.sport + f);
		s->udp.sport = (uint16_t)(49152 + (f % 16384));
	} else if (s->flow_mod > 0) {
		vary_flow(s, f);
	}
	if (s->vnis)
		s->hdr.vni = (uint32_t)((s->hdr.vni + h % s->vnis) & VXGBP_VNI_MAX);
	if (s->groups && !s->gpe) /* GPE: that field is the Next Protocol */
		s->hdr.group = (uint16_t)(s->hdr.group + (h / 3 + h) % s->groups);
	if (s->vteps) {
		addr_add(s->ip.src, s->ip.version, h % s->vteps);
		addr_add(s->ip.dst, s->ip.version, (d + 1) % s->vteps);
	}
	if (s->payload_max > s->payload)
		s->payload += (size_t)(mix64(s->seed ^ ~mix64(k)) %
				       (s->payload_max - s->payload + 1));
}

/* Build frame number k (0-based within the spec) into b->cur; returns its
 * length or <0. */
static int build(const struct spec *s0, unsigned long k, struct bufs *b)
{
	struct spec s = *s0;
	int n;

	vary(&s, k);
	if ((n = build_inner(&s, b)) < 0)
		return n;
	if (s.encap) {
		n = vxgbp_vxlan_build(b->tmp, MAX_FRAME, NULL, &s.ip, &s.udp, &s.hdr,
				      b->cur, b->len);
		if (n < 0)
			return n;
		swap_bufs(b, n, s.ip.version == 4 ? SH_IP4 : SH_IP6);
		patch_outer(&s, b->cur);
	}
	for (unsigned i = s.n_wrap; i-- > 0;)
		if ((n = wrap_one(b, &s.wrap[i])) < 0)
			return n;
	if (b->shape != SH_ETH && (n = add_eth(b, s.eth.dst, s.eth.src, &s.eth)) < 0)
		return n;
	return (int)b->len;
}

/* Linux cooked headers instead of Ethernet's: the MACs go, the source
 * becomes the link-layer address, the type field stays (and what follows
 * it, VLAN tags included).
 *   LINUX_SLL (16):  packet type(2) ARPHRD(2) address length(2) address(8)
 *                    protocol(2)
 *   LINUX_SLL2 (20): protocol(2) reserved(2) ifindex(4) ARPHRD(2) packet
 *                    type(1) address length(1) address(8) */
static int cooked(const struct spec *s, int linktype, struct bufs *b)
{
	size_t hl = linktype == VXGBP_LINK_LINUX_SLL ? 16 : 20;
	uint8_t *h = b->tmp, *src = b->cur + 6, *type = b->cur + 12;

	if (linktype == VXGBP_LINK_ETHERNET)
		return (int)b->len;
	if (b->len < 14 || b->len - 14 > MAX_FRAME - hl)
		return VXGBP_E_NOSPACE;
	memset(h, 0, hl);
	if (linktype == VXGBP_LINK_LINUX_SLL) {
		h[0] = (uint8_t)(s->pkttype >> 8);
		h[1] = (uint8_t)s->pkttype;
		h[3] = 1; /* ARPHRD_ETHER */
		h[5] = 6;
		memcpy(h + 6, src, 6);
		memcpy(h + 14, type, 2);
	} else {
		memcpy(h, type, 2);
		h[4] = (uint8_t)(s->ifindex >> 24);
		h[5] = (uint8_t)(s->ifindex >> 16);
		h[6] = (uint8_t)(s->ifindex >> 8);
		h[7] = (uint8_t)s->ifindex;
		h[9] = 1; /* ARPHRD_ETHER */
		h[10] = (uint8_t)s->pkttype;
		h[11] = 6;
		memcpy(h + 12, src, 6);
	}
	memcpy(h + hl, b->cur + 14, b->len - 14);
	swap_bufs(b, (int)(hl + b->len - 14), SH_ETH);
	return (int)b->len;
}

/* ---- the capture ---- */
struct gen {
	struct pcapw w;
	int linktype;
	struct bufs b;
	long long next_sec, next_nsec; /* the clock runs on across specs */
	int mixing;                    /* --mix: specs are kept, then interleaved */
	struct mixed *mix;
	size_t n_mix, cap_mix;
};

/* Build frame k of spec s and write it with time sec.nsec. */
static int emit_one(struct gen *g, const struct spec *s, unsigned long k, long long sec,
		    long long nsec, const char *where)
{
	int n = build(s, k, &g->b);
	uint32_t caplen;

	if (n >= 0)
		n = cooked(s, g->linktype, &g->b);
	if (n < 0) {
		fprintf(stderr, "%s: %s: cannot build frame: %s\n", prog, where,
			vxgbp_strerror(n));
		return 1;
	}
	caplen = (uint32_t)n;
	if (s->snaplen >= 0 && (uint32_t)s->snaplen < caplen)
		caplen = (uint32_t)s->snaplen;
	if (pcapw_write(&g->w, sec, (uint32_t)nsec, g->b.cur, caplen, (uint32_t)n))
		return 2; /* pcapw_close() says what went wrong */
	return 0;
}

static int emit(struct gen *g, const struct spec *s, const char *where)
{
	long long sec = s->time_set ? s->ts_sec : g->next_sec;
	long long nsec = s->time_set ? s->ts_nsec : g->next_nsec;

	for (unsigned long k = 0; k < s->count; k++) {
		int rc = emit_one(g, s, k, sec, nsec, where);

		if (rc)
			return rc;
		nsec += s->step_nsec;
		sec += nsec / 1000000000;
		nsec %= 1000000000;
	}
	g->next_sec = sec;
	g->next_nsec = nsec;
	return 0;
}

/* --mix: the specs' frames interleaved in a seeded random order (each
 * spec's own frames stay in their order); the clock starts at the first
 * spec's time and runs on by the step of the spec each frame comes from. */
struct mixed {
	struct spec s;
	char where[64];
	unsigned long done;
};

static int emit_mix(struct gen *g, struct mixed *m, size_t n, unsigned long long seed)
{
	unsigned long long left = 0, frame = 0;
	long long sec = n && m[0].s.time_set ? m[0].s.ts_sec : g->next_sec;
	long long nsec = n && m[0].s.time_set ? m[0].s.ts_nsec : g->next_nsec;

	for (size_t i = 0; i < n; i++)
		left += m[i].s.count;
	for (; left; left--, frame++) {
		unsigned long long r = mix64(seed ^ mix64(frame)) % left;
		size_t i = 0;
		int rc;

		while (r >= m[i].s.count - m[i].done) {
			r -= m[i].s.count - m[i].done;
			i++;
		}
		if ((rc = emit_one(g, &m[i].s, m[i].done++, sec, nsec, m[i].where)))
			return rc;
		nsec += m[i].s.step_nsec;
		sec += nsec / 1000000000;
		nsec %= 1000000000;
	}
	return 0;
}

/* --mix: keep the spec for emit_mix(). */
static int keep_spec(struct gen *g, const struct spec *s, const char *where)
{
	if (g->n_mix == g->cap_mix) {
		size_t cap = g->cap_mix ? 2 * g->cap_mix : 16;
		struct mixed *m = realloc(g->mix, cap * sizeof(*m));

		if (!m) {
			fprintf(stderr, "%s: out of memory\n", prog);
			return 2;
		}
		g->mix = m;
		g->cap_mix = cap;
	}
	g->mix[g->n_mix].s = *s;
	g->mix[g->n_mix].done = 0;
	snprintf(g->mix[g->n_mix].where, sizeof(g->mix[0].where), "%s", where);
	g->n_mix++;
	return 0;
}

static int run_spec(struct gen *g, const char *text, const char *where)
{
	struct spec s;
	char err[256];

	if (spec_parse(&s, text, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", prog, where, err);
		return 1;
	}
	return g->mixing ? keep_spec(g, &s, where) : emit(g, &s, where);
}

struct specs {
	struct gen *g;
	const char *file;
};

/* One line of a spec file (lines.h): '#' to its end a comment. */
static int spec_line(void *ctx, unsigned long lineno, char *line, size_t len)
{
	struct specs *sp = ctx;
	char *hash = strchr(line, '#');
	char where[4200];

	(void)len;
	if (hash)
		*hash = '\0';
	if (strspn(line, " \t\r\n") == strlen(line))
		return 0;
	snprintf(where, sizeof(where), "%s:%lu", sp->file, lineno);
	return run_spec(sp->g, line, where);
}

/* Every spec of a spec file ('-': standard input), one a line. */
static int run_specfile(struct gen *g, const char *specfile)
{
	FILE *sf = strcmp(specfile, "-") ? fopen(specfile, "r") : stdin;
	struct specs sp = { g, specfile };
	int rc;

	if (!sf) {
		fprintf(stderr, "%s: %s: %s\n", prog, specfile, strerror(errno));
		return 2;
	}
	rc = lines_read(sf, prog, specfile, 4095, spec_line, &sp);
	if (sf != stdin)
		fclose(sf);
	return rc < 0 ? 2 : rc;
}

struct args {
	const char *out, *specfile;
	unsigned flags; /* PCAPW_* */
	int linktype;
	int mix;
	unsigned long long mix_seed;
};

static int parse_link(const char *val)
{
	static const char *const w[] = { "ether", "sll", "sll2", NULL };
	static const int lt[] = { VXGBP_LINK_ETHERNET, VXGBP_LINK_LINUX_SLL,
				  VXGBP_LINK_LINUX_SLL2 };
	unsigned long long v;
	int i = pick(val, w);

	if (i >= 0)
		return lt[i];
	if (cli_parse_num(val, 0xffff, &v))
		return -1;
	for (i = 0; i < 3; i++)
		if (v == (unsigned long long)lt[i])
			return lt[i];
	return -1;
}

/* -1: go on; else the exit status. */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option lopts[] = {
		{ "pcapng", no_argument, NULL, 'n' },
		{ "link", required_argument, NULL, 'l' },
		{ "force", no_argument, NULL, 'F' },
		{ "mix", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "w:f:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			a->out = optarg;
			break;
		case 'f':
			a->specfile = optarg;
			break;
		case 'n':
			a->flags |= PCAPW_PCAPNG;
			break;
		case 'l':
			if ((a->linktype = parse_link(optarg)) < 0) {
				fprintf(stderr, "%s: --link: ether, sll or sll2, not '%s'\n",
					prog, optarg);
				return 2;
			}
			break;
		case 'F':
			a->flags |= PCAPW_FORCE;
			break;
		case 'm':
			if (cli_parse_num(optarg, ~0ull, &a->mix_seed)) {
				fprintf(stderr, "%s: --mix: a number (the seed), not '%s'\n",
					prog, optarg);
				return 2;
			}
			a->mix = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("gbpgen (vxgbp) %s\n", VXGBP_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!a->out || (!a->specfile && optind == argc)) {
		usage(stderr);
		return 2;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct args a = { .flags = PCAPW_STDOUT, .linktype = VXGBP_LINK_ETHERNET };
	struct gen g = { .next_sec = 1700000000 };
	const char *inputs[2] = { NULL, NULL };
	struct pcapw_opts o = { .linktype = VXGBP_LINK_ETHERNET, .inputs = inputs,
				.input_noun = "the spec file" };
	char errbuf[PCAPW_ERRBUF_SIZE];
	int rc = parse_args(argc, argv, &a);

	if (rc >= 0)
		return rc;
	inputs[0] = a.specfile;
	o.flags = a.flags;
	o.linktype = g.linktype = a.linktype;
	g.mixing = a.mix;
	g.b.cur = malloc(MAX_FRAME);
	g.b.tmp = malloc(MAX_FRAME);
	g.b.pay = malloc(MAX_PAYLOAD);
	if (!g.b.cur || !g.b.tmp || !g.b.pay) {
		fprintf(stderr, "%s: out of memory\n", prog);
		rc = 2;
		goto out;
	}
	if (pcapw_open(&g.w, a.out, &o, errbuf) < 0) {
		fprintf(stderr, "%s: %s\n", prog, errbuf);
		rc = 2;
		goto out;
	}
	rc = a.specfile ? run_specfile(&g, a.specfile) : 0;
	for (int i = optind; !rc && i < argc; i++) {
		char where[32];

		snprintf(where, sizeof(where), "spec %d", i - optind + 1);
		rc = run_spec(&g, argv[i], where);
	}
	if (!rc && g.mixing)
		rc = emit_mix(&g, g.mix, g.n_mix, a.mix_seed);
	if (pcapw_close(&g.w, rc == 0, errbuf) < 0) {
		fprintf(stderr, "%s: %s\n", prog, errbuf);
		rc = rc ? rc : 2;
	}
out:
	free(g.b.cur);
	free(g.b.tmp);
	free(g.b.pay);
	free(g.mix);
	return rc;
}
