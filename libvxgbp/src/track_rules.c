// SPDX-License-Identifier: BSD-2-Clause
/*
 * track_rules.c - the four cross-frame rules, judged on the frame where
 * they are seen:
 *  - a fixed direct-mapped cache of the last TRK_DUP_SLOTS distinct inner
 *    frames (64-bit hash of VNI + inner bytes) for the re-applied / cleared
 *    policy rules: a frame captured on both sides of a policy device shows
 *    up twice within a short window, so a bounded cache is enough;
 *  - endpoints (VNI + inner source MAC, VNI + inner source IP or ARP
 *    sender) and inner flows (VNI + IP version, protocol, addresses, and
 *    ports for TCP and UDP), each keeping the last group ID seen.
 * A re-sighting already reported is not also an endpoint or flow change.
 */
#include <string.h>

#include "track.h"
#include "track_rules.h"

static uint64_t mix(uint64_t h, uint64_t w)
{
	h ^= w;
	h *= 0x9e3779b97f4a7c15ull;
	h ^= h >> 29;
	return h;
}

#define K0 0x9e3779b97f4a7c15ull
#define K1 0xc2b2ae3d27d4eb4full
#define K2 0x165667b19e3779f9ull
#define K3 0xd6e8feb86659fd93ull

/* The 128-bit product of a and b, its halves folded with xor: 16 bytes
 * mixed by one multiply. */
static inline uint64_t fold(uint64_t a, uint64_t b)
{
	__extension__ typedef unsigned __int128 u128;
	u128 m = (u128)a * b;

	return (uint64_t)m ^ (uint64_t)(m >> 64);
}

/* 8 bytes at b, in host order (as memcpy to a uint64_t always did) */
static inline uint64_t ld64(const uint8_t *b)
{
	uint64_t w;

	memcpy(&w, b, 8);
	return w;
}

/* 16 bytes of lane l at q mixed in: one lane's multiplies wait for each
 * other, the four lanes of a 64-byte step do not. */
#define LANE(l, q, k) ((l) = fold(ld64(q) ^ (k), ld64((q) + 8) ^ (l)))

static inline void step64(uint64_t l[4], const uint8_t *q)
{
	LANE(l[0], q, K0);
	LANE(l[1], q + 16, K1);
	LANE(l[2], q + 32, K2);
	LANE(l[3], q + 48, K3);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define DUP_HASH_BMI2 1
/* step64 with BMI2's mulx, each lane five instructions: the constant (an
 * immediate: no register held for it) and the first word into rdx, the
 * second word into the lane, the product's halves into the lane and t,
 * folded.  In C, GCC keeps both halves of each product alive into the next
 * lane and spills.  Two steps a turn of the loop (step128_bmi2: the same
 * lanes, 64 bytes further), so the loop's add, compare and branch come
 * once for both. */
struct blk64 {
	uint8_t b[64];
};
struct blk128 {
	uint8_t b[128];
};
#define LANE_ASM(l, o, k)                                                           \
	"mov %[" k "], %%rdx\n\t"                                                  \
	"xor " o "(%[q]), %%rdx\n\t"                                               \
	"xor " o "+8(%[q]), %[" l "]\n\t"                                          \
	"mulx %[" l "], %[" l "], %[t]\n\t"                                        \
	"xor %[t], %[" l "]\n\t"
/* the four lanes of the 64 bytes at o(q) */
#define STEP_ASM(o)                                                                 \
	LANE_ASM("l0", o "+0", "k0") LANE_ASM("l1", o "+16", "k1")                      \
	LANE_ASM("l2", o "+32", "k2") LANE_ASM("l3", o "+48", "k3")
#define STEP_OUT(l, t)                                                              \
	[l0] "+r"(l[0]), [l1] "+r"(l[1]), [l2] "+r"(l[2]), [l3] "+r"(l[3]), [t] "=&r"(t)
#define STEP_K [k0] "i"(K0), [k1] "i"(K1), [k2] "i"(K2), [k3] "i"(K3)

__attribute__((target("bmi2"))) static inline void step64_bmi2(uint64_t l[4], const uint8_t *q)
{
	uint64_t t;

	/* the "m" operand: the asm reads these 64 bytes */
	__asm__(STEP_ASM("0")
		: STEP_OUT(l, t)
		: [q] "r"(q), STEP_K, "m"(*(const struct blk64 *)q)
		: "rdx", "cc");
}

__attribute__((target("bmi2"))) static inline void step128_bmi2(uint64_t l[4], const uint8_t *q)
{
	uint64_t t;

	__asm__(STEP_ASM("0") STEP_ASM("64")
		: STEP_OUT(l, t)
		: [q] "r"(q), STEP_K, "m"(*(const struct blk128 *)q)
		: "rdx", "cc");
}
#endif

/* The last r (< 16) bytes of b[0..n) as two zero-padded host-order words,
 * what a memcpy into w[] zeroed gives.  With n >= 16 on a little-endian
 * host they come from whole loads that end at b + n (shifted down: the
 * bytes before the tail go out), no library call. */
static inline void tail_words(const uint8_t *b, size_t n, size_t r, uint64_t w[2])
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (n >= 16) {
		w[0] = w[1] = 0;
		if (r > 8) {
			w[0] = ld64(b + n - r);
			w[1] = ld64(b + n - 8) >> (8 * (16 - r));
		} else if (r) {
			w[0] = ld64(b + n - 8) >> (8 * (8 - r));
		}
		return;
	}
#endif
	w[0] = w[1] = 0;
	memcpy(w, b + n - r, r);
}

