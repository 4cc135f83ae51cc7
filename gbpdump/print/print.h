/* SPDX-License-Identifier: BSD-2-Clause */
/* print.h - the per-frame printers: tcpdump-like text and one JSON object
 * per line.  They print what libvxgbp decoded; they never read header
 * fields from the raw bytes themselves. */
#ifndef GBPDUMP_PRINT_H
#define GBPDUMP_PRINT_H

#include <time.h>

#include <vxgbp/vxgbp.h>

#include "out.h"
#include "reader.h"

enum gd_tmode {
	GD_TIME_LOCAL = 0, /* HH:MM:SS.uuuuuu, local time (tcpdump's default) */
	GD_TIME_NONE,      /* -t */
	GD_TIME_EPOCH,     /* -tt */
	GD_TIME_DATE,      /* -tttt */
};

struct gd_print {
	int verbose;                        /* -v count */
	int eflag;                          /* -e: link-level headers */
	enum gd_tmode tmode;
	const struct vxgbp_groups *groups;  /* --groups, may be empty */
	unsigned fabric;                    /* --fabric-header (vxgbp_pkt_fabric()) */
	/* per-second caches for the time stamps (formatting a date is slow) */
	int64_t local_sec;
	char local_buf[32];
	size_t local_len;
	int64_t utc_sec;
	unsigned utc_len;
	char utc_buf[48];   /* print_json's ,"time":"<date>. of utc_sec */
	/* print_json's memos of what consecutive frames share (print/json.c,
	 * "what consecutive frames share"): zero when none yet */
	struct gd_vx_memo {
		uint32_t key;           /* of the header they were built from */
		unsigned head_n, gbp_n, tail_n;
		uint32_t mark_hi;       /* the mark's bits above the ID */
		int mark_id;            /* 1: its ID is the group; 0: no ID */
		char head[48];          /* {"kind":"vxlan","flags":F,"vni": */
		char gbp[96];           /* ,"dont_learn":..,.. (the G flags)},"mark": */
		char tail[160];         /* ,"reserved":R,"linux":{"gbp":..,"plain":.. */
	} vx_memo;
	struct gd_mac_memo {            /* the outer level's "smac":..,"dmac":.. */
		uint8_t dst[6], src[6];
		unsigned n;
		char s[64];
	} mac_memo;
};

void print_init(struct gd_print *pp);
/* print_json's time cache as it stands after formatting second INT64_MIN
 * (print_init). */
void print_json_init(struct gd_print *pp);
/* One frame.  cross: the cross-frame findings of libvxgbp's tracker on this
 * frame (VXGBP_RB bits; 0 when it does not run): printed after the frame's
 * own findings, in rule order (text: with -v only). */
void print_text(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
		const struct vxgbp_pkt *p, uint64_t cross);
void print_json(struct gd_out *o, struct gd_print *pp, const struct gd_rec *rec,
		const struct vxgbp_pkt *p, uint64_t cross);
/* "[G,I,D]": the flag word as libvxgbp names it (reserved bits as R=0x....),
 * rendered again only when it differs from the last frame's. */

#endif /* GBPDUMP_PRINT_H */
