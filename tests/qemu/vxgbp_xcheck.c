/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vxgbp_xcheck - cross-check booted Linux kernels against libvxgbp.
 *
 *   vxgbp_xcheck wire  PCAP RULES FIXES
 *       Every VXLAN frame of a wire capture (QEMU filter-dump) must match a
 *       rule of RULES, which names the mark its sender set.  For each frame:
 *       decoding the 8 captured VXLAN bytes and re-encoding them with
 *       libvxgbp gives the same 8 bytes; the header libvxgbp predicts for
 *       the sender's mark (vxgbp_mark_to_hdr(), strict G when FIXES has
 *       "gbit") encodes to exactly the captured bytes; and
 *       vxgbp_mark_from_hdr() of the captured header gives back the mark's
 *       GBP bits.
 *   vxgbp_xcheck build OUT.pcap SPECS
 *       Build the frames of SPECS with libvxgbp (vxgbp_vxlan_build()).
 *   vxgbp_xcheck inject PORT PCAP
 *       Send every frame of PCAP as one UDP datagram to 127.0.0.1:PORT,
 *       which is how a QEMU dgram netdev receives Ethernet frames.
 *   vxgbp_xcheck prune IN.pcap OUT.pcap
 *       Keep only the VXLAN frames of IN (for fixtures/qemu/), with fixed
 *       timestamps (frame n at 1700000000 s + n ms).
 *   vxgbp_xcheck marks SPECS OBSERVED FIXES PRIOR
 *       Compare the marks a guest read back (lines "DPORT MARK") with the
 *       ones vxgbp_verdict_linux() predicts for each injected frame (PRIOR:
 *       the mark the underlay packet carried in the guest).
 *   vxgbp_xcheck headers PCAP
 *       One line per VXLAN frame: "frame N vni V inner CLASS dport P
 *       hdr XXXXXXXX XXXXXXXX g 0|1 d 0|1 a 0|1 group 0xGGGG mark 0xMMMMMMMM"
 *       (mark = what a gbp device sets from the header).
 *
 * FIXES: the ids of qemu/fixes the kernel (the sender's, for wire) carries,
 * comma-separated, or "none"; "all" = every fix.
 *
 * RULES lines (first match wins, '#' comments):
 *   [vni=N] [idport=N (inner UDP/TCP destination port)] [iproto=udp|igmp|mld|arp|icmp]
 *   mark=M [dev=gbp|plain] [fix=ID] [min=N (at least N frames must match)]
 * "fix=ID": kernels without the fix ID are expected to show the bug instead
 * (a G bit and a non-zero Group Policy ID the sender never set).
 * SPECS lines: VNI FLAGS GROUP RSVD DEV(gbp|plain) IDPORT [DPORT] [smac=MAC]
 *   [src=A.B.C.D]  (inner source MAC, default 02:99:00:00:II:II from IDPORT;
 *   outer source, default the injector 192.0.2.9)
 *
 * Exit status: 0 all checks pass, 1 a check failed, 2 usage or I/O error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

#define MAX_RULES 256
#define MAX_FRAME 65536

/* ---- classic pcap ---------------------------------------------------- */
struct pcap {
	FILE *f;
	int swap;
	uint32_t linktype;
};

static uint32_t sw32(const struct pcap *p, uint32_t v)
{
	if (!p->swap)
		return v;
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static int pcap_open(struct pcap *p, const char *path)
{
	unsigned char gh[24];
	uint32_t magic;

	p->f = fopen(path, "rb");
	if (!p->f) {
		fprintf(stderr, "vxgbp_xcheck: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fread(gh, 1, sizeof(gh), p->f) != sizeof(gh)) {
		fprintf(stderr, "vxgbp_xcheck: %s: no pcap header\n", path);
		fclose(p->f);
		return -1;
	}
	memcpy(&magic, gh, 4);
	if (magic == 0xa1b2c3d4u || magic == 0xa1b23c4du) {
		p->swap = 0;
	} else if (magic == 0xd4c3b2a1u || magic == 0x4d3cb2a1u) {
		p->swap = 1;
	} else {
		fprintf(stderr, "vxgbp_xcheck: %s: not a classic pcap file\n", path);
		fclose(p->f);
		return -1;
	}
	memcpy(&p->linktype, gh + 20, 4);
	p->linktype = sw32(p, p->linktype) & 0xffffu;
	return 0;
}

/* The parse options for a guest's wire: its link type and the default
 * VXLAN ports plus 4790, where the scenarios run a second VXLAN socket. */
static void wire_opts(struct vxgbp_parse_opts *opts, const struct pcap *pc)
{
	vxgbp_parse_opts_init(opts);
	opts->linktype = (int)pc->linktype;
	vxgbp_parse_opts_add_port(opts, 4790);
}

/* 1 frame read, 0 end, -1 error */
static int pcap_next(struct pcap *p, unsigned char *buf, uint32_t *caplen, uint32_t *wirelen)
{
	unsigned char rh[16];
	size_t n = fread(rh, 1, sizeof(rh), p->f);
	uint32_t incl, orig;

	if (n == 0)
		return 0;
	if (n != sizeof(rh))
		return -1;
	memcpy(&incl, rh + 8, 4);
	memcpy(&orig, rh + 12, 4);
	incl = sw32(p, incl);
	orig = sw32(p, orig);
	if (incl > MAX_FRAME)
		return -1;
	if (fread(buf, 1, incl, p->f) != incl)
		return -1;
	*caplen = incl;
	*wirelen = orig;
	return 1;
}

static int pcap_write_header(FILE *f)
{
	uint32_t h[6] = { 0xa1b2c3d4u, 0x00040002u, 0, 0, MAX_FRAME, VXGBP_LINK_ETHERNET };

	/* version 2.4 as two little-endian 16-bit fields */
	h[1] = 2u | (4u << 16);
	return fwrite(h, sizeof(h), 1, f) == 1 ? 0 : -1;
}

/* record idx at 1700000000 s + idx ms: reproducible files */
static int pcap_write(FILE *f, const void *frame, uint32_t len, unsigned long idx)
{
	uint32_t r[4] = { 1700000000u + (uint32_t)(idx / 1000), (uint32_t)(idx % 1000) * 1000u, len,
			  len };

	if (fwrite(r, sizeof(r), 1, f) != 1 || fwrite(frame, 1, len, f) != len)
		return -1;
	return 0;
}

/* ---- helpers ----------------------------------------------------------- */
static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || *s == '\0' || *end != '\0' || x > 0xffffffffull)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* does the comma-separated FIXES list carry fix ID ("all": every fix) */
static int has_fix(const char *fixes, const char *id)
{
	size_t n = strlen(id);
	const char *p = fixes;

	if (!strcmp(fixes, "all"))
		return 1;
	while (p && *p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, id, n))
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

static void hex8(char *out, const uint8_t *b)
{
	snprintf(out, 20, "%02x%02x%02x%02x %02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4],
		 b[5], b[6], b[7]);
}

/* inner protocol class of a parsed frame */
static const char *inner_class(const struct vxgbp_pkt *p)
{
	const struct vxgbp_layers *in = &p->inner;

	if (!(p->have & VXGBP_HAVE_INNER_L2))
		return "none";
	if (in->l2.ethertype == 0x0806)
		return "arp";
	if (!(p->have & VXGBP_HAVE_INNER_L3))
		return "other";
	if (in->l3.version == 4 && in->l3.proto == 2)
		return "igmp";
	if (in->l3.version == 4 && in->l3.proto == 1)
		return "icmp";
	if (in->l3.proto == 58 && (p->have & VXGBP_HAVE_INNER_L4) &&
	    (in->l4.icmp_type == 143 || in->l4.icmp_type == 131))
		return "mld";
	if (in->l3.proto == 58)
		return "icmp6";
	if (in->l3.proto == 17)
		return "udp";
	if (in->l3.proto == 6)
		return "tcp";
	return "other";
}

/* ---- wire ------------------------------------------------------------- */
struct rule {
	int has_vni, has_idport;
	uint32_t vni, idport, mark, min;
	char iproto[8], fix[24];
	int plain;
	unsigned long hits, bad;
	int line;
};

static int load_rules(const char *path, struct rule *r, unsigned *n)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int ln = 0;

	if (!f) {
		fprintf(stderr, "vxgbp_xcheck: %s: %s\n", path, strerror(errno));
		return -1;
	}
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok, *hash = strchr(line, '#');
		struct rule cur;
		int has_mark = 0, any = 0;

		ln++;
		if (hash)
			*hash = '\0';
		memset(&cur, 0, sizeof(cur));
		cur.line = ln;
		for (tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
			char *eq = strchr(tok, '=');
			int bad = 0;

			any = 1;
			if (!eq) {
				bad = 1;
			} else {
				*eq++ = '\0';
				if (!strcmp(tok, "vni"))
					bad = parse_u32(eq, &cur.vni), cur.has_vni = 1;
				else if (!strcmp(tok, "idport"))
					bad = parse_u32(eq, &cur.idport), cur.has_idport = 1;
				else if (!strcmp(tok, "mark"))
					bad = parse_u32(eq, &cur.mark), has_mark = 1;
				else if (!strcmp(tok, "fix") && strlen(eq) < sizeof(cur.fix) && *eq)
					strcpy(cur.fix, eq);
				else if (!strcmp(tok, "min"))
					bad = parse_u32(eq, &cur.min);
				else if (!strcmp(tok, "dev"))
					cur.plain = !strcmp(eq, "plain"), bad = strcmp(eq, "plain") && strcmp(eq, "gbp");
				else if (!strcmp(tok, "iproto") && strlen(eq) < sizeof(cur.iproto))
					strcpy(cur.iproto, eq);
				else
					bad = 1;
			}
			if (bad) {
				fprintf(stderr, "vxgbp_xcheck: %s:%d: bad field %s\n", path, ln, tok);
				fclose(f);
				return -1;
			}
		}
		if (!any)
			continue;
		if (!has_mark || *n >= MAX_RULES) {
			fprintf(stderr, "vxgbp_xcheck: %s:%d: rule without mark= (or too many)\n", path, ln);
			fclose(f);
			return -1;
		}
		r[(*n)++] = cur;
	}
	fclose(f);
	return 0;
}

