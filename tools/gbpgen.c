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

#include "cli.h"
#include "pcap_writer.h"

#define MAX_FRAME 16384

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
	uint8_t outer_opts[40], inner_opts[40];
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
}

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

static int set_csum(struct spec *s, const struct spec_key *k, const char *val)
{
	static const char *const w[] = { "compute", "zero", "bad", NULL };
	static const int mode[] = { VXGBP_CSUM_COMPUTE, VXGBP_CSUM_ZERO, VXGBP_CSUM_BAD };
	int i = pick(val, w);

	(void)k;
	if (i < 0)
		return -1;
	s->udp.csum_mode = mode[i];
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
	KEY("Outer", "csum", "compute|zero|bad", "the UDP checksum (compute)", set_csum, 0),
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
	NUM("Inner", "payload", "BYTES", "payload length (0)", payload, 9000),
	NUM("Inner", "ittl", "N", "TTL / hop limit (64)", iip.ttl, 255),
	KEY("Inner", "iipopt", "HEX", "raw IPv4 options or IPv6 hop-by-hop options",
	    set_ipopt, KEY_INNER),
	NUM("Broken", "ip-len", "N", "overwrite the outer IP total (IPv4) or payload "
	    "(IPv6) length after building", ip_len, 0xffff),
	NUM("Broken", "udp-len", "N", "overwrite the outer UDP length after building",
	    udp_len, 0xffff),
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
"Usage: gbpgen -w FILE [--pcapng] [--force] [-f SPECFILE] [SPEC ...]\n"
"Write a capture of VXLAN(-GBP) frames.  Each SPEC (one argument, or one line\n"
"of SPECFILE, '#' comments) is space-separated key=value; later keys win.\n"
"\n"
"-w FILE      output ('-' for standard output); an existing file is kept\n"
"             unless --force is given, the spec file is never overwritten;\n"
"             the file appears only when complete\n"
"--pcapng     write pcapng instead of classic pcap (microseconds)\n"
"Exit status: 0 written, 1 a spec could not be built, 2 usage or I/O error.\n"
"\n"
"Keys (defaults in parentheses):\n");
	usage_keys(f);
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

/* Build frame number k (0-based within the spec); returns length or <0. */
static int build(const struct spec *s0, unsigned long k, uint8_t *out, size_t cap)
{
	uint8_t inner[MAX_FRAME], pay[9000];
	struct spec s = *s0;
	int n;

	if (s.flow_mod > 0) { /* vary the inner source across flows */
		unsigned long f = k % (unsigned long)s.flow_mod;
		size_t at = s.iip.version == 4 ? 3 : 15;

		s.iip.src[at] = (uint8_t)(s.iip.src[at] + f);
		s.iip.src[at - 1] = (uint8_t)(s.iip.src[at - 1] + (f >> 8));
		s.iip.src[at - 2] = (uint8_t)(s.iip.src[at - 2] + (f >> 16));
		s.ieth.src[5] = (uint8_t)f;
		s.ieth.src[4] = (uint8_t)(f >> 8);
		s.ieth.src[3] = (uint8_t)(f >> 16);
		s.il4.sport = (uint16_t)(s.il4.sport + f);
		s.udp.sport = (uint16_t)(49152 + (f % 16384));
	}
	memset(pay, 0, s.payload);
	for (size_t i = 0; i < s.payload; i++)
		pay[i] = (uint8_t)i;
	if (s.inner_arp)
		n = build_arp(inner, sizeof(inner), &s);
	else
		n = vxgbp_frame_build(inner, sizeof(inner), &s.ieth, &s.iip, &s.il4, pay, s.payload);
	if (n < 0)
		return n;
	if (!s.encap) {
		if ((size_t)n > cap)
			return VXGBP_E_NOSPACE;
		memcpy(out, inner, (size_t)n);
		return n;
	}
	n = vxgbp_vxlan_build(out, cap, &s.eth, &s.ip, &s.udp, &s.hdr, inner, (size_t)n);
	if (n > 0 && s.ttl_zero) {
		size_t l3 = 14 + 4 * (size_t)s.eth.n_vlan;

		if (s.ip.version == 4) {
			size_t ihl = (size_t)(out[l3] & 0x0f) * 4;
			uint16_t c;

			out[l3 + 8] = 0;
			out[l3 + 10] = 0;
			out[l3 + 11] = 0;
			c = vxgbp_csum_fold(vxgbp_csum_add(0, out + l3, ihl));
			out[l3 + 10] = (uint8_t)(c >> 8);
			out[l3 + 11] = (uint8_t)c;
		} else {
			out[l3 + 7] = 0;
		}
	}
	if (n > 0 && (s.ip_len >= 0 || s.udp_len >= 0)) {
		/* deliberately contradicting lengths; checksums stay as built */
		size_t l3 = 14 + 4 * (size_t)s.eth.n_vlan;
		size_t l4 = l3 + (s.ip.version == 4 ? 20 : 40) +
			    (s.ip.version == 4 ? (s.ip.options_len + 3) / 4 * 4
					       : (s.ip.options_len ? (s.ip.options_len + 9) / 8 * 8 : 0));

		if (s.ip_len >= 0) {
			out[l3 + (s.ip.version == 4 ? 2 : 4)] = (uint8_t)(s.ip_len >> 8);
			out[l3 + (s.ip.version == 4 ? 3 : 5)] = (uint8_t)s.ip_len;
		}
		if (s.udp_len >= 0) {
			out[l4 + 4] = (uint8_t)(s.udp_len >> 8);
			out[l4 + 5] = (uint8_t)s.udp_len;
		}
	}
	return n;
}

