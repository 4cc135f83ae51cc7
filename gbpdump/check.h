/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.h - gbpdump --check: conformance report over a capture.
 *
 * Per frame it takes the findings libvxgbp reports (vxgbp_pkt.findings)
 * and the cross-frame findings of libvxgbp's tracker (vxgbp_track_frame:
 * gbp.policy-reapplied, gbp.policy-applied-cleared, gbp.group-conflict,
 * gbp.flow-group-change), maps each rule to a level or off through a
 * profile (strict, linux, vpp, offload), keeps counts and the first occurrences
 * with a description, and writes the report at the end.
 */
#ifndef GBPDUMP_CHECK_H
#define GBPDUMP_CHECK_H

#include <vxgbp/vxgbp.h>

#include "out.h"
#include "reader.h"

/* Exit statuses of gbpdump --check (1 and 2 keep their gbpdump meaning). */
#define CHECK_EXIT_PASS 0 /* no MUST or SHOULD finding */
#define CHECK_EXIT_WARN 3 /* SHOULD findings only */
#define CHECK_EXIT_FAIL 4 /* at least one MUST finding */

struct gd_check;

/* 1 when profile (NULL: "strict") names a profile, else 0. */
int check_profile_known(const char *profile);
/* A checker for a known profile (NULL: "strict"); NULL when memory ran out.
 * no_csum (--no-checksums): checksums are not verified and no checksum
 * rule is judged, as with a profile that says so ("offload"). */
struct gd_check *check_new(const char *profile, int no_csum);
/* The VXGBP_PARSE_* flags frames must be parsed with for this checker
 * (VXGBP_PARSE_NO_CSUM when it judges no checksum). */
unsigned check_parse_flags(const struct gd_check *c);
/* 1 when p cannot be judged: the parse stopped with an error (truncated
 * or malformed) before it found a VXLAN header, so nobody can tell whether
 * the frame carries one.  A frame parsed to its end without VXLAN is not
 * unjudged; nor is a VXLAN frame whose inner frame breaks (its header is
 * judged). */
int check_unjudged(const struct vxgbp_pkt *p);
/* One frame as parsed, and what the tracker found on it (x).  An unjudged
 * frame counts frame.unjudged (SHOULD) and its own frame.truncated (INFO)
 * or frame.malformed (MUST); the first and every nested VXLAN header is
 * judged with its own findings. */
void check_frame(struct gd_check *c, const struct gd_rec *rec, const struct vxgbp_pkt *p,
		 const struct vxgbp_track_result *x);
/* Write the report (text, or one JSON object when json) from the counts of
 * s (the tracker's summary) and return CHECK_EXIT_PASS, _WARN or _FAIL.
 * limit names what stopped the tables when keys were dropped ("track
 * budget 1048576 bytes", "out of memory"). */
int check_report(const struct gd_check *c, const struct vxgbp_track_summary *s,
		 const char *limit, struct gd_out *o, int json);
void check_free(struct gd_check *c);

#endif /* GBPDUMP_CHECK_H */