static int cmd_wire(const char *pcap_path, const char *rules_path, const char *fixes)
{
	static struct rule rules[MAX_RULES];
	static unsigned char buf[MAX_FRAME];
	unsigned nrules, i;
	struct pcap pc;
	struct vxgbp_parse_opts opts;
	uint32_t caplen, wirelen;
	unsigned long frame = 0, vx = 0, failures = 0;
	int rc;

	if (load_rules(rules_path, rules, &nrules) < 0 || pcap_open(&pc, pcap_path) < 0)
		return 2;
	wire_opts(&opts, &pc);
	while ((rc = pcap_next(&pc, buf, &caplen, &wirelen)) == 1) {
		struct vxgbp_pkt p = { .size = sizeof(p) };
		struct vxgbp_hdr dec, want;
		uint8_t reenc[VXGBP_HDR_LEN], wantb[VXGBP_HDR_LEN];
		const uint8_t *cap;
		const char *cls;
		struct rule *r = NULL;
		char hc[20], hw[20];
		int bug;

		frame++;
		if (vxgbp_pkt_parse(&p, buf, caplen, wirelen, &opts) != 0 && !(p.have & VXGBP_HAVE_VXLAN))
			continue;
		if (!(p.have & VXGBP_HAVE_VXLAN))
			continue;
		vx++;
		cap = buf + p.vxlan_off;
		cls = inner_class(&p);
		/* 1. decode + re-encode is the identity on the captured bytes */
		if (vxgbp_hdr_decode(&dec, cap, caplen - (size_t)p.vxlan_off) != VXGBP_HDR_LEN ||
		    vxgbp_hdr_encode(&dec, reenc, sizeof(reenc)) != VXGBP_HDR_LEN ||
		    memcmp(reenc, cap, VXGBP_HDR_LEN) != 0) {
			hex8(hc, cap);
			printf("frame %lu: FAIL re-encoding %s differs\n", frame, hc);
			failures++;
			continue;
		}
		for (i = 0; i < nrules; i++) {
			struct rule *c = &rules[i];

			if (c->has_vni && c->vni != dec.vni)
				continue;
			if (c->iproto[0] && strcmp(c->iproto, cls) != 0)
				continue;
			if (c->has_idport && !((!strcmp(cls, "udp") || !strcmp(cls, "tcp")) &&
					       p.inner.l4.dport == c->idport))
				continue;
			r = c;
			break;
		}
		hex8(hc, cap);
		if (!r) {
			printf("frame %lu: FAIL no rule for vni %" PRIu32 " inner %s (%s)\n", frame,
			       dec.vni, cls, hc);
			failures++;
			continue;
		}
		r->hits++;
		bug = r->fix[0] && !has_fix(fixes, r->fix);
		if (bug) {
			/* the unpatched kernel: G and a group nobody set */
			if (!vxgbp_hdr_has_gbp(&dec) || dec.group == 0) {
				printf("frame %lu: FAIL rule line %d: expected the bug of a kernel without "
				       "%s (G with a bogus group), got %s\n", frame, r->line, r->fix, hc);
				r->bad++;
				failures++;
			}
			continue;
		}
		/* 2. the header libvxgbp predicts for the sender's mark */
		if (r->plain)
			vxgbp_hdr_init(&want, dec.vni, 0, 0);
		else
			vxgbp_mark_to_hdr(&want, r->mark, dec.vni,
					  has_fix(fixes, "gbit") ? VXGBP_MARK_TX_STRICT : 0);
		if (vxgbp_hdr_encode(&want, wantb, sizeof(wantb)) != VXGBP_HDR_LEN ||
		    memcmp(wantb, cap, VXGBP_HDR_LEN) != 0) {
			hex8(hw, wantb);
			printf("frame %lu: FAIL rule line %d mark 0x%08" PRIx32 ": wire %s, libvxgbp %s\n",
			       frame, r->line, r->mark, hc, hw);
			r->bad++;
			failures++;
			continue;
		}
		/* 3. decoding gives back the GBP bits of the sender's mark */
		if (!r->plain && vxgbp_hdr_has_gbp(&dec) &&
		    vxgbp_mark_from_hdr(&dec) != (r->mark & VXGBP_MARK_USED)) {
			printf("frame %lu: FAIL mark_from_hdr 0x%08" PRIx32 " != sender 0x%08" PRIx32 "\n",
			       frame, vxgbp_mark_from_hdr(&dec), r->mark & VXGBP_MARK_USED);
			r->bad++;
			failures++;
		}
	}
	fclose(pc.f);
	if (rc < 0) {
		fprintf(stderr, "vxgbp_xcheck: %s: truncated record\n", pcap_path);
		return 2;
	}
	for (i = 0; i < nrules; i++) {
		printf("rule line %d (mark 0x%08" PRIx32 "%s%s): %lu frames, %lu bad\n", rules[i].line,
		       rules[i].mark, rules[i].plain ? ", plain" : "",
		       rules[i].fix[0] && !has_fix(fixes, rules[i].fix) ? ", bug expected" : "", rules[i].hits,
		       rules[i].bad);
		if (rules[i].hits < rules[i].min) {
			printf("rule line %d: FAIL %lu frames, at least %" PRIu32 " expected\n",
			       rules[i].line, rules[i].hits, rules[i].min);
			failures++;
		}
	}
	printf("wire: %lu frames, %lu VXLAN, %lu failures (fixes %s)\n", frame, vx, failures, fixes);
	if (vx == 0) {
		printf("wire: FAIL no VXLAN frame captured\n");
		return 1;
	}
	return failures ? 1 : 0;
}

