/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * track.h - what the tracker's files share (internal, not installed):
 *   track_table.c   the memory budget and the open-addressing tables
 *   track_rules.c   the four cross-frame rules (recent-frame cache,
 *                   endpoints, flows)
 *   track_matrix.c  counters per VNI and group, the (source group, VNI,
 *                   destination) pairs, the group-to-group matrix
 *   track_flows.c   bidirectional flows for a policy audit (FLOWS)
 *   track_mirror.c  frames per mirror (MATRIX)
 *   track.c         the public entry points
 * vxgbpi_ names stay out of the shared library's exports.
 */
#ifndef VXGBP_TRACK_H
#define VXGBP_TRACK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <vxgbp/vxgbp.h>
#include <vxgbp_internal.h>

/* ---- memory ---- */

/* The caller's allocator and what the tracker holds of it. */
struct trk_mem {
	void *(*zalloc)(void *ctx, size_t size);
	void (*free)(void *ctx, void *ptr, size_t size);
	void *ctx;
	size_t budget; /* most bytes held at once */
	size_t held;   /* bytes held now */
};

/* size bytes, zeroed, or NULL when the budget or zalloc cannot give them. */
void *vxgbpi_mem_get(struct trk_mem *m, size_t size);
void vxgbpi_mem_put(struct trk_mem *m, void *ptr, size_t size);

/* ---- tables ----
 *
 * Open addressing, linear probing, one 64-byte slot a key (the slots are
 * 64-byte aligned: a probe that misses the cache costs one line).  A key
 * is TRK_KEY4 or TRK_KEY6 64-bit words, built, hashed and compared a word
 * at a time; word 0 of every stored key has TRK_USED set, so a free slot
 * is all zero.  A slot of 4-word keys keeps the key's hash in word
 * TRK_KEY4 (a table that grows moves its keys without hashing them again).  A table doubles when it would pass 3/4 full; when it
 * cannot (budget, allocator), it keeps its size and new keys are counted
 * in `dropped` instead of stored.
 */
#define TRK_USED (1ull << 63)
#define TRK_KEY4 4u /* endpoints, pairs, VNIs */
#define TRK_KEY6 6u /* flows */
#define TRK_TAB_MIN 64u

/* A matrix endpoint's group, as stored: TRK_LEARNED | group; 0 not learned. */
#define TRK_LEARNED 0x80000000u
/* A 4-word key's slot: word TRK_KEY4 holds its hash, word TRK_MFRAME (a
 * matrix endpoint's) the frame that taught it mgroup, a VNI's or pair's
 * the frame that brought the key (TRK_FIRST).  A tracker of the matrix
 * alone keeps in its endpoint slots the first frame in word TRK_KEY4
 * instead of the hash (the table hashes again when it grows: trk_tab's
 * rehash) and the endpoint's frames in v.ep.frame.  So trackers fed
 * disjoint frames merge to what one tracker fed them all holds
 * (vxgbp_track_absorb, track_absorb.c): the keys in the order they came,
 * the later frame's group. */
#define TRK_MFRAME 5u
#define TRK_FIRST 5u

struct trk_slot {
	uint64_t k[TRK_KEY6];
	union {
		struct {
			uint64_t frames, bytes;
		} cnt; /* VNIs, pairs */
		struct {
			uint64_t frame;  /* rules: where the group was last seen;
			                    0: never (frames are numbered from 1) */
			uint16_t group;  /* rules: that frame's group ID */
			uint16_t flags;  /* rules: and its flags word */
			uint32_t mgroup; /* matrix: TRK_LEARNED | group, or 0 */
		} ep; /* endpoints, flows (rules only) */
	} v;
};

_Static_assert(sizeof(struct trk_slot) == 64, "trk_slot: one cache line");

struct trk_tab {
	struct trk_slot *s;    /* cap slots, 64-byte aligned, inside raw; with
	                          no slots yet, vxgbpi_slot_none */
	struct trk_slot *end;  /* s + cap (+ 1 with none): where a probe wraps */
	void *raw;             /* as allocated, raw_size bytes */
	size_t raw_size;
	size_t cap, n;
	size_t mask;           /* cap - 1; 0 with no slots */
	struct trk_slot *last; /* the slot the previous look-up found */
	uint64_t dropped;      /* new keys that found no room */
	unsigned nw;           /* key words: TRK_KEY4 or TRK_KEY6 */
	int stuck;             /* could not grow: it never tries again */
	int rehash;            /* 4-word keys whose word TRK_KEY4 is not the hash */
};

