// SPDX-License-Identifier: BSD-2-Clause
/* frame.c - one frame through gbpdump in three stages (see frame.h). */
#include <string.h>

#include "check.h"
#include "frame.h"
#include "report.h"
#include "writer.h"

/* The BPF program on the record in place: 1 when it matches. */
static int bpf_match(const struct bpf_program *prog, const struct gd_rec *rec)
{
	struct pcap_pkthdr ph;

	ph.ts.tv_sec = (time_t)rec->sec;
	ph.ts.tv_usec = (suseconds_t)rec->nsec;
	ph.caplen = rec->caplen;
	ph.len = rec->wirelen;
	return pcap_offline_filter(prog, &ph, rec->data) != 0;
}

/* One VXLAN header against --gbp and --vni: 1 when it matches both that
 * were given.  --gbp wants G and the ID of a VXLAN(-GBP) header (a GPE
 * header has no group: its G bit is reserved). */
static int hdr_match(const struct gd_frame_cfg *c, const struct vxgbp_hdr *h, uint8_t kind)
{
	if (c->want_gbp && (kind != VXGBP_VX_VXLAN || !vxgbp_hdr_has_gbp(h) ||
			    h->group != c->gbp_id))
		return 0;
	return !c->want_vni || h->vni == c->vni;
}

/* --gbp/--vni on a frame: 1 when one of its VXLAN headers, the first or
 * a nested one, matches. */
static int hdr_filter(const struct gd_frame_cfg *c, const struct vxgbp_pkt *p)
{
	if (!(p->have & VXGBP_HAVE_VXLAN))
		return 0;
	if (hdr_match(c, &p->vx, p->vx_kind))
		return 1;
	for (unsigned i = 0; i < p->n_nested && i < VXGBP_MAX_NESTED; i++)
		if (hdr_match(c, &p->nested[i].vx, p->nested[i].kind))
			return 1;
	return 0;
}

int gd_frame_parse_all(const struct gd_frame_cfg *c, const struct gd_rec *rec,
		       struct vxgbp_pkt *p)
{
	if (c->prog && !bpf_match(c->prog, rec))
		return 0;
	p->size = sizeof(*p);
	vxgbp_pkt_parse(p, rec->data, rec->caplen, rec->wirelen, c->popts);
	if ((c->want_gbp || c->want_vni) && !hdr_filter(c, p) &&
	    !(c->keep_unjudged && check_unjudged(p)))
		return 0;
	return 1;
}

uint64_t gd_frame_state_all(struct gd_frame_state *s, const struct gd_rec *rec,
			    const struct vxgbp_pkt *p)
{
	struct vxgbp_track_result tr;

	/* no findings yet; hit[] counts only up to n_hits (and the tracker
	 * sets these three itself) */
	tr.findings = 0;
	tr.n_hits = 0;
	tr.full = 0;
	s->matched++;
	if (s->trk)
		vxgbp_track_frame(s->trk, p, rec->no, &tr);
	if (s->chk)
		check_frame(s->chk, rec, p, &tr);
	if (s->rep)
		report_frame(s->rep, rec, p, s->chk);
	if (s->wr) {
		writer_add(s->wr, rec);
		s->stop |= s->wr->failed != 0;
	}
	if (s->count && s->matched >= s->count)
		s->stop = 1;
	return tr.findings;
}

void gd_frame_print_copy(struct gd_print *dst, const struct gd_print *src)
{
	*dst = *src;
}