/* ---- build / marks ----------------------------------------------------- */
struct spec {
	uint32_t vni, flags, group, rsvd, idport, dport;
	int plain;
	int has_smac, has_src;
	uint8_t smac[6], src[4];
};

static int next_spec(FILE *f, struct spec *s, int *ln)
{
	char line[256], dev[16];
	int n;

	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');
		long v[6];

		(*ln)++;
		if (hash)
			*hash = '\0';
		memset(s, 0, sizeof(*s));
		v[5] = 4789;
		n = sscanf(line, "%li %li %li %li %15s %li %li", &v[0], &v[1], &v[2], &v[3], dev,
			   &v[4], &v[5]);
		if (n <= 0)
			continue;
		if (n < 6 || v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0 || v[4] < 0 || v[5] < 0 ||
		    v[0] > (long)VXGBP_VNI_MAX || v[1] > 0xffff || v[2] > 0xffff || v[3] > 0xff ||
		    v[4] > 0xffff || v[5] > 0xffff || (strcmp(dev, "gbp") && strcmp(dev, "plain"))) {
			fprintf(stderr, "vxgbp_xcheck: specs line %d: bad spec\n", *ln);
			return -1;
		}
		s->vni = (uint32_t)v[0];
		s->flags = (uint32_t)v[1];
		s->group = (uint32_t)v[2];
		s->rsvd = (uint32_t)v[3];
		s->idport = (uint32_t)v[4];
		s->dport = (uint32_t)v[5];
		s->plain = !strcmp(dev, "plain");
		/* optional: smac=MAC (inner source), src=A.B.C.D (outer source) */
		{
			const char *k;
			unsigned m[6], a[4];

			if ((k = strstr(line, "smac="))) {
				if (sscanf(k + 5, "%2x:%2x:%2x:%2x:%2x:%2x", &m[0], &m[1], &m[2], &m[3], &m[4],
					   &m[5]) != 6) {
					fprintf(stderr, "vxgbp_xcheck: specs line %d: bad smac=\n", *ln);
					return -1;
				}
				for (n = 0; n < 6; n++)
					s->smac[n] = (uint8_t)m[n];
				s->has_smac = 1;
			}
			if ((k = strstr(line, " src="))) {
				if (sscanf(k + 5, "%u.%u.%u.%u", &a[0], &a[1], &a[2], &a[3]) != 4 || a[0] > 255 ||
				    a[1] > 255 || a[2] > 255 || a[3] > 255) {
					fprintf(stderr, "vxgbp_xcheck: specs line %d: bad src=\n", *ln);
					return -1;
				}
				for (n = 0; n < 4; n++)
					s->src[n] = (uint8_t)a[n];
				s->has_src = 1;
			}
		}
		return 1;
	}
	return 0;
}

