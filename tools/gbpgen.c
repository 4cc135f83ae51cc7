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
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <vxgbp/vxgbp.h>

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

static void usage(FILE *f)
{
	fprintf(f,
"Usage: gbpgen -w FILE [--pcapng] [--force] [-f SPECFILE] [SPEC ...]\n"
"Write a capture of VXLAN(-GBP) frames.  Each SPEC (one argument, or one line\n"
"of SPECFILE, '#' comments) is space-separated key=value; later keys win.\n"
"\n"
"Record:   count=N  time=SEC[.FRAC] (default 1700000000)  step=NSEC (1000000)\n"
"          snaplen=N (cut the record short)  flows=N (vary inner addresses)\n"
"VXLAN:    vni=N  gbp=ID (sets G and the ID)  g= i= d= a= (0|1)\n"
"          id=N (the ID field, with or without G)  flags=0xHHHH (raw bytes 0-1)\n"
"          rsvd=N (byte 7)  mark=M (header as Linux 6.12 sends skb->mark M)\n"
"          encap=vxlan|none (none: the inner frame alone, not encapsulated)\n"
"Outer:    outer-smac= outer-dmac= outer-src=ADDR outer-dst=ADDR (IPv4 or IPv6)\n"
"          vlan=TCI[,TCI] qinq=1 (first tag 802.1ad) ttl= (64) ip-id= df=0|1\n"
"          sport= dport= (4789)  csum=compute|zero|bad  ipopt=HEX (raw IPv4\n"
"          options or IPv6 hop-by-hop options)\n"
"Inner:    inner-smac= inner-dmac= inner-src= inner-dst= ivlan=TCI\n"
"          proto=icmp|udp|tcp|arp  isport= idport=  tcp-flags=N  payload=BYTES\n"
"          ittl= (64)\n"
"          iipopt=HEX\n"
"Broken:   ip-len=N udp-len=N (overwrite the outer IP total/payload length or\n"
"          UDP length field after building: malformed frames)\n"
"\n"
"-w FILE      output ('-' for standard output); an existing file is kept\n"
"             unless --force is given\n"
"--pcapng     write pcapng instead of classic pcap (microseconds)\n"
"Exit status: 0 written, 1 a spec could not be built, 2 usage or I/O error.\n");
}

static int parse_mac(const char *s, uint8_t m[6])
{
	unsigned v[6];
	char tail;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		   &tail) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		if (v[i] > 255)
			return -1;
		m[i] = (uint8_t)v[i];
	}
	return 0;
}

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

static int parse_num(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *v > max || s[0] == '-')
		return -1;
	return 0;
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