/* The rest of the hash once the 64-byte steps are done (i: the bytes
 * they took): the lanes folded, 16 bytes at a time, the tail and the
 * length. */
static inline __attribute__((always_inline)) uint64_t hash_end(const uint64_t l[4],
								 const uint8_t *b, size_t i,
								 size_t n)
{
	uint64_t h, w[2];

	/* the pairs must differ, or short inputs (l[] all h) cancel out */
	h = fold(l[0] ^ K2, l[1] ^ K3) ^ fold(l[2] ^ K1, l[3] ^ K0);
	for (; i + 16 <= n; i += 16)
		h = fold(ld64(b + i) ^ K0, ld64(b + i + 8) ^ h);
	tail_words(b, n, n - i, w);
	h = fold(w[0] ^ K1, w[1] ^ h ^ ((uint64_t)n << 32));
	return fold(h ^ K2, h ^ K3) ^ h;
}

/*
 * 64-bit hash of n bytes: four lanes of 16 bytes each over the whole 64-byte
 * steps, then hash_end.  Its values are results (the cache's slots,
 * --merge's summaries): a change of this code must keep them; unit_rules
 * holds every path to a plain copy of the function.
 */
static uint64_t hash_plain(uint64_t h, const uint8_t *b, size_t n)
{
	uint64_t l[4] = { h ^ K0, h ^ K1, h ^ K2, h ^ K3 };
	size_t i;

	for (i = 0; i + 64 <= n; i += 64)
		step64(l, b + i);
	return hash_end(l, b, i, n);
}

#ifdef DUP_HASH_BMI2
__attribute__((target("bmi2"))) static uint64_t hash_bmi2(uint64_t h, const uint8_t *b,
							  size_t n)
{
	uint64_t l[4] = { h ^ K0, h ^ K1, h ^ K2, h ^ K3 };
	const uint8_t *q = b, *e = b + (n & ~(size_t)127);

	for (; q != e; q += 128)
		step128_bmi2(l, q);
	if (n & 64)
		step64_bmi2(l, q);
	return hash_end(l, b, n & ~(size_t)63, n);
}
#define HAVE_BMI2(isa) ((isa) && __builtin_cpu_supports("bmi2"))
#else
#define hash_bmi2 hash_plain
#define HAVE_BMI2(isa) 0
#endif