static void spec_hdr(const struct spec *s, struct vxgbp_hdr *h)
{
	memset(h, 0, sizeof(*h));
	h->flags = (uint16_t)s->flags;
	h->group = (uint16_t)s->group;
	h->vni = s->vni;
	h->rsvd = (uint8_t)s->rsvd;
}

static int cmd_build(const char *out, const char *specs)
{
	FILE *sf = fopen(specs, "r"), *of;
	struct spec s;
	int ln = 0, rc, n = 0;
	static const uint8_t payload[] = "vxgbp injected frame";

	if (!sf) {
		fprintf(stderr, "vxgbp_xcheck: %s: %s\n", specs, strerror(errno));
		return 2;
	}
	of = fopen(out, "wb");
	if (!of || pcap_write_header(of) < 0) {
		fprintf(stderr, "vxgbp_xcheck: %s: %s\n", out, strerror(errno));
		fclose(sf);
		if (of)
			fclose(of);
		return 2;
	}
	while ((rc = next_spec(sf, &s, &ln)) == 1) {
		uint8_t inner[256], frame[512];
		struct vxgbp_eth_spec ie, oe;
		struct vxgbp_ip_spec iip, oip;
		struct vxgbp_l4_spec il4, ol4;
		struct vxgbp_hdr h;
		int ilen, flen;
		/* the guest: 52:54:00:00:00:01, 192.0.2.1, overlay 198.51.100.1;
		 * the injector poses as VTEP 192.0.2.9 */
		static const uint8_t guest[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x01 };
		static const uint8_t vtep[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x09 };

		memset(&ie, 0, sizeof(ie));
		memset(&oe, 0, sizeof(oe));
		memset(&iip, 0, sizeof(iip));
		memset(&oip, 0, sizeof(oip));
		memset(&il4, 0, sizeof(il4));
		memset(&ol4, 0, sizeof(ol4));
		/* inner: from a MAC unique to this frame to the guest's VXLAN device */
		ie.src[0] = 0x02; ie.src[1] = 0x99; ie.src[4] = (uint8_t)(s.idport >> 8);
		ie.src[5] = (uint8_t)s.idport;
		if (s.has_smac)
			memcpy(ie.src, s.smac, 6);
		ie.dst[0] = 0x02; ie.dst[3] = (uint8_t)(s.vni >> 8); ie.dst[4] = (uint8_t)s.vni;
		ie.dst[5] = 0x01;
		iip.version = 4;
		iip.src[0] = 198; iip.src[1] = 51; iip.src[2] = 100; iip.src[3] = 200;
		iip.dst[0] = 198; iip.dst[1] = 51; iip.dst[2] = 100;
		iip.dst[3] = (uint8_t)(s.plain ? 33 : 1);
		il4.proto = 17;
		il4.sport = 40000;
		il4.dport = (uint16_t)s.idport;
		ilen = vxgbp_frame_build(inner, sizeof(inner), &ie, &iip, &il4, payload, sizeof(payload) - 1);
		memcpy(oe.dst, guest, 6);
		memcpy(oe.src, vtep, 6);
		oip.version = 4;
		oip.src[0] = 192; oip.src[1] = 0; oip.src[2] = 2; oip.src[3] = 9;
		if (s.has_src)
			memcpy(oip.src, s.src, 4);
		oip.dst[0] = 192; oip.dst[1] = 0; oip.dst[2] = 2; oip.dst[3] = 1;
		ol4.proto = 17;
		ol4.sport = (uint16_t)(49152 + n);
		ol4.dport = (uint16_t)s.dport;
		spec_hdr(&s, &h);
		flen = ilen < 0 ? ilen
				: vxgbp_vxlan_build(frame, sizeof(frame), &oe, &oip, &ol4, &h, inner, (size_t)ilen);
		if (flen < 0) {
			fprintf(stderr, "vxgbp_xcheck: specs line %d: %s\n", ln, vxgbp_strerror(flen));
			rc = -1;
			break;
		}
		if (pcap_write(of, frame, (uint32_t)flen, (unsigned long)n) < 0) {
			rc = -1;
			break;
		}
		n++;
	}
	fclose(sf);
	if (fclose(of) != 0 || rc < 0)
		return 2;
	printf("build: %d frames in %s\n", n, out);
	return 0;
}

