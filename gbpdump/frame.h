/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * frame.h - one frame through gbpdump, in three stages, so that threads can
 * run the stateless ones side by side (parallel.h, the live workers):
 *
 *   1. gd_frame_parse()  stateless: the BPF program on the record, the
 *      parse (vxgbp_pkt_parse) and the --gbp/--vni filters.  Any thread, any
 *      order, at the same time as the other stages: it reads only the
 *      shared gd_frame_cfg and writes only the caller's vxgbp_pkt.
 *   2. gd_frame_state()  stateful: the matched count (-c), the cross-frame
 *      tracker, the --check engine, the --report collector and -w.  Exactly
 *      one thread at a time, and the frames in capture order (frame numbers
 *      ascending, no frame left out that parse matched): that is what makes
 *      the cross-frame findings those of one thread reading the capture.
 *      Gives cross, the cross-frame findings of the frame, for stage 3.
 *   3. gd_frame_emit()   stateless given cross: print_text / print_json into
 *      the caller's gd_out with the caller's gd_print (its caches are per
 *      thread: copy the shared one with gd_frame_print_copy()).  Any thread;
 *      putting the outputs in frame order is the caller's business.
 *
 * Who owns what:
 *   struct gd_frame_cfg    read-only once the run is open; shared by all.
 *   struct gd_frame_state  the stateful objects; one per run, touched only
 *                          by whoever holds the right to run stage 2.
 *   a worker               its own vxgbp_pkt(s), gd_print copy and gd_out.
 * A record's bytes (gd_rec.data) must stay valid from stage 1 to stage 3.
 * Nothing here allocates or locks.
 */
#ifndef GBPDUMP_FRAME_H
#define GBPDUMP_FRAME_H

#include <stdint.h>

#include <pcap/pcap.h>
#include <vxgbp/vxgbp.h>

#include "out.h"
#include "print.h"
#include "reader.h"

struct gd_check;  /* check.h */
struct gd_report; /* report.h */
struct gd_writer; /* writer.h */

/* Stage 3's printer (print.h): print_text, print_json, or none (NULL:
 * -w, --stats, --check, --policy, --report print nothing per frame). */
typedef void gd_frame_printer(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
			      const struct vxgbp_pkt *p, uint64_t cross);

/* Read-only configuration, shared by every thread. */
struct gd_frame_cfg {
	const struct vxgbp_parse_opts *popts; /* the input's link type included */
	const struct bpf_program *prog;       /* NULL: no BPF expression */
	int want_gbp, want_vni;               /* --gbp, --vni given */
	uint32_t gbp_id, vni;
	int keep_unjudged;                    /* --check: unjudged frames pass --gbp/--vni */
	gd_frame_printer *print;              /* NULL: nothing per frame */
	const struct gd_print *pp;            /* print settings (copy per thread) */
};

/* The stateful objects (each NULL when the run has none). */
struct gd_frame_state {
	struct vxgbp_track *trk;
	struct gd_check *chk;
	struct gd_report *rep;
	struct gd_writer *wr;           /* -w */
	unsigned long long matched;     /* frames that passed stage 1 */
	unsigned long long count;       /* -c N, 0: no limit */
	int stop;                       /* gd_frame_stop() (set by stage 2) */
};

/* Stage 1 with a BPF program or --gbp/--vni (gd_frame_parse() calls it). */
int gd_frame_parse_all(const struct gd_frame_cfg *c, const struct gd_rec *rec,
		       struct vxgbp_pkt *p);
/* Stage 1: 1 when the frame matched (p is then its parse), 0 when not.
 * Inline: for the runs without a filter (most) the parse is the only call. */
static inline int gd_frame_parse(const struct gd_frame_cfg *c, const struct gd_rec *rec,
				 struct vxgbp_pkt *p)
{
	if (!c->prog && !c->want_gbp && !c->want_vni) {
		p->size = sizeof(*p);
		vxgbp_pkt_parse(p, rec->data, rec->caplen, rec->wirelen, c->popts);
		return 1;
	}
	return gd_frame_parse_all(c, rec, p);
}
/* Stage 2 with --check, --report or -w (gd_frame_state() calls it). */
uint64_t gd_frame_state_all(struct gd_frame_state *s, const struct gd_rec *rec,
			    const struct vxgbp_pkt *p);
/* Stage 2, for a frame stage 1 matched: the cross-frame findings of the
 * frame (VXGBP_RB bits, 0 without a tracker).  Inline: for the runs with
 * nothing but the count and the tracker to keep (text, -c, -v, --json,
 * --stats) the tracker is the only call. */
static inline uint64_t gd_frame_state(struct gd_frame_state *s, const struct gd_rec *rec,
				      const struct vxgbp_pkt *p)
{
	struct vxgbp_track_result tr; /* vxgbp_track_frame() sets what is read */

	if (s->chk || s->rep || s->wr)
		return gd_frame_state_all(s, rec, p);
	if (++s->matched == s->count) /* -c (0: no limit, never reached) */
		s->stop = 1;
	if (!s->trk)
		return 0;
	vxgbp_track_frame(s->trk, p, rec->no, &tr);
	return tr.findings;
}
/* After stage 2: 1 when the run must stop here (-c reached, -w failed);
 * the frames after this one get no stage 2 or 3. */
static inline int gd_frame_stop(const struct gd_frame_state *s)
{
	return s->stop;
}
/* Stage 3 for a frame stage 2 saw. */
static inline void gd_frame_emit(const struct gd_frame_cfg *c, struct gd_print *pp,
				 struct gd_out *o, const struct gd_rec *rec,
				 const struct vxgbp_pkt *p, uint64_t cross)
{
	if (c->print)
		c->print(o, pp, rec, p, cross);
}

/* 0 when no stage reads a record's timestamp or offset (--stats, --policy:
 * nothing printed, no BPF program, --check, --report or -w), so that a
 * walk may leave them unset (reader.h, gd_walk_next()). */
static inline int gd_frame_reads_time(const struct gd_frame_cfg *c, const struct gd_frame_state *s)
{
	return c->print || c->prog || s->chk || s->rep || s->wr;
}

/* A thread's own print settings from the shared ones. */
void gd_frame_print_copy(struct gd_print *dst, const struct gd_print *src);

#endif /* GBPDUMP_FRAME_H */