/* ---- the capture ---- */
struct gen {
	struct pcapw w;
	long long next_sec, next_nsec; /* the clock runs on across specs */
};

static int emit(struct gen *g, const struct spec *s, const char *where)
{
	uint8_t frame[MAX_FRAME];
	long long sec = s->time_set ? s->ts_sec : g->next_sec;
	long long nsec = s->time_set ? s->ts_nsec : g->next_nsec;

	for (unsigned long k = 0; k < s->count; k++) {
		int n = build(s, k, frame, sizeof(frame));
		uint32_t caplen;

		if (n < 0) {
			fprintf(stderr, "%s: %s: cannot build frame: %s\n", prog, where,
				vxgbp_strerror(n));
			return 1;
		}
		caplen = (uint32_t)n;
		if (s->snaplen >= 0 && (uint32_t)s->snaplen < caplen)
			caplen = (uint32_t)s->snaplen;
		if (pcapw_write(&g->w, sec, (uint32_t)nsec, frame, caplen, (uint32_t)n))
			return 2; /* pcapw_close() says what went wrong */
		nsec += s->step_nsec;
		sec += nsec / 1000000000;
		nsec %= 1000000000;
	}
	g->next_sec = sec;
	g->next_nsec = nsec;
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
	return emit(g, &s, where);
}

/* Every spec of a spec file ('-': standard input), one a line. */
static int run_specfile(struct gen *g, const char *specfile)
{
	FILE *sf = strcmp(specfile, "-") ? fopen(specfile, "r") : stdin;
	char line[4096], where[4200];
	unsigned long lineno = 0;
	int rc = 0;

	if (!sf) {
		fprintf(stderr, "%s: %s: %s\n", prog, specfile, strerror(errno));
		return 2;
	}
	while (!rc && fgets(line, sizeof(line), sf)) {
		char *hash = strchr(line, '#');

		lineno++;
		if (hash)
			*hash = '\0';
		if (strspn(line, " \t\r\n") == strlen(line))
			continue;
		snprintf(where, sizeof(where), "%s:%lu", specfile, lineno);
		rc = run_spec(g, line, where);
	}
	if (sf != stdin)
		fclose(sf);
	return rc;
}

struct args {
	const char *out, *specfile;
	unsigned flags; /* PCAPW_* */
};

/* -1: go on; else the exit status. */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option lopts[] = {
		{ "pcapng", no_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'F' },
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
		case 'F':
			a->flags |= PCAPW_FORCE;
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
	struct args a = { .flags = PCAPW_STDOUT };
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
	if (pcapw_open(&g.w, a.out, &o, errbuf) < 0) {
		fprintf(stderr, "%s: %s\n", prog, errbuf);
		return 2;
	}
	rc = a.specfile ? run_specfile(&g, a.specfile) : 0;
	for (int i = optind; !rc && i < argc; i++) {
		char where[32];

		snprintf(where, sizeof(where), "spec %d", i - optind + 1);
		rc = run_spec(&g, argv[i], where);
	}
	if (pcapw_close(&g.w, rc == 0, errbuf) < 0) {
		fprintf(stderr, "%s: %s\n", prog, errbuf);
		rc = rc ? rc : 2;
	}
	return rc;
}