static int cmd_inject(const char *port_s, const char *pcap_path)
{
	static unsigned char buf[MAX_FRAME];
	struct sockaddr_in sa;
	struct pcap pc;
	uint32_t port, caplen, wirelen;
	int fd, rc, n = 0;

	if (parse_u32(port_s, &port) < 0 || port == 0 || port > 65535) {
		fprintf(stderr, "vxgbp_xcheck: bad port %s\n", port_s);
		return 2;
	}
	if (pcap_open(&pc, pcap_path) < 0)
		return 2;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("socket");
		fclose(pc.f);
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* never anything but 127.0.0.1 */
	while ((rc = pcap_next(&pc, buf, &caplen, &wirelen)) == 1) {
		if (sendto(fd, buf, caplen, 0, (struct sockaddr *)&sa, sizeof(sa)) != (ssize_t)caplen) {
			perror("sendto");
			rc = -1;
			break;
		}
		n++;
		usleep(20000);
	}
	close(fd);
	fclose(pc.f);
	printf("inject: %d frames to 127.0.0.1:%" PRIu32 "\n", n, port);
	return rc < 0 ? 2 : 0;
}

/* "fdb IDPORT" in OBSERVED: the inner source MAC of that frame was learned */
static int observed_fdb(FILE *of, uint32_t idport)
{
	char line[128];
	long d;

	rewind(of);
	while (fgets(line, sizeof(line), of))
		if (sscanf(line, "fdb %li", &d) == 1 && d >= 0 && (uint32_t)d == idport)
			return 1;
	return 0;
}