/* The murmur3 finaliser's mixing of the words' multiplies. */
static inline uint64_t trk_hash_mix(uint64_t h)
{
	h ^= h >> 32;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 29;
	return h;
}

/* trk_hash() of a 4-word key given as values (a key built in registers
 * need not go through memory first). */
static inline uint64_t trk_hash4(uint64_t k0, uint64_t k1, uint64_t k2, uint64_t k3)
{
	/* independent multiplies, then the mixing */
	return trk_hash_mix((k0 * 0x9e3779b97f4a7c15ull) ^ (k1 * 0xc2b2ae3d27d4eb4full) ^
			    (k2 * 0x165667b19e3779f9ull) ^ (k3 * 0xd6e8feb86659fd93ull));
}

static inline uint64_t trk_hash(const uint64_t *k, unsigned nw)
{
	uint64_t h = (k[0] * 0x9e3779b97f4a7c15ull) ^ (k[1] * 0xc2b2ae3d27d4eb4full) ^
		     (k[2] * 0x165667b19e3779f9ull) ^ (k[3] * 0xd6e8feb86659fd93ull);

	if (nw == TRK_KEY6)
		h ^= (k[4] * 0xff51afd7ed558ccdull) ^ (k[5] * 0xc4ceb9fe1a85ec53ull);
	return trk_hash_mix(h);
}

static inline int trk_key_eq(const uint64_t *a, const uint64_t *b, unsigned nw)
{
	uint64_t d = (a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]);

	if (nw == TRK_KEY6)
		d |= (a[4] ^ b[4]) | (a[5] ^ b[5]);
	return d == 0;
}

/* Two key words from an address of len bytes (6 for a MAC, 4 or 16),
 * zero-padded: whole loads, no byte loop (this is on every frame's path). */
static inline void trk_addr_words(uint64_t *w, const uint8_t *a, size_t len)
{
	uint32_t lo;
	uint16_t hi;

	if (len == 16) {
		memcpy(&w[0], a, 8);
		memcpy(&w[1], a + 8, 8);
		return;
	}
	memcpy(&lo, a, 4);
	w[0] = lo;
	w[1] = 0;
	if (len == 6) {
		memcpy(&hi, a + 4, 2);
		w[0] |= (uint64_t)hi << 32;
	}
}

/* The slot of key k (hash h), or NULL; never inserts.  *end gets the free
 * slot the probe ended on (NULL when the table has none yet): where an
 * insertion right after would put k (trk_tab_put). */
static inline struct trk_slot *trk_tab_probe(const struct trk_tab *t, const uint64_t *k,
					     unsigned nw, uint64_t h, struct trk_slot **end)
{
	size_t i;
	uint64_t w0;

	*end = NULL;
	if (!t->cap)
		return NULL;
	/* word 0 (VNI, group or ports) first: the slots a probe passes
	 * seldom share it, and one compare rejects them */
	for (i = h & (t->cap - 1); (w0 = t->s[i].k[0]); i = (i + 1) & (t->cap - 1))
		if (w0 == k[0] && trk_key_eq(t->s[i].k, k, nw))
			return &t->s[i];
	*end = &t->s[i];
	return NULL;
}

static inline struct trk_slot *trk_tab_find(const struct trk_tab *t, const uint64_t *k,
					    unsigned nw, uint64_t h)
{
	struct trk_slot *end;

	return trk_tab_probe(t, k, nw, h, &end);
}

/* Insert k, known to be absent: the new slot (values zero), or NULL when
 * the table is full and cannot grow (t->dropped counts it). */
struct trk_slot *vxgbpi_tab_insert(struct trk_mem *m, struct trk_tab *t, const uint64_t *k,
				   uint64_t h);

/* The slot of k, inserted when new (*is_new says which); NULL when it is
 * new and found no room.  Consecutive frames of one flow find it without
 * probing.  A new key goes into the free slot that ended the probe (the
 * one vxgbpi_tab_insert would find again) unless the table must grow. */
