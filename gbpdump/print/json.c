// SPDX-License-Identifier: BSD-2-Clause
/*
 * print/json.c - one JSON object per frame, one per line (JSON Lines):
 *
 * {"frame":1,"time":"2023-11-14T22:13:20.000001Z","len":148,"caplen":148,
 *  "outer":{"src":"192.0.2.1","dst":"192.0.2.2","proto":17,"proto_name":"udp",...},
 *  "vxlan":{"kind":"vxlan","flags":34880,"vni":100,"gbp":{"id":512,
 *           "dont_learn":true,"policy_applied":false,"name":"web"},"mark":4194816,...},
 *  "inner":{...},"findings":["gbp.reserved-flags"],
 *  "finding_layers":[{"id":"gbp.reserved-flags","layer":"vxlan"}]}
 *
 * "encap" (the tunnel layers around the first VXLAN header, outermost
 * first) and "nested" (VXLAN headers inside its frame) appear when the
 * frame has them.  Every key has one JSON type; docs/json.md describes each
 * object and docs/gbpdump.schema.json is the schema tests/json checks every
 * line against.  Times are UTC with microseconds.
 *
 * The common parts of an object (its head, the levels, the VXLAN header)
 * are written through a cursor: room for the part's longest form is made
 * once (JW_ROOM), then every store is unchecked.  Constant text is one
 * copy of a compile-time length; numbers, MAC and IPv4 addresses come
 * from small tables.  Whatever may be longer (a group name, a CIPSO
 * option, findings, tunnel layers, nested headers; all rare) closes the
 * cursor and goes through out.h as before.
 */
#include <string.h>
#include <time.h>

#include "labels.h"
#include "print.h"

/* "k": for a literal k, one copy of known length */
#define key(o, k) out_write((o), "\"" k "\":", sizeof("\"" k "\":") - 1)

/* ---- the cursor ---- */

/* The most written through one cursor: the commonest frame whole.  Its
 * head is under 200 bytes; a level with two VLAN ids, IPv6 addresses (45
 * characters at most) and every number at its widest under 400 (and 64
 * past its end, the MAC memo's copy); the VXLAN header's part under 300
 * (and 128 past it, its memo's): under 1,600 in all. */
#define JW_ROOM 2048u

/* Where the next part goes, with JW_ROOM bytes of room (flushed first when
 * there is less: the bytes written are the same, only the write(2)s
 * differ). */
static char *jw_open(struct gd_out *o)
{
	if (GD_OUT_CAP - o->len < JW_ROOM)
		out_flush(o);
	return o->buf + o->len;
}

static void jw_close(struct gd_out *o, const char *d)
{
	o->len = (size_t)(d - o->buf);
}

/* The parts of every frame's object, inlined into their callers: a call
 * saves and restores six registers a part. */
#define JW_INLINE static inline __attribute__((always_inline))

/* a string literal s at d, d moved past it */
#define PUT(d, s) (memcpy((d), (s), sizeof(s) - 1), (d) += sizeof(s) - 1)