/* "rxerr DEV N" in OBSERVED; -1 when absent */
static long observed_rxerr(FILE *of, const char *dev)
{
	char line[128], name[32];
	long v;

	rewind(of);
	while (fgets(line, sizeof(line), of))
		if (sscanf(line, "rxerr %31s %li", name, &v) == 2 && !strcmp(name, dev))
			return v;
	return -1;
}

static int counted_drop(enum vxgbp_drop why)
{
	/* the drops after the device lookup, counted with fix rxerrors */
	return why == VXGBP_DROP_GBP_NOT_ENABLED || why == VXGBP_DROP_RSVD_FLAGS ||
	       why == VXGBP_DROP_RSVD_VNI;
}

static int cmd_marks(const char *specs, const char *observed, const char *fixes, uint32_t prior)
{
	FILE *sf = fopen(specs, "r"), *of = fopen(observed, "r");
	struct spec s;
	int ln = 0, rc, failures = 0, n = 0;
	long counted[2] = { 0, 0 }; /* gbp, plain */
	int di;

	if (!sf || !of) {
		fprintf(stderr, "vxgbp_xcheck: cannot open %s or %s\n", specs, observed);
		if (sf)
			fclose(sf);
		if (of)
			fclose(of);
		return 2;
	}
	while ((rc = next_spec(sf, &s, &ln)) == 1) {
		struct vxgbp_hdr h;
		struct vxgbp_verdict v;
		char line[128];
		int seen = 0;
		uint32_t got = 0, want;

		spec_hdr(&s, &h);
		vxgbp_verdict_linux(&h, s.plain ? 0 : VXGBP_DEV_GBP, &v);
		want = v.mark_set ? v.mark : prior;
		/* fix rxmark: a gbp device sets the mark from the header
		 * even without G (0 = no group) */
		if (has_fix(fixes, "rxmark") && !s.plain && v.accept && !v.mark_set)
			want = 0;
		rewind(of);
		while (fgets(line, sizeof(line), of)) {
			long d, m;

			if (sscanf(line, "%li %li", &d, &m) == 2 && d >= 0 && m >= 0 &&
			    (uint32_t)d == s.idport && m <= 0xffffffffL) {
				seen = 1;
				got = (uint32_t)m;
				break;
			}
		}
		n++;
		if (!v.accept && counted_drop(v.why))
			counted[s.plain]++;
		if (v.accept) {
			/* draft: the egress VTEP MUST NOT learn when D is set
			 * (fix dontlearn); learning is on in the guest */
			int dl = !s.plain && (s.flags & VXGBP_F_G) && (s.flags & VXGBP_F_D);
			int want_learn = !(dl && has_fix(fixes, "dontlearn"));

			if (observed_fdb(of, s.idport) != want_learn) {
				printf("marks: FAIL frame %u: source MAC %slearned, expected %s\n", s.idport,
				       want_learn ? "not " : "", want_learn ? "learned" : "not learned");
				failures++;
			}
		}
		if (seen != v.accept || (seen && got != want)) {
			printf("marks: FAIL frame %u vni %u flags 0x%04x group 0x%04x rsvd 0x%02x: "
			       "libvxgbp %s mark 0x%08x (%s), guest %s mark 0x%08x\n",
			       s.idport, s.vni, s.flags, s.group, s.rsvd, v.accept ? "accept" : "drop",
			       want, vxgbp_drop_name(v.why), seen ? "accept" : "drop", got);
			failures++;
		} else {
			printf("marks: ok   frame %u flags 0x%04x group 0x%04x rsvd 0x%02x %s: %s",
			       s.idport, s.flags, s.group, s.rsvd, s.plain ? "plain" : "gbp",
			       v.accept ? "accepted" : "dropped");
			if (v.accept)
				printf(" mark 0x%08x", got);
			else
				printf(" (%s)", vxgbp_drop_name(v.why));
			printf("\n");
		}
	}
	for (di = 0; di < 2; di++) {
		const char *dev = di ? "vxp" : "vx0";
		long want = has_fix(fixes, "rxerrors") ? counted[di] : 0, got = observed_rxerr(of, dev);

		printf("marks: %s %s rx_errors %ld, expected %ld\n", got == want ? "ok  " : "FAIL", dev,
		       got, want);
		if (got != want)
			failures++;
	}
	fclose(sf);
	fclose(of);
	if (rc < 0)
		return 2;
	printf("marks: %d frames, %d failures (fixes %s, prior mark 0x%x)\n", n, failures, fixes, prior);
	return failures || n == 0 ? 1 : 0;
}