/* The recent-frame cache's hash of VNI vni and inner bytes b[0..n).  isa:
 * 1 BMI2 when the CPU has it (libgcc's table, filled in before main()),
 * 0 plain C.  Inline: the frame's path makes one call, to the hash. */
static inline uint64_t dup_hash(uint32_t vni, const uint8_t *b, size_t n, int isa)
{
	uint64_t h = mix(0x27d4eb2f165667c5ull, vni);

	return HAVE_BMI2(isa) ? hash_bmi2(h, b, n) : hash_plain(h, b, n);
}

/* dup_hash for unit_rules, which compares both paths with a plain copy */
uint64_t vxgbpi_dup_hash(uint32_t vni, const uint8_t *b, size_t n, int isa)
{
	return dup_hash(vni, b, n, isa);
}

static void add_hit(struct vxgbp_track_result *r, unsigned rule, enum vxgbp_track_key key,
		    uint64_t frame, uint16_t group, uint16_t flags)
{
	struct vxgbp_track_hit *x;

	if (!r)
		return;
	r->findings |= VXGBP_RB(rule);
	if (r->n_hits >= VXGBP_TRACK_MAX_HITS)
		return;
	x = &r->hit[r->n_hits++];
	x->rule = rule;
	x->key = key;
	x->prev_frame = frame;
	x->prev_group = group;
	x->prev_flags = flags;
}

/* The cache slot of the inner frame's len bytes at b (hash *hh), asked
 * for. */
static struct trk_dup *dup_slot(const struct trk_state *st, const struct vxgbp_pkt *p,
				const uint8_t *b, size_t len, uint64_t *hh)
{
	struct trk_dup *d;

	*hh = dup_hash(p->vx.vni, b, len, 1);
	d = &st->dup[*hh & (TRK_DUP_SLOTS - 1)];
	TRK_PREFETCH_W(d);
	return d;
}

/* The same inner frame seen again (slot d, hash hh): re-applied or cleared
 * policy.  Returns the rule hit, or 0.  The slot then remembers this frame. */
static unsigned dup_check(struct trk_dup *d, uint64_t hh, size_t len, const struct vxgbp_pkt *p,
			  uint64_t frame, struct vxgbp_track_result *r)
{
	const struct vxgbp_hdr *h = &p->vx;
	unsigned rule = 0;

	if (d->frame && d->h == hh && d->len == len) {
		rule = trk_dup_rule(d->flags, d->group, h->flags, h->group);
		if (rule)
			add_hit(r, rule, VXGBP_KEY_FRAME, d->frame, d->group, d->flags);
	}
	d->h = hh;
	d->len = (uint32_t)len;
	d->frame = frame;
	d->flags = h->flags;
	d->group = h->group;
	return rule;
}

/* A GBP frame's keys in the endpoint and flow tables, with their hashes
 * and the slots they were found in (NULL: not held). */
struct keys {
	uint64_t mac[TRK_KEY4], ip[TRK_KEY4], flow[TRK_KEY6];
	uint64_t h_mac, h_ip, h_flow;
	int has_mac, has_ip, has_flow;
	struct trk_slot *s_mac, *s_ip, *s_flow;
	struct trk_slot *e_mac, *e_ip, *e_flow; /* where their probes ended */
};

/* Endpoints: VNI + inner source MAC (none without an Ethernet header:
 * VXLAN-GPE carrying IP), VNI + inner source IP (or ARP sender).  Flows: VNI + inner IP version, protocol, addresses, ports (0
 * for protocols without them).  Their slots are prefetched: the inner
 * frame's hash runs while they come in. */