static inline struct trk_slot *trk_tab_get(struct trk_mem *m, struct trk_tab *t,
					   const uint64_t *k, unsigned nw, uint64_t h,
					   int *is_new)
{
	struct trk_slot *s = t->last;
	size_t i;
	uint64_t w0;

	*is_new = 0;
	if (s && s->k[0] == k[0] && trk_key_eq(s->k, k, nw))
		return s;
	if (!t->cap)
		goto grow;
	for (i = h & (t->cap - 1); (w0 = t->s[i].k[0]); i = (i + 1) & (t->cap - 1))
		if (w0 == k[0] && trk_key_eq(t->s[i].k, k, nw))
			return t->last = &t->s[i];
	if ((t->n + 1) * 4 > t->cap * 3)
		goto grow;
	s = &t->s[i];
	for (unsigned j = 0; j < nw; j++)
		s->k[j] = k[j];
	if (nw == TRK_KEY4)
		s->k[TRK_KEY4] = h;
	t->n++;
	*is_new = 1;
	return t->last = s;
grow:
	if ((s = vxgbpi_tab_insert(m, t, k, h)))
		*is_new = 1;
	return s;
}

/* Insert k, absent, whose probe (trk_tab_probe, table unchanged since
 * but for other insertions) ended on free slot end: into end when it is
 * still free and the table need not grow (an insertion since can only have
 * filled end itself: every other slot of k's probe was taken), else as
 * vxgbpi_tab_insert does.  NULL: no room. */
static inline struct trk_slot *trk_tab_put(struct trk_mem *m, struct trk_tab *t,
					   struct trk_slot *end, const uint64_t *k, uint64_t h)
{
	if (!end || end->k[0] || (t->n + 1) * 4 > t->cap * 3)
		return vxgbpi_tab_insert(m, t, k, h);
	for (unsigned j = 0; j < t->nw; j++)
		end->k[j] = k[j];
	if (t->nw == TRK_KEY4)
		end->k[TRK_KEY4] = h;
	t->n++;
	return t->last = end;
}

/* What an empty table's s points at: one free slot, never written (an
 * insertion into a table without slots grows it first), so the matrix's
 * per-frame path finds a first slot without asking whether there are
 * slots.  Shared by every tracker, read only. */
extern struct trk_slot vxgbpi_slot_none[1];

void vxgbpi_tab_init(struct trk_tab *t, unsigned nw);
void vxgbpi_tab_free(struct trk_mem *m, struct trk_tab *t);

#if defined(__GNUC__)
#define TRK_PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define TRK_PREFETCH_W(p) ((void)(p))
#endif

/* Ask for the slot a key hashes to (the one-frame pipeline, track_matrix.c). */
static inline void trk_tab_prefetch(const struct trk_tab *t, uint64_t h)
{
	TRK_PREFETCH_W(&t->s[h & t->mask]);
}

/* In-place heapsort (no allocation; qsort may allocate). */
void vxgbpi_sort(void *base, size_t n, size_t size,
		 int (*cmp)(const void *a, const void *b));

/* ---- the tracker ---- */

/* The recent-frame cache: one slot per hash of VNI + inner bytes. */
#define TRK_DUP_BITS 16
#define TRK_DUP_SLOTS (1u << TRK_DUP_BITS)

struct trk_dup {
	uint64_t h;
	uint64_t frame; /* 0: free */
	uint32_t len;
	uint16_t flags;
	uint16_t group;
};

/* The rule a frame (flags cf, group cg) finds in a cache slot that holds the
 * same inner frame seen with flags pf, group pg (track_rules.c's dup_check,
 * and a merge judging a slot across captures, track_merge.c). */
static inline unsigned trk_dup_rule(uint16_t pf, uint16_t pg, uint16_t cf, uint16_t cg)
{
	const uint16_t ga = VXGBP_F_G | VXGBP_F_A;
	int pa = (pf & ga) == ga, ca = (cf & ga) == ga;

	if (pa && !ca)
		return VXGBP_R_A_CLEARED;
	if ((pf & VXGBP_F_G) && (cf & VXGBP_F_G) && pg != cg && (pa || ca))
		return VXGBP_R_POLICY_REAPPLIED;
	return 0;
}