/* one line per VXLAN frame of PCAP: the header and the mark it maps to */
static int cmd_headers(const char *pcap_path)
{
	static unsigned char buf[MAX_FRAME];
	struct vxgbp_parse_opts opts;
	struct pcap pc;
	uint32_t caplen, wirelen;
	unsigned long frame = 0;
	int rc;

	if (pcap_open(&pc, pcap_path) < 0)
		return 2;
	wire_opts(&opts, &pc);
	while ((rc = pcap_next(&pc, buf, &caplen, &wirelen)) == 1) {
		struct vxgbp_pkt p = { .size = sizeof(p) };
		struct vxgbp_hdr dec;
		const char *cls;
		char hc[20];

		frame++;
		vxgbp_pkt_parse(&p, buf, caplen, wirelen, &opts);
		if (!(p.have & VXGBP_HAVE_VXLAN) ||
		    vxgbp_hdr_decode(&dec, buf + p.vxlan_off, caplen - (size_t)p.vxlan_off) != VXGBP_HDR_LEN)
			continue;
		cls = inner_class(&p);
		hex8(hc, buf + p.vxlan_off);
		printf("frame %lu vni %" PRIu32 " inner %s dport %u hdr %s g %d d %d a %d group 0x%04x "
		       "mark 0x%08" PRIx32 "\n",
		       frame, dec.vni, cls,
		       (!strcmp(cls, "udp") || !strcmp(cls, "tcp")) ? (unsigned)p.inner.l4.dport : 0u, hc,
		       !!(dec.flags & VXGBP_F_G), !!(dec.flags & VXGBP_F_D), !!(dec.flags & VXGBP_F_A),
		       (unsigned)dec.group, vxgbp_hdr_has_gbp(&dec) ? vxgbp_mark_from_hdr(&dec) : 0u);
	}
	fclose(pc.f);
	return rc < 0 ? 2 : 0;
}