static void keys_make(struct keys *k, const struct trk_state *st, const struct vxgbp_pkt *p)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;
	size_t alen = l3->version == 6 ? 16 : 4;
	int ip = (p->have & VXGBP_HAVE_INNER_L3) && l3->src;
	uint64_t sp = 0, dp = 0;

	k->mac[0] = k->ip[0] = TRK_USED | p->vx.vni;
	if ((k->has_mac = (p->have & VXGBP_HAVE_INNER_L2) != 0)) {
		k->mac[1] = 0; /* family 0: a MAC address */
		trk_addr_words(k->mac + 2, p->inner.l2.src, 6);
		k->h_mac = trk_hash(k->mac, TRK_KEY4);
		trk_tab_prefetch(&st->eps, k->h_mac);
	}
	k->has_ip = 1;
	if (ip && (l3->version == 4 || l3->version == 6)) {
		k->ip[1] = l3->version;
		trk_addr_words(k->ip + 2, l3->src, alen);
	} else if (l3->arp_spa) {
		k->ip[1] = 4;
		trk_addr_words(k->ip + 2, l3->arp_spa, 4);
	} else {
		k->has_ip = 0;
	}
	if (k->has_ip) {
		k->h_ip = trk_hash(k->ip, TRK_KEY4);
		trk_tab_prefetch(&st->eps, k->h_ip);
	}
	if (!(k->has_flow = ip && l3->dst))
		return;
	/* ports only where the parser reads them: TCP and UDP (ICMP's echo
	 * id/sequence are not a flow) */
	if ((p->have & VXGBP_HAVE_INNER_L4) && (l3->proto == 6 || l3->proto == 17)) {
		sp = p->inner.l4.sport;
		dp = p->inner.l4.dport;
	}
	k->flow[0] = TRK_USED | p->vx.vni | (uint64_t)l3->version << 24 |
		     (uint64_t)l3->proto << 32;
	k->flow[1] = sp | dp << 16;
	trk_addr_words(k->flow + 2, l3->src, alen);
	trk_addr_words(k->flow + 4, l3->dst, alen);
	k->h_flow = trk_hash(k->flow, TRK_KEY6);
	trk_tab_prefetch(&st->flows, k->h_flow);
}

/* One endpoint or flow slot (NULL: its key found no room): a change of
 * group is a finding of `rule`. */
static void judge(struct trk_slot *s, const struct vxgbp_pkt *p, uint64_t frame,
		  unsigned rule, enum vxgbp_track_key key, struct vxgbp_track_result *r)
{
	if (!s)
		return;
	if (trk_group_rule(s->v.ep.frame, s->v.ep.group, p->vx.group, rule))
		add_hit(r, rule, key, s->v.ep.frame, s->v.ep.group, s->v.ep.flags);
	s->v.ep.frame = frame;
	s->v.ep.group = p->vx.group;
	s->v.ep.flags = p->vx.flags;
}

/* Look the keys up (no insertion yet: a re-sighting reported changes no
 * table). */
static void keys_find(struct keys *k, const struct trk_state *st)
{
	k->s_mac = k->s_ip = k->s_flow = k->e_mac = k->e_ip = k->e_flow = NULL;
	if (k->has_mac)
		k->s_mac = trk_tab_probe(&st->eps, k->mac, TRK_KEY4, k->h_mac, &k->e_mac);
	if (k->has_ip)
		k->s_ip = trk_tab_probe(&st->eps, k->ip, TRK_KEY4, k->h_ip, &k->e_ip);
	if (k->has_flow)
		k->s_flow = trk_tab_probe(&st->flows, k->flow, TRK_KEY6, k->h_flow, &k->e_flow);
}

/* The slot of a key found by keys_find (s; else its probe ended on free
 * slot end), or inserted now; NULL when it found no room (*full gets
 * bit).  cap0: the table's size when s was found (an insertion since may
 * have moved every slot). */
static inline struct trk_slot *slot_of(struct trk_state *st, struct trk_tab *t, struct trk_slot *s,
				struct trk_slot *end, size_t cap0, const uint64_t *k,
				unsigned nw, uint64_t h, unsigned *full, unsigned bit)
{
	if (t->cap != cap0)
		s = nw == TRK_KEY6 ? trk_tab_probe(t, k, TRK_KEY6, h, &end)
				   : trk_tab_probe(t, k, TRK_KEY4, h, &end);
	if (!s && !(s = trk_tab_put(&st->mem, t, end, k, h)))
		*full |= bit;
	return s;
}