static const char dig2[] =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* The digits of v (10^6 and more: marks, frame numbers of long runs). */
static unsigned dec_len(uint64_t v)
{
	unsigned n = 1;

	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* v in decimal at d, two digits a step from the end; returns the end. */
static char *put_u64_long(char *d, uint64_t v)
{
	char *e = d + dec_len(v), *q = e;

	while (v >= 100) {
		q -= 2;
		memcpy(q, dig2 + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(q - 2, dig2 + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return e;
}

/* v in decimal at d; returns the end.  The numbers of a frame are mostly
 * below 10^6 (ports, VNIs, group ids, lengths, frame numbers): out.h's
 * lw_u32 writes those without a loop or a division. */
static inline __attribute__((always_inline)) char *put_u64(char *d, uint64_t v)
{
	if (v > UINT32_MAX)
		return put_u64_long(d, v);
	return lw_u32_inline(d, (uint32_t)v);
}

/* 0..255 at d: one copy from out.h's table of "N." (the dot is past the
 * end: whatever comes next overwrites it) */
static inline char *put_u8(char *d, uint8_t v)
{
	memcpy(d, gd_dec_dot[v], 4);
	return d + gd_dec_dot[v][7] - 1; /* the length counts the dot */
}

/* A few words written as whole fragments of their own fixed size: one
 * copy of FRAG bytes from the table, then the cursor moves by n. */
#define FRAG 32
struct frag {
	char s[FRAG];
	unsigned n; /* 0: not built (too long), write it the slow way */
};

/* Tables filled once before main (libvxgbp's flag table and verdict names
 * are fixed; building them per frame was a loop of calls and strlen()s). */
#define N_DROP 8
static struct frag drop_frag[N_DROP]; /* "name" of vxgbp_drop_name(i) */
#define N_GFLAG 8
static struct gflag {
	uint16_t mask;
	struct frag t, f; /* ,"key":true and ,"key":false */
} gflags[N_GFLAG];
static unsigned n_gflags;
static int gflags_ok; /* every flag fit in gflags[] */
static uint32_t hex_colon[256]; /* "xx:" and a spare byte, of out.c's gd_hex2 */

/* s at f.s, or f.n = 0 when it does not fit */
static void frag_set(struct frag *f, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);

	f->n = 0;
	if (la + lb + lc > FRAG)
		return;
	memcpy(f->s, a, la);
	memcpy(f->s + la, b, lb);
	memcpy(f->s + la + lb, c, lc);
	f->n = (unsigned)(la + lb + lc);
}

__attribute__((constructor)) static void json_tables(void)
{
	const struct vxgbp_flag_info *fi;

	for (unsigned i = 0; i < 256; i++) {
		char hc[4] = { gd_hex2[i][0], gd_hex2[i][1], ':', ':' };

		memcpy(&hex_colon[i], hc, 4);
	}
	for (unsigned i = 0; i < N_DROP; i++)
		frag_set(&drop_frag[i], "\"", vxgbp_drop_name((enum vxgbp_drop)i), "\"");
	gflags_ok = 1;
	for (unsigned i = 0; (fi = vxgbp_flag_get(i)); i++) {
		struct gflag *g = &gflags[n_gflags];

		if (fi->needs != VXGBP_F_G || !(fi->set & VXGBP_FLAGSET_DRAFT))
			continue;
		if (n_gflags == N_GFLAG) {
			gflags_ok = 0;
			break;
		}
		g->mask = fi->mask;
		frag_set(&g->t, ",\"", fi->key, "\":true");
		frag_set(&g->f, ",\"", fi->key, "\":false");
		gflags_ok &= g->t.n && g->f.n;
		n_gflags++;
	}
}

/* "aa:bb:cc:dd:ee:ff" (vxgbp_mac_format's text, lw_mac's; "?" for none),
 * 20 bytes written: each byte's "xx:" one 4-byte store from hex_colon[],
 * the next store over its fourth byte, the closing quote over the last
 * colon.  Inline: two to four a frame. */

JW_INLINE char *put_mac(char *d, const uint8_t *m)
{
	if (!m) {
		PUT(d, "\"?\"");
		return d;
	}
	*d = '"';
	for (int i = 0; i < 6; i++)
		memcpy(d + 1 + 3 * i, &hex_colon[m[i]], 4);
	d[18] = '"';
	return d + 19;
}

/* "a.b.c.d" (inet_ntop's text) or an IPv6 address in RFC 5952 form
 * (vxgbp_addr_format's text; out.h's line writer); "?" for none */
static char *put_addr(char *d, const uint8_t *a, size_t len)
{
	*d++ = '"';
	d = lw_addr(d, a, len);
	*d++ = '"';
	return d;
}

/* ,"time":"YYYY-MM-DDTHH:MM:SS.uuuuuuZ", UTC.  The text before the
 * microseconds is built once a second in pp->utc_buf (the date with its key
 * and the dot: one copy of the buffer's size a frame); the microseconds
 * are out.h's fixed-point pairs (no division). */
static void utc_prefix(struct gd_print *pp, int64_t sec)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char date[32];
	size_t n;

	if (!gmtime_r(&t, &tm) || !strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm))
		strcpy(date, "1970-01-01T00:00:00");
	n = strlen(date); /* under 32: strftime's room */
	memcpy(pp->utc_buf, ",\"time\":\"", 9);
	memcpy(pp->utc_buf + 9, date, n);
	pp->utc_buf[9 + n] = '.';
	pp->utc_len = (unsigned)(10 + n);
	pp->utc_sec = sec;
}

void print_json_init(struct gd_print *pp)
{
	utc_prefix(pp, INT64_MIN);
}

static char *put_time(char *d, struct gd_print *pp, const struct gd_rec *rec)
{
	/* below 10^9 (the readers clamp nanoseconds; microseconds times 1000
	 * may pass it): no modulo */
	uint32_t us = rec->nsec < 1000000000u ? rec->nsec / 1000 : rec->nsec / 1000 % 1000000;

	if (rec->sec != pp->utc_sec)
		utc_prefix(pp, rec->sec);
	memcpy(d, pp->utc_buf, sizeof(pp->utc_buf));
	d = lw_dec6(d + pp->utc_len, us);
	memcpy(d, "Z\"", 2);
	return d + 2;
}

/* ,"proto_name":".." of every protocol number libvxgbp names in JSON
 * (vxgbp_ipproto_get()'s key): beside the number, never instead of it;
 * n 0 for the others. */
static struct frag proto_name[256];
/* ,"proto":N[,"proto_name":".."] of every protocol number, one fragment
 * each (a TTL and a protocol are most of a level's numbers) */
static struct frag proto_num[256];

__attribute__((constructor)) static void proto_tables(void)
{
	for (unsigned p = 0; p < 256; p++) {
		const struct vxgbp_ipproto_info *pi = vxgbp_ipproto_get((uint8_t)p);
		char num[8], name[2 * FRAG] = "";

		if (pi && pi->key && strlen(pi->key) < FRAG)
			snprintf(name, sizeof(name), ",\"proto_name\":\"%s\"", pi->key);
		frag_set(&proto_name[p], name, "", "");
		*put_u64(num, p) = '\0';
		frag_set(&proto_num[p], ",\"proto\":", num, name);
	}
}

/* "smac":..,"dmac":.. of the outer level: a capture's frames mostly pass
 * one link, between the same two stations.  Kept in the print settings
 * (struct gd_print's mac_memo), which each -j worker has its own copy of. */
JW_INLINE char *put_macs(char *d, const struct vxgbp_l2 *l2, struct gd_mac_memo *m)
{
	char *s = d;

	if (m && m->n && l2->dst && !memcmp(m->dst, l2->dst, 6) && !memcmp(m->src, l2->src, 6)) {
		memcpy(d, m->s, sizeof(m->s));
		return d + m->n;
	}
	PUT(d, "\"smac\":");
	d = put_mac(d, l2->src);
	PUT(d, ",\"dmac\":");
	d = put_mac(d, l2->dst);
	if (m && l2->dst && (size_t)(d - s) <= sizeof(m->s)) {
		memcpy(m->dst, l2->dst, 6);
		memcpy(m->src, l2->src, 6);
		memcpy(m->s, s, (size_t)(d - s));
		m->n = (unsigned)(d - s);
	}
	return d;
}

/* "smac":..,"dmac":..[,"vlan":[..]],"ethertype":N; m: the level's MAC
 * memo, NULL for none */
JW_INLINE char *put_l2(char *d, const struct vxgbp_l2 *l2, struct gd_mac_memo *m)
{
	if (l2->off >= 0 && l2->src) {
		d = put_macs(d, l2, m);
		if (l2->n_vlan) {
			PUT(d, ",\"vlan\":[");
			/* the parser keeps at most VXGBP_MAX_VLAN tags */
			for (unsigned i = 0; i < l2->n_vlan && i < VXGBP_MAX_VLAN; i++) {
				if (i)
					*d++ = ',';
				d = put_u64(d, l2->vlan_tci[i] & 0x0fff);
			}
			*d++ = ']';
		}
		*d++ = ',';
	}
	switch (l2->ethertype) { /* the commonest two as text */
	case 0x0800:
		PUT(d, "\"ethertype\":2048");
		return d;
	case 0x86dd:
		PUT(d, "\"ethertype\":34525");
		return d;
	default:
		PUT(d, "\"ethertype\":");
		return put_u64(d, l2->ethertype);
	}
}

/* ,"ip":4,"src":..,"dst":..,"ttl":N,"proto":N[,"proto_name":..][,fragment][,"label":..] */
JW_INLINE char *put_ip(struct gd_out *o, char *d, const uint8_t *frame,
			const struct vxgbp_l3 *l3)
{
	size_t alen = l3->version == 6 ? 16 : 4;
	const struct frag *pn;

	/* the keys and the quotes between the fields as one piece each */
	if (l3->version == 4) {
		PUT(d, ",\"ip\":4,\"src\":\"");
	} else if (l3->version == 6) {
		PUT(d, ",\"ip\":6,\"src\":\"");
	} else {
		PUT(d, ",\"ip\":");
		d = put_u64(d, l3->version);
		PUT(d, ",\"src\":\"");
	}
	d = lw_addr(d, l3->src, alen);
	PUT(d, "\",\"dst\":\"");
	d = lw_addr(d, l3->dst, alen);
	PUT(d, "\",\"ttl\":");
	d = put_u8(d, l3->ttl);
	pn = &proto_num[l3->proto];
	if (pn->n) {
		memcpy(d, pn->s, FRAG);
		d += pn->n;
	} else { /* (a name too long for a fragment) */
		PUT(d, ",\"proto\":");
		d = put_u64(d, l3->proto);
		pn = &proto_name[l3->proto];
		memcpy(d, pn->s, FRAG);
		d += pn->n;
	}
	if (l3->more_frags | l3->frag_off) {
		PUT(d, ",\"frag_off\":");
		d = put_u64(d, l3->frag_off);
		if (l3->more_frags)
			PUT(d, ",\"more_frags\":true");
		else
			PUT(d, ",\"more_frags\":false");
	}
	/* either offset not -1 (one test: the sign of both) */
	if ((l3->cipso_off & l3->calipso_off) >= 0) { /* what labels.c prints */
		jw_close(o, d);
		labels_print_json(o, frame, l3);
		d = jw_open(o);
	}
	return d;
}

/* ,"arp_op":N[,"src":..,"dst":..] */
static char *put_arp(char *d, const struct vxgbp_l3 *l3)
{
	PUT(d, ",\"arp_op\":");
	d = put_u64(d, l3->arp_op);
	if (l3->arp_spa) {
		PUT(d, ",\"src\":");
		d = put_addr(d, l3->arp_spa, 4);
		PUT(d, ",\"dst\":");
		d = put_addr(d, l3->arp_tpa, 4);
	}
	return d;
}

/* ,"sport":..,"dport":..,"tcp_flags":.. or ,"icmp_type":..,"icmp_code":.. */
JW_INLINE char *put_l4(char *d, const struct vxgbp_l4 *l4)
{
	if (l4->proto == 6 || l4->proto == 17) {
		PUT(d, ",\"sport\":");
		d = put_u64(d, l4->sport);
		PUT(d, ",\"dport\":");
		d = put_u64(d, l4->dport);
	}
	if (l4->proto == 6) {
		PUT(d, ",\"tcp_flags\":");
		d = put_u8(d, l4->tcp_flags);
	} else if (l4->proto == 1 || l4->proto == 58) {
		PUT(d, ",\"icmp_type\":");
		d = put_u8(d, l4->icmp_type);
		PUT(d, ",\"icmp_code\":");
		d = put_u8(d, l4->icmp_code);
	}
	return d;
}

/* {level} or null: one level (outer or inner; m: its MAC memo or NULL) */
JW_INLINE char *put_level(struct gd_out *o, char *d, int present, const uint8_t *frame,
			   const struct vxgbp_layers *ls, struct gd_mac_memo *m)
{
	if (!present) {
		PUT(d, "null");
		return d;
	}
	*d++ = '{';
	d = put_l2(d, &ls->l2, m);
	if (ls->l3.off >= 0 && ls->l3.version)
		d = put_ip(o, d, frame, &ls->l3);
	else if (ls->l3.off >= 0)
		d = put_arp(d, &ls->l3);
	if (ls->l4.off >= 0)
		d = put_l4(d, &ls->l4);
	*d++ = '}';
	return d;
}

/* ,"dont_learn":true,"policy_applied":false: the flags that mean something
 * only with G, named by libvxgbp's flag table (gflags[], or the table
 * itself when a key did not fit there). */
static void json_gbp_flags(struct gd_out *o, uint16_t flags)
{
	const struct vxgbp_flag_info *fi;

	for (unsigned i = 0; (fi = vxgbp_flag_get(i)); i++) {
		if (fi->needs != VXGBP_F_G || !(fi->set & VXGBP_FLAGSET_DRAFT))
			continue;
		out_str(o, ",\"");
		out_str(o, fi->key);
		out_str(o, "\":");
		out_str(o, (flags & fi->mask) ? "true" : "false");
	}
}

static char *put_gbp_flags(struct gd_out *o, char *d, uint16_t flags)
{
	if (!gflags_ok) {
		jw_close(o, d);
		json_gbp_flags(o, flags);
		return jw_open(o);
	}
	for (unsigned i = 0; i < n_gflags; i++) {
		const struct frag *f = (flags & gflags[i].mask) ? &gflags[i].t : &gflags[i].f;

		memcpy(d, f->s, FRAG);
		d += f->n;
	}
	return d;
}

/* The verdict of a Linux device (dev: its flags) on h, quoted. */
static char *put_verdict(struct gd_out *o, char *d, const struct vxgbp_hdr *h, unsigned dev)
{
	struct vxgbp_verdict v;

	vxgbp_verdict_linux(h, dev, &v);
	if (v.accept) {
		PUT(d, "\"accept\"");
	} else if ((unsigned)v.why < N_DROP && drop_frag[v.why].n) {
		memcpy(d, drop_frag[v.why].s, FRAG);
		d += drop_frag[v.why].n;
	} else {
		jw_close(o, d);
		out_putc(o, '"');
		out_str(o, vxgbp_drop_name(v.why));
		out_putc(o, '"');
		d = jw_open(o);
	}
	return d;
}

/* ,"name":"..." of group g from --groups (escaped: the user's text), or
 * nothing */
static char *put_gname(struct gd_out *o, char *d, const struct gd_print *pp, uint16_t g)
{
	const char *name;

	if (!pp->groups || !pp->groups->n) /* no --groups: no call */
		return d;
	if (!(name = vxgbp_groups_name(pp->groups, g)))
		return d;
	PUT(d, ",\"name\":");
	jw_close(o, d);
	out_json_str(o, name);
	return jw_open(o);
}

/* The "vxlan" object of a VXLAN(-GBP) header: fields, group, mark, Linux
 * verdicts (each part formatted anew: vx_put()'s way when its memo does
 * not hold). */
static char *put_vxlan_slow(struct gd_out *o, char *d, const struct gd_print *pp,
		       const struct vxgbp_hdr *h)
{
	PUT(d, "{\"kind\":\"vxlan\",\"flags\":");
	d = put_u64(d, h->flags);
	PUT(d, ",\"vni\":");
	d = put_u64(d, h->vni);
	if (vxgbp_hdr_has_gbp(h)) {
		PUT(d, ",\"gbp\":{\"id\":");
		d = put_u64(d, h->group);
		d = put_gbp_flags(o, d, h->flags);
		d = put_gname(o, d, pp, h->group);
		*d++ = '}';
	} else {
		PUT(d, ",\"gbp\":null");
	}
	PUT(d, ",\"mark\":");
	d = put_u64(d, vxgbp_mark_from_hdr(h));
	PUT(d, ",\"id_field\":");
	d = put_u64(d, h->group);
	PUT(d, ",\"reserved\":");
	d = put_u64(d, h->rsvd);
	PUT(d, ",\"linux\":{\"gbp\":");
	d = put_verdict(o, d, h, VXGBP_DEV_GBP);
	PUT(d, ",\"plain\":");
	d = put_verdict(o, d, h, 0);
	PUT(d, "}}");
	return d;
}

/* ---- what consecutive frames share ---- */

/* Most parts of a VXLAN header's object depend on its flags, whether it
 * has a group and its reserved byte only, and consecutive frames mostly
 * share those: the parts are kept, built from the last header with other
 * ones.  vxgbp_verdict_linux() reads no more of the header than that (the
 * group only as zero or not; mark.c).  They live in struct gd_print
 * (vx_memo): each -j worker prints with its own copy. */
_Static_assert(sizeof(((struct gd_vx_memo *)0)->gbp) >= 64 + FRAG &&
	       sizeof(((struct gd_vx_memo *)0)->tail) >= 128 + FRAG,
	       "gd_vx_memo: room for the parts and a fragment's copy");

static uint32_t vx_key(const struct vxgbp_hdr *h)
{
	return 1u << 31 | (uint32_t)h->rsvd << 17 | (uint32_t)(h->group != 0) << 16 | h->flags;
}

/* "name" of a verdict at d when it fits below end; NULL when not */
static char *memo_verdict(char *d, const char *end, const struct vxgbp_hdr *h, unsigned dev)
{
	struct vxgbp_verdict v;
	const char *s;
	size_t n;

	vxgbp_verdict_linux(h, dev, &v);
	s = v.accept ? "accept" : vxgbp_drop_name(v.why);
	n = strlen(s);
	if (n + 2 > (size_t)(end - d))
		return NULL;
	*d++ = '"';
	memcpy(d, s, n);
	d[n] = '"';
	return d + n + 1;
}

/* What follows the G flags in the memo: the "gbp" object's end and the
 * next key (a group's name, rare, goes before it) */
#define GBP_CLOSE "},\"mark\":"

/* The parts of m for h; 0 when one does not fit (then h goes the slow way) */
static int vx_memo_build(struct gd_vx_memo *m, const struct vxgbp_hdr *h)
{
	char *d = m->head, *e;
	uint32_t mk;

	m->key = 0;
	PUT(d, "{\"kind\":\"vxlan\",\"flags\":");
	d = put_u64(d, h->flags);
	PUT(d, ",\"vni\":");
	m->head_n = (unsigned)(d - m->head);
	if (!gflags_ok || n_gflags * FRAG + sizeof(GBP_CLOSE) > sizeof(m->gbp))
		return 0;
	d = put_gbp_flags(NULL, m->gbp, h->flags); /* (gflags_ok: o unused) */
	PUT(d, GBP_CLOSE);
	m->gbp_n = (unsigned)(d - m->gbp);
	d = m->tail;
	e = m->tail + 128;
	PUT(d, ",\"reserved\":");
	d = put_u8(d, h->rsvd);
	PUT(d, ",\"linux\":{\"gbp\":");
	if (!(d = memo_verdict(d, e - 12, h, VXGBP_DEV_GBP)))
		return 0;
	PUT(d, ",\"plain\":");
	if (!(d = memo_verdict(d, e - 2, h, 0)))
		return 0;
	m->tail_n = (unsigned)(d - m->tail);
	if (m->gbp_n > 64)
		return 0;
	/* vxgbp.h's mark layout: the ID in bits 0-15, the rest from the flags:
	 * what is not the group is the same for every header of this key */
	mk = vxgbp_mark_from_hdr(h);
	m->mark_hi = mk & ~VXGBP_MARK_ID_MASK;
	m->mark_id = (mk & VXGBP_MARK_ID_MASK) == h->group;
	m->key = vx_key(h);
	return 1;
}

/* The "vxlan" object of a VXLAN(-GBP) header from the memo's parts and
 * its own numbers (the group's digits formatted once). */
JW_INLINE char *put_vxlan(struct gd_out *o, char *d, struct gd_print *pp,
			   const struct vxgbp_hdr *h)
{
	struct gd_vx_memo *m = &pp->vx_memo;
	char g[8] = "", *ge = g;

	if (m->key != vx_key(h) && !vx_memo_build(m, h))
		return put_vxlan_slow(o, d, pp, h);
	memcpy(d, m->head, sizeof(m->head));
	d = put_u64(d + m->head_n, h->vni);
	ge = put_u64(g, h->group); /* 5 digits at most */
	if (vxgbp_hdr_has_gbp(h)) {
		PUT(d, ",\"gbp\":{\"id\":");
		memcpy(d, g, 8);
		d += ge - g;
		memcpy(d, m->gbp, 64); /* the G flags, GBP_CLOSE */
		d += m->gbp_n;
		if (pp->groups && pp->groups->n) { /* a name goes before the '}' */
			d = put_gname(o, d - (sizeof(GBP_CLOSE) - 1), pp, h->group);
			PUT(d, GBP_CLOSE);
		}
	} else {
		PUT(d, ",\"gbp\":null,\"mark\":");
	}
	if (!m->mark_hi && m->mark_id) { /* the mark is the group */
		memcpy(d, g, 8);
		d += ge - g;
	} else {
		d = put_u64(d, m->mark_hi | (m->mark_id ? h->group : 0));
	}
	PUT(d, ",\"id_field\":");
	memcpy(d, g, 8);
	d += ge - g;
	/* the common tail (a verdict of each kind) is 63 bytes */
	memcpy(d, m->tail, 64);
	if (m->tail_n > 64)
		memcpy(d + 64, m->tail + 64, 64);
	d += m->tail_n;
	PUT(d, "}}");
	return d;
}

static void json_addr(struct gd_out *o, const uint8_t *a, size_t len)
{
	out_putc(o, '"');
	out_addr(o, a, len);
	out_putc(o, '"');
}

static void json_mac(struct gd_out *o, const uint8_t *m)
{
	out_putc(o, '"');
	out_mac(o, m);
	out_putc(o, '"');
}

/* The rule ids of f, lowest rule first; *first: no id written yet. */
static void json_findings(struct gd_out *o, uint64_t f, int *first)
{
	/* only the set bits (most frames have none) */
	for (; f; f &= f - 1) {
		unsigned r = (unsigned)__builtin_ctzll(f);
		const struct vxgbp_rule_info *ri;

		if (r >= VXGBP_R__COUNT || !(ri = vxgbp_rule_get(r)))
			continue;
		if (!*first)
			out_putc(o, ',');
		out_json_str(o, ri->id);
		*first = 0;
	}
}

static void json_bool(struct gd_out *o, const char *k, int v)
{
	out_str(o, k);
	out_str(o, v ? "true" : "false");
}

/* The "vxlan" object of a VXLAN-GPE header: its own fields, none of GBP's
 * (its Next Protocol sits where GBP has the group).  nsh_off: where the
 * NSH header it carries starts, -1 for none. */
static void json_gpe(struct gd_out *o, const struct vxgbp_hdr *h, int nsh_off)
{
	uint8_t np = vxgbp_gpe_next_proto(h);
	const char *name = vxgbp_gpe_np_name(np);

	out_str(o, "{\"kind\":\"gpe\",\"flags\":");
	out_u64(o, h->flags);
	out_str(o, ",\"vni\":");
	out_u64(o, h->vni);
	out_str(o, ",\"version\":");
	out_u64(o, (h->flags & VXGBP_GPE_F_VER) >> __builtin_ctz(VXGBP_GPE_F_VER));
	json_bool(o, ",\"next_proto_present\":", h->flags & VXGBP_GPE_F_P);
	json_bool(o, ",\"bum\":", h->flags & VXGBP_GPE_F_B);
	json_bool(o, ",\"oam\":", h->flags & VXGBP_GPE_F_O);
	out_str(o, ",\"next_proto\":");
	out_u64(o, np);
	if (name) {
		out_str(o, ",\"next_proto_name\":");
		out_json_str(o, name);
	}
	if (nsh_off >= 0) {
		out_str(o, ",\"nsh_offset\":");
		out_u64(o, (unsigned)nsh_off);
	}
	out_str(o, ",\"reserved_byte2\":");
	out_u64(o, h->group >> 8);
	out_str(o, ",\"reserved\":");
	out_u64(o, h->rsvd);
	out_putc(o, '}');
}


/* The "vxlan" object of a header of either kind (a nested one's too). */
static void json_hdr(struct gd_out *o, struct gd_print *pp, const struct vxgbp_hdr *h,
		     unsigned kind, int nsh_off)
{
	char *d;

	if (kind == VXGBP_VX_GPE) {
		json_gpe(o, h, nsh_off);
		return;
	}
	d = jw_open(o);
	jw_close(o, put_vxlan(o, d, pp, h));
}

/* ,"inner":{level} or ,"inner":null */
static void json_inner(struct gd_out *o, int present, const uint8_t *frame,
		       const struct vxgbp_layers *ls)
{
	char *d = jw_open(o);

	PUT(d, ",\"inner\":");
	jw_close(o, put_level(o, d, present, frame, ls, NULL));
}

/* "ip":4,"src":..,"dst":.., : the IP header that delivers a tunnel layer
 * (nothing when there is none) */
static void json_delivery(struct gd_out *o, uint8_t ver, const uint8_t *src, const uint8_t *dst)
{
	size_t alen = ver == 6 ? 16 : 4;

	if (!ver || !src || !dst)
		return;
	key(o, "ip");
	out_u64(o, ver);
	out_putc(o, ',');
	key(o, "src");
	json_addr(o, src, alen);
	out_putc(o, ',');
	key(o, "dst");
	json_addr(o, dst, alen);
	out_putc(o, ',');
}

/* ,"k":v */
static void json_num(struct gd_out *o, const char *k, uint64_t v)
{
	out_putc(o, ',');
	out_json_str(o, k);
	out_putc(o, ':');
	out_u64(o, v);
}

/* The fields of one tunnel layer that its kind has. */
static void json_encap_fields(struct gd_out *o, const struct vxgbp_encap *e)
{
	switch (e->kind) {
	case VXGBP_ENCAP_GRE:
	case VXGBP_ENCAP_ERSPAN1:
	case VXGBP_ENCAP_ERSPAN2:
	case VXGBP_ENCAP_ERSPAN3:
		json_num(o, "flags", e->flags); /* the GRE header's, ERSPAN's too */
		if (e->has_id)
			json_num(o, "key", e->id);
		if (e->kind == VXGBP_ENCAP_GRE || e->kind == VXGBP_ENCAP_ERSPAN1)
			break;
		json_num(o, "version", e->erspan_ver);
		json_num(o, "session", e->erspan_session);
		json_num(o, "vlan", e->erspan_vlan);
		break;
	case VXGBP_ENCAP_GENEVE:
		json_num(o, "sport", e->sport);
		json_num(o, "dport", e->dport);
		json_num(o, "flags", e->flags);
		json_num(o, "vni", e->id);
		json_num(o, "opt_len", e->opt_len);
		break;
	case VXGBP_ENCAP_MPLS:
		json_num(o, "label", e->id);
		json_num(o, "label_count", e->ver);
		break;
	default: /* IP in IP: the delivery and what it carries */
		break;
	}
	if (e->has_seq)
		json_num(o, "seq", e->seq);
}

/* ,"encap":[{"type":"gre",...},...]: the layers around the first VXLAN
 * header, outermost first (only when there are any). */
static void json_encap(struct gd_out *o, const struct vxgbp_pkt *p)
{
	const struct vxgbp_encap_info *ei;

	if (!p->n_encap)
		return;
	out_str(o, ",\"encap\":[");
	for (unsigned i = 0; i < p->n_encap && i < VXGBP_MAX_ENCAP; i++) {
		const struct vxgbp_encap *e = &p->encap[i];

		out_str(o, i ? ",{" : "{");
		key(o, "type");
		ei = vxgbp_encap_get(e->kind);
		out_json_str(o, ei && ei->key ? ei->key : "unknown");
		out_putc(o, ',');
		if (e->eth_src && e->eth_dst) {
			key(o, "smac");
			json_mac(o, e->eth_src);
			out_putc(o, ',');
			key(o, "dmac");
			json_mac(o, e->eth_dst);
			out_putc(o, ',');
		}
		json_delivery(o, e->ip_version, e->ip_src, e->ip_dst);
		key(o, "ethertype");
		out_u64(o, e->proto);
		json_encap_fields(o, e);
		out_putc(o, '}');
	}
	out_putc(o, ']');
}

/* One further VXLAN header: its delivery, the header, its frame, its own
 * findings. */
static void json_nested_one(struct gd_out *o, struct gd_print *pp, const uint8_t *frame,
			    const struct vxgbp_nested *n)
{
	int first = 1;

	out_putc(o, '{');
	json_delivery(o, n->ip_version, n->ip_src, n->ip_dst);
	key(o, "sport");
	out_u64(o, n->sport);
	out_putc(o, ',');
	key(o, "dport");
	out_u64(o, n->dport);
	out_putc(o, ',');
	key(o, "vxlan");
	json_hdr(o, pp, &n->vx, n->kind, -1);
	json_inner(o, (n->have & (VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3)) != 0, frame,
		   &n->inner);
	out_str(o, ",\"findings\":[");
	json_findings(o, n->findings, &first);
	out_str(o, "]}");
}

/* ,"nested":[...],"fabric":K (only when there are nested headers): K the
 * header the analysis follows (vxgbp_pkt_fabric()), 0 "vxlan", k
 * nested[k - 1] */
static void json_nested(struct gd_out *o, struct gd_print *pp, const uint8_t *frame,
			const struct vxgbp_pkt *p)
{
	int fab;

	if (!p->n_nested)
		return;
	fab = vxgbp_pkt_fabric(p, pp->fabric);
	out_str(o, ",\"nested\":[");
	for (unsigned i = 0; i < p->n_nested && i < VXGBP_MAX_NESTED; i++) {
		if (i)
			out_putc(o, ',');
		json_nested_one(o, pp, frame, &p->nested[i]);
	}
	out_str(o, "],\"fabric\":");
	out_u64(o, fab > 0 ? (unsigned)fab : 0);
}

/* ---- where each finding belongs ---- */

enum layer {
	LAYER_FRAME,  /* the frame as a whole */
	LAYER_OUTER,  /* what delivers the first VXLAN header (the whole frame
	                 when there is none) */
	LAYER_VXLAN,  /* the first VXLAN header */
	LAYER_INNER,  /* the frame it carries */
	LAYER_LABEL,  /* a CIPSO/CALIPSO option: the level that carries it */
	LAYER_ERROR,  /* where the parse stopped */
};

/* where the parse stopped: the frame's, also when a nested frame stopped it */
#define PARSE_RULES (VXGBP_RB(VXGBP_R_TRUNCATED) | VXGBP_RB(VXGBP_R_MALFORMED))

static const char *const layer_names[] = {
	[LAYER_FRAME] = "frame", [LAYER_OUTER] = "outer",
	[LAYER_VXLAN] = "vxlan", [LAYER_INNER] = "inner",
};

/* The layer of a rule among the frame's own findings: its scope in
 * libvxgbp's rule table. */
static enum layer rule_layer(unsigned r)
{
	const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

	switch (ri ? ri->scope : VXGBP_SCOPE_FRAME) {
	case VXGBP_SCOPE_HEADER:
		return LAYER_VXLAN;
	case VXGBP_SCOPE_OUTER:
		return LAYER_OUTER;
	case VXGBP_SCOPE_INNER:
		return LAYER_INNER;
	case VXGBP_SCOPE_LABEL:
		return LAYER_LABEL;
	case VXGBP_SCOPE_PARSE:
		return LAYER_ERROR;
	default:
		return LAYER_FRAME;
	}
}

/* The label rules libvxgbp finds in the CIPSO/CALIPSO option of one level. */
static uint64_t label_rules(const uint8_t *frame, const struct vxgbp_l3 *l3)
{
	if (l3->off < 0)
		return 0;
	if (l3->cipso_off >= 0) {
		struct vxgbp_cipso c = { .findings = 0 };

		vxgbp_cipso_parse(&c, frame + l3->cipso_off, l3->cipso_len);
		return c.findings;
	}
	if (l3->calipso_off >= 0) {
		struct vxgbp_calipso c = { .findings = 0 };

		vxgbp_calipso_parse(&c, frame + l3->calipso_off, l3->calipso_len);
		return c.findings;
	}
	return 0;
}

/* Where the parse stopped (libvxgbp's vxgbp_pkt_err_scope): "nested[i]"
 * (*nested = i), the first VXLAN header, its frame, or what delivers it. */
static enum layer error_layer(const struct vxgbp_pkt *p, int *nested)
{
	switch (vxgbp_pkt_err_scope(p, nested)) {
	case VXGBP_SCOPE_HEADER:
		return LAYER_VXLAN;
	case VXGBP_SCOPE_INNER:
		return LAYER_INNER;
	case VXGBP_SCOPE_OUTER:
		return LAYER_OUTER;
	default:
		return LAYER_FRAME;
	}
}

/* {"id":..,"layer":"NAME"}, or "NAME[idx]" for idx >= 0 */
static void json_rule_at(struct gd_out *o, unsigned r, const char *name, int idx, int *first)
{
	const struct vxgbp_rule_info *ri = vxgbp_rule_get(r);

	if (!ri)
		return;
	out_str(o, *first ? "{\"id\":" : ",{\"id\":");
	*first = 0;
	out_json_str(o, ri->id);
	out_str(o, ",\"layer\":\"");
	out_str(o, name);
	if (idx >= 0) {
		out_putc(o, '[');
		out_u64(o, (unsigned)idx);
		out_putc(o, ']');
	}
	out_str(o, "\"}");
}

/* layer l, or "nested[N]" for nested >= 0 */
static void json_located(struct gd_out *o, unsigned r, enum layer l, int nested, int *first)
{
	json_rule_at(o, r, nested >= 0 ? "nested" : layer_names[l], nested, first);
}

/* One rule of the frame's own findings, with the layer (or layers: a label
 * rule may hold in the outer and the inner option) it belongs to. */
static void json_locate(struct gd_out *o, const struct gd_rec *rec, const struct vxgbp_pkt *p,
			unsigned r, int *first)
{
	enum layer l = rule_layer(r);
	int nested = -1;

	if (l == LAYER_LABEL) {
		int n = 0;

		if (label_rules(rec->data, &p->outer.l3) & VXGBP_RB(r)) {
			json_located(o, r, LAYER_OUTER, -1, first);
			n++;
		}
		if ((p->have & VXGBP_HAVE_INNER_L3) &&
		    (label_rules(rec->data, &p->inner.l3) & VXGBP_RB(r))) {
			json_located(o, r, LAYER_INNER, -1, first);
			n++;
		}
		if (!n)
			json_located(o, r, LAYER_FRAME, -1, first);
		return;
	}
	if (l == LAYER_ERROR)
		l = error_layer(p, &nested);
	json_located(o, r, l, nested, first);
}

/* ,"finding_layers":[{"id":..,"layer":..},...]: every finding of the frame
 * with the layer it belongs to: the tunnel layers' (outermost first), the
 * frame's own, the nested headers', then
 * the tracker's (which judges the fabric header).  Only when there is a
 * finding. */
static void json_finding_layers(struct gd_out *o, const struct gd_print *pp,
				const struct gd_rec *rec, const struct vxgbp_pkt *p,
				uint64_t cross)
{
	int fab = vxgbp_pkt_fabric(p, pp->fabric);
	int first = 1;

	out_str(o, ",\"finding_layers\":[");
	for (unsigned i = 0; i < p->n_encap && i < VXGBP_MAX_ENCAP; i++)
		for (uint64_t f = p->encap_findings[i]; f; f &= f - 1)
			json_rule_at(o, (unsigned)__builtin_ctzll(f), "encap", (int)i, &first);
	for (uint64_t f = p->findings; f; f &= f - 1)
		json_locate(o, rec, p, (unsigned)__builtin_ctzll(f), &first);
	for (unsigned i = 0; i < p->n_nested && i < VXGBP_MAX_NESTED; i++)
		/* where the parse stopped is the frame's, located above */
		for (uint64_t f = p->nested[i].findings & ~(p->findings & PARSE_RULES); f;
		     f &= f - 1)
			json_located(o, (unsigned)__builtin_ctzll(f), LAYER_FRAME, (int)i, &first);
	for (; cross; cross &= cross - 1)
		json_located(o, (unsigned)__builtin_ctzll(cross), LAYER_VXLAN, fab > 0 ? fab - 1 : -1,
			     &first);
	out_putc(o, ']');
}

/* ,"findings":[ids][,"finding_layers":[..]][,"error":{..}] */
static void json_verdicts(struct gd_out *o, const struct gd_print *pp, const struct gd_rec *rec,
			  const struct vxgbp_pkt *p, uint64_t cross)
{
	uint64_t own = p->findings;
	int first = 1;

	for (unsigned i = 0; i < p->n_nested && i < VXGBP_MAX_NESTED; i++)
		own |= p->nested[i].findings;
	for (unsigned i = 0; i < p->n_encap && i < VXGBP_MAX_ENCAP; i++)
		own |= p->encap_findings[i];
	out_str(o, ",\"findings\":[");
	json_findings(o, own, &first);
	json_findings(o, cross, &first); /* the tracker's, after the frame's own */
	out_putc(o, ']');
	if (own | cross)
		json_finding_layers(o, pp, rec, p, cross);
	if (p->err) {
		out_str(o, ",\"error\":{\"kind\":");
		out_json_str(o, p->err == VXGBP_E_TRUNCATED ? "truncated"
			     : p->err == VXGBP_E_MALFORMED ? "malformed" : "unsupported");
		out_str(o, ",\"layer\":");
		out_json_str(o, p->err_layer ? p->err_layer : "?");
		out_str(o, ",\"offset\":");
		out_i64(o, p->err_off);
		out_putc(o, '}');
	}
}

/* "len":N,"caplen":N; a whole frame's length formatted once */
static char *put_len(char *d, const struct gd_rec *rec)
{
	char *n = d;

	d = put_u64(d, rec->wirelen);
	PUT(d, ",\"caplen\":");
	if (rec->caplen == rec->wirelen && d - n <= 18) { /* 8 digits or fewer */
		memcpy(d, n, 8); /* (d is 10 past n's digits: no overlap) */
		return d + (d - n - 10);
	}
	return put_u64(d, rec->caplen);
}

void print_json(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
		const struct vxgbp_pkt *p, uint64_t cross)
{
	char *d = jw_open(o);

	PUT(d, "{\"frame\":");
	d = put_u64(d, rec->no);
	d = put_time(d, pp, rec);
	PUT(d, ",\"len\":");
	d = put_len(d, rec);
	PUT(d, ",\"outer\":");
	d = put_level(o, d, (p->have & (VXGBP_HAVE_L2 | VXGBP_HAVE_L3)) != 0, rec->data,
		      &p->outer, &pp->mac_memo);
	if (p->n_encap) {
		jw_close(o, d);
		json_encap(o, p);
		d = jw_open(o); /* the rest's room */
	}
	PUT(d, ",\"vxlan\":");
	if (!(p->have & VXGBP_HAVE_VXLAN)) {
		PUT(d, "null");
	} else if (p->vx_kind != VXGBP_VX_GPE) {
		d = put_vxlan(o, d, pp, &p->vx);
	} else {
		jw_close(o, d);
		json_gpe(o, &p->vx, p->nsh_off);
		d = jw_open(o);
	}
	PUT(d, ",\"inner\":");
	d = put_level(o, d, (p->have & (VXGBP_HAVE_INNER_L2 | VXGBP_HAVE_INNER_L3)) != 0,
		      rec->data, &p->inner, NULL);
	if (!(p->n_nested | p->n_encap | p->findings | cross | (unsigned)p->err)) { /* most frames */
		PUT(d, ",\"findings\":[]}\n");
		jw_close(o, d);
		return;
	}
	jw_close(o, d);
	json_nested(o, pp, rec->data, p);
	json_verdicts(o, pp, rec, p, cross);
	out_str(o, "}\n");
}