/* copy the VXLAN frames of IN to OUT (classic pcap, Ethernet) */
static int cmd_prune(const char *in, const char *out)
{
	static unsigned char buf[MAX_FRAME];
	struct vxgbp_parse_opts opts;
	struct pcap pc;
	uint32_t caplen, wirelen;
	unsigned long kept = 0, all = 0;
	FILE *of;
	int rc;

	if (pcap_open(&pc, in) < 0)
		return 2;
	if (pc.linktype != VXGBP_LINK_ETHERNET) {
		fprintf(stderr, "vxgbp_xcheck: %s: not an Ethernet capture\n", in);
		fclose(pc.f);
		return 2;
	}
	of = fopen(out, "wb");
	if (!of || pcap_write_header(of) < 0) {
		fprintf(stderr, "vxgbp_xcheck: %s: %s\n", out, strerror(errno));
		fclose(pc.f);
		if (of)
			fclose(of);
		return 2;
	}
	wire_opts(&opts, &pc);
	while ((rc = pcap_next(&pc, buf, &caplen, &wirelen)) == 1) {
		struct vxgbp_pkt p = { .size = sizeof(p) };

		all++;
		vxgbp_pkt_parse(&p, buf, caplen, wirelen, &opts);
		if (!(p.have & VXGBP_HAVE_VXLAN))
			continue;
		if (pcap_write(of, buf, caplen, kept) < 0) {
			rc = -1;
			break;
		}
		kept++;
	}
	fclose(pc.f);
	if (fclose(of) != 0 || rc < 0)
		return 2;
	printf("prune: %lu of %lu frames kept (VXLAN) in %s\n", kept, all, out);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: vxgbp_xcheck wire PCAP RULES FIXES\n"
			"       vxgbp_xcheck build OUT.pcap SPECS\n"
			"       vxgbp_xcheck inject PORT PCAP\n"
			"       vxgbp_xcheck marks SPECS OBSERVED FIXES PRIOR\n"
			"       vxgbp_xcheck headers PCAP\n"
			"       vxgbp_xcheck prune IN.pcap OUT.pcap\n");
	return 2;
}

int main(int argc, char **argv)
{
	uint32_t prior;

	if (argc == 5 && !strcmp(argv[1], "wire"))
		return cmd_wire(argv[2], argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "headers"))
		return cmd_headers(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "build"))
		return cmd_build(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "prune"))
		return cmd_prune(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "inject"))
		return cmd_inject(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "marks") && parse_u32(argv[5], &prior) == 0)
		return cmd_marks(argv[2], argv[3], argv[4], prior);
	return usage();
}