/* Apply one key=value.  Returns 0 or -1 with a message in err. */
static int spec_set(struct spec *s, const char *key, const char *val, char *err, size_t errlen)
{
	unsigned long long v;
	int fam;
	size_t n;

#define NUM(max) do { if (parse_num(val, (max), &v)) goto bad; } while (0)
	if (!strcmp(key, "time"))
		s->time_set = 1;
	if (!strcmp(key, "count")) {
		NUM(100000000);
		s->count = v;
	} else if (!strcmp(key, "time")) {
		char *dot;
		char frac[10] = "000000000";

		if (parse_num(val, ~0ull, &v) == 0) {
			s->ts_sec = (long long)v;
			s->ts_nsec = 0;
		} else if ((dot = strchr(val, '.')) && dot - val < 20) {
			char whole[24];

			memcpy(whole, val, (size_t)(dot - val));
			whole[dot - val] = '\0';
			if (parse_num(whole, ~0ull, &v) || strlen(dot + 1) > 9 || !dot[1])
				goto bad;
			memcpy(frac, dot + 1, strlen(dot + 1));
			s->ts_sec = (long long)v;
			s->ts_nsec = strtol(frac, NULL, 10);
		} else {
			goto bad;
		}
	} else if (!strcmp(key, "step")) {
		NUM(1000000000000ull);
		s->step_nsec = (long long)v;
	} else if (!strcmp(key, "snaplen")) {
		NUM(MAX_FRAME);
		s->snaplen = (long)v;
	} else if (!strcmp(key, "ip-len") || !strcmp(key, "udp-len")) {
		NUM(0xffff);
		*(key[0] == 'i' ? &s->ip_len : &s->udp_len) = (long)v;
	} else if (!strcmp(key, "flows")) {
		NUM(16777216);
		s->flow_mod = (long long)v;
	} else if (!strcmp(key, "vni")) {
		NUM(VXGBP_VNI_MAX);
		s->hdr.vni = (uint32_t)v;
	} else if (!strcmp(key, "gbp")) {
		NUM(0xffff);
		s->hdr.flags |= VXGBP_F_G;
		s->hdr.group = (uint16_t)v;
	} else if (!strcmp(key, "id")) {
		NUM(0xffff);
		s->hdr.group = (uint16_t)v;
	} else if (!strcmp(key, "g") || !strcmp(key, "i") || !strcmp(key, "d") ||
		   !strcmp(key, "a")) {
		uint16_t bit = key[0] == 'g' ? VXGBP_F_G : key[0] == 'i' ? VXGBP_F_I
			       : key[0] == 'd' ? VXGBP_F_D : VXGBP_F_A;
		NUM(1);
		if (v)
			s->hdr.flags |= bit;
		else
			s->hdr.flags &= (uint16_t)~bit;
	} else if (!strcmp(key, "flags")) {
		NUM(0xffff);
		s->hdr.flags = (uint16_t)v;
	} else if (!strcmp(key, "rsvd")) {
		NUM(0xff);
		s->hdr.rsvd = (uint8_t)v;
	} else if (!strcmp(key, "mark")) {
		NUM(0xffffffffu);
		vxgbp_mark_to_hdr(&s->hdr, (uint32_t)v, s->hdr.vni, 0);
	} else if (!strcmp(key, "encap")) {
		if (!strcmp(val, "vxlan"))
			s->encap = 1;
		else if (!strcmp(val, "none"))
			s->encap = 0;
		else
			goto bad;
	} else if (!strcmp(key, "outer-smac") || !strcmp(key, "outer-dmac") ||
		   !strcmp(key, "inner-smac") || !strcmp(key, "inner-dmac")) {
		struct vxgbp_eth_spec *e = key[0] == 'o' ? &s->eth : &s->ieth;

		if (parse_mac(val, key[6] == 's' ? e->src : e->dst))
			goto bad;
	} else if (!strcmp(key, "outer-src") || !strcmp(key, "outer-dst") ||
		   !strcmp(key, "inner-src") || !strcmp(key, "inner-dst")) {
		struct vxgbp_ip_spec *ip = key[0] == 'o' ? &s->ip : &s->iip;
		uint8_t a[16];

		if ((fam = parse_ip(val, a)) < 0)
			goto bad;
		if (fam != ip->version) { /* switching family resets the other address */
			memset(ip->src, 0, 16);
			memset(ip->dst, 0, 16);
			ip->version = (uint8_t)fam;
			if (s->il4.proto == 1 || s->il4.proto == 58)
				if (ip == &s->iip)
					s->il4.proto = fam == 6 ? 58 : 1;
			if (ip == &s->iip && (s->il4.proto == 58 || s->il4.proto == 1))
				s->il4.icmp_type = fam == 6 ? 128 : 8;
		}
		memcpy(!strcmp(key + 6, "src") ? ip->src : ip->dst, a, 16);
	} else if (!strcmp(key, "vlan") || !strcmp(key, "ivlan")) {
		struct vxgbp_eth_spec *e = key[0] == 'v' ? &s->eth : &s->ieth;
		char buf[64], *tok, *save = NULL;

		if (strlen(val) >= sizeof(buf))
			goto bad;
		strcpy(buf, val);
		e->n_vlan = 0;
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (e->n_vlan >= VXGBP_MAX_VLAN || parse_num(tok, 0xffff, &v))
				goto bad;
			e->vlan_tci[e->n_vlan++] = (uint16_t)v;
		}
	} else if (!strcmp(key, "qinq")) {
		NUM(1);
		s->eth.vlan_tpid[0] = v ? 0x88a8 : 0x8100;
	} else if (!strcmp(key, "ittl")) {
		NUM(255);
		s->iip.ttl = (uint8_t)v;
	} else if (!strcmp(key, "ttl")) {
		NUM(255);
		s->ip.ttl = (uint8_t)v;
		s->ttl_zero = v == 0; /* the builder sends 0 as 64: patched after */
	} else if (!strcmp(key, "ip-id")) {
		NUM(0xffff);
		s->ip.ip_id = (uint16_t)v;
	} else if (!strcmp(key, "df")) {
		NUM(1);
		s->ip.dont_frag = (uint8_t)v;
	} else if (!strcmp(key, "sport") || !strcmp(key, "dport")) {
		NUM(0xffff);
		*(key[0] == 's' ? &s->udp.sport : &s->udp.dport) = (uint16_t)v;
	} else if (!strcmp(key, "csum")) {
		if (!strcmp(val, "compute"))
			s->udp.csum_mode = VXGBP_CSUM_COMPUTE;
		else if (!strcmp(val, "zero"))
			s->udp.csum_mode = VXGBP_CSUM_ZERO;
		else if (!strcmp(val, "bad"))
			s->udp.csum_mode = VXGBP_CSUM_BAD;
		else
			goto bad;
	} else if (!strcmp(key, "ipopt") || !strcmp(key, "iipopt")) {
		int outer = key[0] == 'i' && key[1] == 'p';
		uint8_t *buf = outer ? s->outer_opts : s->inner_opts;
		struct vxgbp_ip_spec *ip = outer ? &s->ip : &s->iip;

		if (parse_hex(val, buf, sizeof(s->outer_opts), &n))
			goto bad;
		ip->options = buf;
		ip->options_len = n;
	} else if (!strcmp(key, "proto")) {
		s->inner_arp = 0;
		if (!strcmp(val, "icmp")) {
			s->il4.proto = s->iip.version == 6 ? 58 : 1;
			s->il4.icmp_type = s->iip.version == 6 ? 128 : 8;
		} else if (!strcmp(val, "udp")) {
			s->il4.proto = 17;
			s->il4.sport = 40000;
			s->il4.dport = 53;
		} else if (!strcmp(val, "tcp")) {
			s->il4.proto = 6;
			s->il4.sport = 40000;
			s->il4.dport = 80;
			s->il4.tcp_flags = 0x02;
		} else if (!strcmp(val, "arp")) {
			s->inner_arp = 1;
		} else {
			goto bad;
		}
	} else if (!strcmp(key, "isport") || !strcmp(key, "idport")) {
		NUM(0xffff);
		*(key[1] == 's' ? &s->il4.sport : &s->il4.dport) = (uint16_t)v;
	} else if (!strcmp(key, "tcp-flags")) {
		NUM(0xff);
		s->il4.tcp_flags = (uint8_t)v;
	} else if (!strcmp(key, "payload")) {
		NUM(9000);
		s->payload = v;
	} else {
		snprintf(err, errlen, "unknown key '%s'", key);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errlen, "bad value '%s' for %s", val, key);
	return -1;
