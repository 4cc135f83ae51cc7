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
 *      Gives xf, the cross-frame findings of the frame, for stage 3.
 *   3. gd_frame_emit()   stateless given xf: print_text / print_json into
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

/* What stage 3 prints for a frame. */
enum gd_emit {
	GD_EMIT_NONE = 0, /* -w, --stats, --check, --policy, --report: nothing per frame */
	GD_EMIT_TEXT,
	GD_EMIT_JSON,
};

/* Read-only configuration, shared by every thread. */
struct gd_frame_cfg {
	const struct vxgbp_parse_opts *popts; /* the input's link type included */
	const struct bpf_program *prog;       /* NULL: no BPF expression */
	int want_gbp, want_vni;               /* --gbp, --vni given */
	uint32_t gbp_id, vni;
	int keep_unjudged;                    /* --check: unjudged frames pass --gbp/--vni */
	enum gd_emit emit;
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
 * Inline for the runs without a filter (most): the parse is the only
 * call (a call of its own here cost 25 instructions a frame of --stats). */
static inline int gd_frame_parse(const struct gd_frame_cfg *c, const struct gd_rec *rec,
				 struct vxgbp_pkt *p)
{
	if (!c->prog && !c->want_gbp && !c->want_vni) {
		vxgbp_pkt_parse(p, rec->data, rec->caplen, rec->wirelen, c->popts);
		return 1;
	}
	return gd_frame_parse_all(c, rec, p);
}
/* Stage 2 with --check, --report or -w (gd_frame_state() calls it). */
uint64_t gd_frame_state_all(struct gd_frame_state *s, const struct gd_rec *rec,
			    const struct vxgbp_pkt *p);
/* Stage 2, for a frame stage 1 matched: the cross-frame findings of the
 * frame (VXGBP_RB bits, 0 without a tracker).  Inline for the runs with
 * nothing but the count and the tracker to keep (text, -c, -v, --json,
 * --stats): the tracker is the only call (one more call a frame, with its
 * checks of the objects absent, was 36 instructions of --stats). */
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
/*
 * A run whose stages 1 and 2 are the parse and the tracker and nothing
 * else (--stats, --policy): no BPF program, no --gbp/--vni, no -c, no
 * --check, --report or -w, nothing printed.  Every frame matches then, no
 * frame stops the run and stage 3 has nothing to do, so a loop over such
 * frames needs gd_frame_track() alone and adds the frames to s->matched
 * itself; the tracker reads no timestamp or offset (gd_walk_next()'s full).
 */
static inline int gd_frame_track_only(const struct gd_frame_cfg *c,
				      const struct gd_frame_state *s)
{
	return !c->prog && !c->want_gbp && !c->want_vni && c->emit == GD_EMIT_NONE &&
	       s->trk && !s->chk && !s->rep && !s->wr && !s->count;
}

/* Stages 1 and 2 of a frame of such a run (its findings print nowhere, so
 * no result: the tracker then clears none, 4 instructions a frame). */
static inline void gd_frame_track(const struct vxgbp_parse_opts *popts, struct vxgbp_track *trk,
				  const struct gd_rec *rec, struct vxgbp_pkt *p)
{
	vxgbp_pkt_parse(p, rec->data, rec->caplen, rec->wirelen, popts);
	vxgbp_track_frame(trk, p, rec->no, NULL);
}
/* After stage 2: 1 when the run must stop here (-c reached, -w failed);
 * the frames after this one get no stage 2 or 3.  Inline: it is asked
 * after every frame. */
static inline int gd_frame_stop(const struct gd_frame_state *s)
{
	return s->stop;
}
/* Stage 3 for a frame stage 2 saw (inline: a call a frame less). */
static inline void gd_frame_emit(const struct gd_frame_cfg *c, struct gd_print *pp,
				 struct gd_out *o, const struct gd_rec *rec,
				 const struct vxgbp_pkt *p, uint64_t xf)
{
	if (c->emit == GD_EMIT_TEXT)
		print_text(o, pp, rec, p, xf);
	else if (c->emit == GD_EMIT_JSON)
		print_json(o, pp, rec, p, xf);
}
/*
 * The three stages in one for a loop over many frames of a run with no
 * filter and nothing but the count and the tracker in stage 2 (text, -v,
 * --json): the plan (GD_PLAN_ bits, a constant where the loop is
 * compiled) says whether there is a tracker and what is printed, so no
 * frame tests the objects the run does not have (about 15 instructions a
 * frame of text).  gd_frame_plan(): the run's plan, or GD_PLAN_ANY when it
 * has more (the stages one by one then).  gd_frame_planned(): what stages
 * 1 to 3 do with such a run; 1 when the run must stop here (-c, the
 * output failed).
 */
#define GD_PLAN_TRK 1u  /* the tracker */
#define GD_PLAN_TEXT 2u /* print_text() */
#define GD_PLAN_JSON 4u /* print_json() */
#define GD_PLAN_ANY 8u
static inline unsigned gd_frame_plan(const struct gd_frame_cfg *c, const struct gd_frame_state *s)
{
	if (c->prog || c->want_gbp || c->want_vni || s->chk || s->rep || s->wr)
		return GD_PLAN_ANY;
	return (s->trk ? GD_PLAN_TRK : 0) | (c->emit == GD_EMIT_TEXT ? GD_PLAN_TEXT : 0) |
	       (c->emit == GD_EMIT_JSON ? GD_PLAN_JSON : 0);
}

static inline __attribute__((always_inline)) int
gd_frame_planned(const struct gd_frame_cfg *c, struct gd_frame_state *s, struct gd_print *pp,
		 struct gd_out *o, const struct gd_rec *rec, struct vxgbp_pkt *p, unsigned plan)
{
	struct vxgbp_track_result tr; /* vxgbp_track_frame() sets what is read */
	uint64_t xf = 0;

	vxgbp_pkt_parse(p, rec->data, rec->caplen, rec->wirelen, c->popts);
	if (++s->matched == s->count) /* as gd_frame_state() */
		s->stop = 1;
	if (plan & GD_PLAN_TRK) {
		vxgbp_track_frame(s->trk, p, rec->no, &tr);
		xf = tr.findings;
	}
	if (plan & GD_PLAN_TEXT)
		print_text(o, pp, rec, p, xf);
	else if (plan & GD_PLAN_JSON)
		print_json(o, pp, rec, p, xf);
	return o->err || s->stop;
}
/* A thread's own print settings from the shared ones. */
void gd_frame_print_copy(struct gd_print *dst, const struct gd_print *src);

#endif /* GBPDUMP_FRAME_H */