/* An endpoint's or flow's sighting (group g) against its last one (frame
 * lf, 0: none; group lg): a group change, the finding of `rule`
 * (track_rules.c's judge, and a merge across captures, track_merge.c).
 * An endpoint the matrix learned but the rules never saw is new. */
static inline unsigned trk_group_rule(uint64_t lf, uint16_t lg, uint16_t g, unsigned rule)
{
	return lf && lg != g ? rule : 0;
}

/* The inner frame's bytes the recent-frame cache hashes (*len of them):
 * from its Ethernet header, or for VXLAN-GPE carrying IP (no Ethernet)
 * from its IP header (l3.src lies 12 bytes into an IPv4 header, 8 into an
 * IPv6 one), to the end of the capture; NULL when it has neither. */
static inline const uint8_t *trk_inner(const struct vxgbp_pkt *p, size_t *len)
{
	const struct vxgbp_l3 *l3 = &p->inner.l3;
	const uint8_t *b = NULL;
	int off = -1;

	if (p->have & VXGBP_HAVE_INNER_L2) {
		if (p->inner.l2.src)
			b = p->inner.l2.dst;
		off = p->inner.l2.off;
	} else if ((p->have & VXGBP_HAVE_INNER_L3) && l3->src &&
		   (l3->version == 4 || l3->version == 6)) {
		b = l3->src - (l3->version == 6 ? 8 : 12);
		off = l3->off;
	}
	if (!b || off < 0 || (uint32_t)off > p->caplen)
		return NULL;
	*len = p->caplen - (size_t)off;
	return b;
}

/* VXGBP_TRACK_FIRSTS (track_merge.c): a cache slot's first frame. */
struct trk_dfirst {
	uint64_t h, frame; /* frame 0: the slot was not used */
	uint32_t len;
	uint16_t flags, group;
	int32_t off;
};

/* A frame's matrix updates (track_matrix.c).  The keys: VNI {vni, 0, 0,
 * 0}, pair {vni | g << 32, fam, d[0], d[1]}, source endpoint {vni, fam,
 * a[0], a[1]}; each with its hash and the slot its probe starts on
 * (vxgbpi_slot_none: the table had no slots), valid while the tables do
 * not change. */
struct trk_pend {
	unsigned n;        /* keys: 0, 1 (VNI), 2 (+ pair), 3 (+ source endpoint) */
	uint32_t g;        /* the frame's group, or VXGBP_GROUP_NONE */
	uint64_t frame;
	uint32_t wirelen;  /* apart from g: side by side, GCC stores the two
	                      as one vector, built anew each frame */
	uint64_t vni, fam, d[2], a[2];
	uint64_t h_vni, h_pair, h_ep;
	struct trk_slot *s_vni, *s_pair, *s_ep;
};

#define TRK_NGROUPS (VXGBP_GROUP_NONE + 1)

/* A group's counters, side by side: a frame touches one cache line. */
struct trk_gcount {
	uint64_t frames, bytes;
};

/* A bidirectional flow (track_flows.c), by the sides of its key: side 0
 * is the endpoint whose (address, port) sorts first. */
struct trk_flowrec {
	uint64_t first, first_a, a_frames;
	uint64_t frames[2], bytes[2];
	uint32_t group[2];  /* the group each side last sent with (_NONE: G clear) */
	uint8_t init;       /* the initiator's side */
	uint8_t syn;        /* a SYN without ACK named it */
};

/*
 * Everything the tracker changes, in the one allocation of its fixed part:
 * the struct, then (MATRIX) the per-group counters and the groups seen,
 * then (RULES) the recent-frame cache.  The reading functions take a const
 * tracker and may still apply the update the pipeline holds: they change
 * this, never struct vxgbp_track.
 */