#undef NUM
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
static size_t build_arp(uint8_t *b, const struct spec *s)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	size_t off = 0;

	memcpy(b, bcast, 6);
	memcpy(b + 6, s->ieth.src, 6);
	off = 12;
	for (unsigned i = 0; i < s->ieth.n_vlan; i++) {
		b[off] = 0x81;
		b[off + 1] = 0x00;
		b[off + 2] = (uint8_t)(s->ieth.vlan_tci[i] >> 8);
		b[off + 3] = (uint8_t)s->ieth.vlan_tci[i];
		off += 4;
	}
	static const uint8_t hdr[8] = { 0x08, 0x06, 0x00, 0x01, 0x08, 0x00, 6, 4 };
	memcpy(b + off, hdr, 8);
	b[off + 8] = 0;
	b[off + 9] = 1; /* request */
	memcpy(b + off + 10, s->ieth.src, 6);
	memcpy(b + off + 16, s->iip.src, 4);
	memset(b + off + 20, 0, 6);
	memcpy(b + off + 26, s->iip.dst, 4);
	return off + 30;
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
		n = (int)build_arp(inner, &s);
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

/* ---- capture writers ---- */
static void le16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *b, uint32_t v)
{
	le16(b, (uint16_t)v);
	le16(b + 2, (uint16_t)(v >> 16));
}

static int write_all(FILE *f, const void *b, size_t n)
{
	return fwrite(b, 1, n, f) == n ? 0 : -1;
}

static int write_header(FILE *f, int pcapng)
{
	uint8_t h[48];

	if (!pcapng) {
		le32(h, 0xa1b2c3d4);
		le16(h + 4, 2);
		le16(h + 6, 4);
		le32(h + 8, 0);
		le32(h + 12, 0);
		le32(h + 16, 262144);
		le32(h + 20, VXGBP_LINK_ETHERNET);
		return write_all(f, h, 24);
	}
	/* Section Header Block, then one Interface Description Block */
	le32(h, 0x0a0d0d0a);
	le32(h + 4, 28);
	le32(h + 8, 0x1a2b3c4d);
	le16(h + 12, 1);
	le16(h + 14, 0);
	le32(h + 16, 0xffffffff);
	le32(h + 20, 0xffffffff);
	le32(h + 24, 28);
	le32(h + 28, 1);
	le32(h + 32, 20);
	le16(h + 36, VXGBP_LINK_ETHERNET);
	le16(h + 38, 0);
	le32(h + 40, 262144);
	le32(h + 44, 20);
	return write_all(f, h, 48);
}