/* The endpoint and flow rules, in the order MAC, IP, flow.  Returns
 * VXGBP_TRACK_FULL_* of the keys that found no room. */
static unsigned changes(struct trk_state *st, const struct keys *k, const struct vxgbp_pkt *p,
			uint64_t frame, struct vxgbp_track_result *r)
{
	const unsigned fe = VXGBP_TRACK_FULL_ENDPOINTS, ff = VXGBP_TRACK_FULL_FLOWS;
	size_t cap = st->eps.cap;
	unsigned full = 0;
	struct trk_slot *s;

	if (k->has_mac) {
		s = slot_of(st, &st->eps, k->s_mac, k->e_mac, cap, k->mac, TRK_KEY4, k->h_mac,
			    &full, fe);
		judge(s, p, frame, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_MAC, r);
	}
	if (k->has_ip) {
		s = slot_of(st, &st->eps, k->s_ip, k->e_ip, cap, k->ip, TRK_KEY4, k->h_ip, &full,
			    fe);
		judge(s, p, frame, VXGBP_R_GROUP_CONFLICT, VXGBP_KEY_IP, r);
	}
	if (k->has_flow) {
		s = slot_of(st, &st->flows, k->s_flow, k->e_flow, st->flows.cap, k->flow,
			    TRK_KEY6, k->h_flow, &full, ff);
		judge(s, p, frame, VXGBP_R_FLOW_GROUP_CHANGE, VXGBP_KEY_FLOW, r);
	}
	return full;
}

/* VXGBP_TRACK_FIRSTS (track_merge.c): the keys of this frame the rules
 * have not seen yet (slots as keys_find found them, before any change). */
static void firsts(struct trk_state *st, const struct keys *k, const struct vxgbp_pkt *p,
		   uint64_t frame)
{
	if (k->has_mac && (!k->s_mac || !k->s_mac->v.ep.frame))
		vxgbpi_first_note(st, k->mac, TRK_KEY4, k->h_mac, p, frame);
	if (k->has_ip && (!k->s_ip || !k->s_ip->v.ep.frame))
		vxgbpi_first_note(st, k->ip, TRK_KEY4, k->h_ip, p, frame);
	if (k->has_flow && (!k->s_flow || !k->s_flow->v.ep.frame))
		vxgbpi_first_note(st, k->flow, TRK_KEY6, k->h_flow, p, frame);
}

/*
 * The memory a frame waits for is asked for early: the endpoint and flow
 * slots before the inner frame is hashed, the cache slot before the
 * endpoints and flows are looked up; the cache is judged first all the
 * same, and nothing is inserted or updated before it is.
 */
unsigned vxgbpi_rules_frame(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
			    struct vxgbp_track_result *r)
{
	struct keys k;
	struct trk_dup *d;
	uint64_t hh;
	size_t len;
	const uint8_t *b = trk_inner(p, &len);
	int gbp = vxgbp_hdr_has_gbp(&p->vx);

	if (!b)
		return 0;
	if (r && !(p->have & VXGBP_HAVE_INNER_L2)) /* VXLAN-GPE carrying IP */
		r->unjudged |= VXGBP_TRACK_UNJUDGED_MAC;
	if (gbp)
		keys_make(&k, st, p);
	d = dup_slot(st, p, b, len, &hh);
	if (st->dfirst) /* FIRSTS: track_merge.c */
		vxgbpi_first_touch(st, d, hh, len, p, frame);
	if (gbp)
		keys_find(&k, st);
	if (dup_check(d, hh, len, p, frame, r) || !gbp)
		return 0; /* a re-sighting already reported is not also a change */
	if (st->dfirst)
		firsts(st, &k, p, frame);
	return changes(st, &k, p, frame, r);
}