struct trk_state {
	struct trk_mem mem;
	size_t size;               /* of this allocation */
	unsigned what;             /* VXGBP_TRACK_* */
	unsigned fabric;           /* enum vxgbp_fabric_mode */
	int pipeline;              /* MATRIX alone: updates wait one frame */
	/* the run's counters, each frame's pair apart: side by side, GCC
	 * adds a pair as one vector, which costs more than two adds */
	uint64_t frames, vxlan, other, bytes, gbp, unparsed;
	struct trk_tab eps;        /* endpoints (RULES and MATRIX) */
	struct trk_tab flows;      /* RULES */
	struct trk_tab pairs, vnis;/* MATRIX */
	uint64_t dropped_pair_bytes;
	struct trk_pend pend;      /* MATRIX alone: the pipeline's waiting frame */
	struct trk_gcount *gc;     /* [TRK_NGROUPS] */
	uint32_t *seen;            /* groups with frames, as first seen */
	uint32_t nseen;
	struct trk_dup *dup;       /* [TRK_DUP_SLOTS] */
	struct trk_tab bflows;     /* FLOWS: key -> index in recs (v.cnt.frames) */
	struct trk_flowrec *recs;  /* FLOWS: nrecs of caprecs, from zalloc */
	size_t nrecs, caprecs;
	/* FIRSTS (track_merge.c; NULL/empty without): where the rules first
	 * saw each endpoint and flow key (v.ep: frame, group, flags; mgroup
	 * holds the VXLAN header offset), each cache slot's first frame */
	struct trk_tab fst_eps, fst_flows;
	struct trk_dfirst *dfirst; /* [TRK_DUP_SLOTS] */
	struct trk_mem fmem;       /* their memory: the caller's allocator, outside
	                              the budget (they never make a table drop) */
	/* MATRIX: frames per mirror (track_mirror.c), in memory of their own
	 * outside the budget */
	struct trk_tab mirrors;
	struct trk_mem mmem;
	uint64_t mirror_frames, mirror_bytes, dropped_mirror_bytes;
};

struct vxgbp_track {
	struct trk_state *st; /* NULL: not started, or given back */
};

/* Per frame (p has a VXLAN header).  Return VXGBP_TRACK_FULL_* of the keys
 * that found no room. */
unsigned vxgbpi_rules_frame(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
			    struct vxgbp_track_result *r);
unsigned vxgbpi_matrix_frame(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame);
/* vxgbp_track_frame() for MATRIX alone (st->pipeline) of a frame with a
 * VXLAN header, after the arguments are checked, r's findings cleared and
 * the frame counted (st->frames, st->bytes). */
int vxgbpi_matrix_vxlan(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame,
			struct vxgbp_track_result *r);
unsigned vxgbpi_flows_frame(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame);
void vxgbpi_flows_free(struct trk_state *st);
/* FIRSTS (track_merge.c): start and give back its records; the first
 * frame to use cache slot d; the rules' first sighting of key k (nw words,
 * hash h).  A record that finds no room is counted in its table's
 * `dropped` (vxgbp_track_cache_next says so). */
int vxgbpi_firsts_init(struct trk_state *st);
void vxgbpi_firsts_free(struct trk_state *st);
void vxgbpi_first_touch(struct trk_state *st, const struct trk_dup *d, uint64_t hh,
			size_t len, const struct vxgbp_pkt *p, uint64_t frame);
void vxgbpi_first_note(struct trk_state *st, const uint64_t *k, unsigned nw, uint64_t h,
		       const struct vxgbp_pkt *p, uint64_t frame);
/* The mirrors' table (MATRIX, track_mirror.c): start, give back, count
 * a frame's mirror (VXGBP_TRACK_FULL_MIRRORS when it found no room), and
 * add up the n sources' tables into d's (vxgbp_track_absorb: 0, or
 * VXGBP_E_NOSPACE, d unchanged, when a source dropped a mirror or the
 * scratch list could not be had). */
void vxgbpi_mirrors_init(struct trk_state *st);
void vxgbpi_mirrors_free(struct trk_state *st);
unsigned vxgbpi_mirror_frame(struct trk_state *st, const struct vxgbp_pkt *p, uint64_t frame);
int vxgbpi_mirrors_absorb(struct trk_state *d, struct vxgbp_track *const *src, unsigned n);
/* Apply the update the pipeline holds (none: nothing). */
unsigned vxgbpi_matrix_flush(struct trk_state *st);

#endif /* VXGBP_TRACK_H */