static int write_record(FILE *f, int pcapng, long long sec, long nsec,
			const uint8_t *b, uint32_t caplen, uint32_t len)
{
	uint8_t h[28];
	static const uint8_t zero[4];

	if (!pcapng) {
		le32(h, (uint32_t)sec);
		le32(h + 4, (uint32_t)(nsec / 1000));
		le32(h + 8, caplen);
		le32(h + 12, len);
		return write_all(f, h, 16) || write_all(f, b, caplen);
	}
	uint32_t pad = (4 - caplen % 4) % 4, total = 32 + caplen + pad;
	uint64_t us = (uint64_t)sec * 1000000u + (uint64_t)nsec / 1000;

	le32(h, 6);
	le32(h + 4, total);
	le32(h + 8, 0);
	le32(h + 12, (uint32_t)(us >> 32));
	le32(h + 16, (uint32_t)us);
	le32(h + 20, caplen);
	le32(h + 24, len);
	if (write_all(f, h, 28) || write_all(f, b, caplen) || write_all(f, zero, pad))
		return -1;
	le32(h, total);
	return write_all(f, h, 4);
}

struct writer {
	FILE *f;
	int pcapng;
	unsigned long long frames;
	long long next_sec, next_nsec; /* the clock runs on across specs */
};

static int emit(struct writer *w, const struct spec *s, const char *where)
{
	uint8_t frame[MAX_FRAME];
	long long sec = s->time_set ? s->ts_sec : w->next_sec;
	long long nsec = s->time_set ? s->ts_nsec : w->next_nsec;

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
		if (write_record(w->f, w->pcapng, sec, (long)nsec, frame, caplen, (uint32_t)n)) {
			fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
			return 2;
		}
		w->frames++;
		nsec += s->step_nsec;
		sec += nsec / 1000000000;
		nsec %= 1000000000;
	}
	w->next_sec = sec;
	w->next_nsec = nsec;
	return 0;
}

static int run_spec(struct writer *w, const char *text, const char *where)
{
	struct spec s;
	char err[256];

	if (spec_parse(&s, text, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", prog, where, err);
		return 1;
	}
	return emit(w, &s, where);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "pcapng", no_argument, NULL, 'n' },
		{ "force", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *specfile = NULL;
	char tmp[4096] = "";
	struct writer w = { .next_sec = 1700000000 };
	int c, force = 0, rc = 0;

	while ((c = getopt_long(argc, argv, "w:f:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			out = optarg;
			break;
		case 'f':
			specfile = optarg;
			break;
		case 'n':
			w.pcapng = 1;
			break;
		case 'F':
			force = 1;
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
	if (!out || (!specfile && optind == argc)) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(out, "-")) {
		w.f = stdout;
	} else {
		struct stat st;
		int fd;

		if (!force && stat(out, &st) == 0) {
			fprintf(stderr, "%s: %s exists; use --force to overwrite it\n", prog, out);
			return 2;
		}
		if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", out) >= sizeof(tmp)) {
			fprintf(stderr, "%s: %s: name too long\n", prog, out);
			return 2;
		}
		if ((fd = mkstemp(tmp)) < 0 || !(w.f = fdopen(fd, "wb"))) {
			fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
			return 2;
		}
		{ /* mkstemp makes 0600; give the file the usual mode */
			mode_t mask = umask(0);

			umask(mask);
			fchmod(fd, 0666 & ~mask);
		}
	}
	if (write_header(w.f, w.pcapng)) {
		fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
		rc = 2;
	}
	if (!rc && specfile) {
		FILE *sf = strcmp(specfile, "-") ? fopen(specfile, "r") : stdin;
		char line[4096], where[4200];
		unsigned long lineno = 0;

		if (!sf) {
			fprintf(stderr, "%s: %s: %s\n", prog, specfile, strerror(errno));
			rc = 2;
		}
		while (!rc && sf && fgets(line, sizeof(line), sf)) {
			char *hash = strchr(line, '#');

			lineno++;
			if (hash)
				*hash = '\0';
			if (strspn(line, " \t\r\n") == strlen(line))
				continue;
			snprintf(where, sizeof(where), "%s:%lu", specfile, lineno);
			rc = run_spec(&w, line, where);
		}
		if (sf && sf != stdin)
			fclose(sf);
	}
	for (int i = optind; !rc && i < argc; i++) {
		char where[32];

		snprintf(where, sizeof(where), "spec %d", i - optind + 1);
		rc = run_spec(&w, argv[i], where);
	}
	if (fflush(w.f) || (w.f != stdout && fclose(w.f))) {
		fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
		rc = rc ? rc : 2;
	}
	if (tmp[0]) {
		if (rc)
			unlink(tmp);
		else if (rename(tmp, out)) {
			fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
			unlink(tmp);
			rc = 2;
		}
	}
	return rc;
}
