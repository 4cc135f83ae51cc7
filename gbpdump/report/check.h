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
/* The header the tracker follows (--fabric-header): its cross-frame
 * findings are described on that header. */
void check_set_fabric(struct gd_check *c, unsigned fabric);
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

/* ---- the results per rule (gbpdump --junit, --sarif, the HTML report) ----
 *
 *	struct check_rule cr;
 *	unsigned it = 0;
 *
 *	while (check_rule_next(c, &it, &cr))
 *		... cr.info->id, cr.level, cr.count[CHECK_MUST] ...
 *
 * visits every rule the engine knows, found or not, in rule number order,
 * also the rules the profile turns off (level CHECK_OFF, off_why says why).
 * A rule's occurrences are counted at the level the profile gave them on
 * their frame: mostly cr.level, but a rule can be counted at more than one
 * (under "linux", gbp.reserved-flags is SHOULD, and MUST on frames a Linux
 * gbp device drops).  Valid until the next check_frame() or check_free(). */

enum check_level { CHECK_MUST = 0, CHECK_SHOULD = 1, CHECK_INFO = 2, CHECK_OFF = 3 };

#define CHECK_FIRST 3 /* occurrences kept per rule and level */

struct check_occ {
	uint64_t frame;      /* 1-based frame number */
	uint64_t rec_off;    /* file offset of the frame's record (its 16-byte
	                        header) in a classic pcap file (of the
	                        decompressed stream when the capture is
	                        compressed); 0: not known (pcapng, libpcap's
	                        reader, live capture) */
	uint32_t caplen;     /* bytes of the frame captured (the record holds
	                        16 + caplen bytes in classic pcap) */
	int64_t sec;         /* the frame's time: seconds since the epoch */
	uint32_t nsec;       /* and nanoseconds */
	int off;             /* byte offset in the frame of what is judged (the
	                        VXLAN header, the layer, the error); -1 none */
	const char *what;    /* one line; may hold addresses and numbers from
	                        the capture: escape it for XML, JSON, HTML */
};

struct check_rule {
	unsigned rule;                        /* rule number (VXGBP_R_*) */
	const struct vxgbp_rule_info *info;   /* id, library level, scope, source
	                                         (RFC/draft section), text */
	enum check_level level;               /* the profile's level; CHECK_OFF:
	                                         not judged */
	const char *off_why;                  /* CHECK_OFF: why ("off in profile
	                                         linux", "checksums not
	                                         verified"); else NULL */
	uint64_t count[3];                    /* occurrences counted at
	                                         CHECK_MUST, _SHOULD, _INFO */
	unsigned n_first[3];                  /* the first ones kept, per level */
	struct check_occ first[3][CHECK_FIRST];
};

/* Rules judged only on request (policy.denied, policy.bypassed: with
 * --policy) are off for check_rule_next() ("judged with --policy only")
 * until the front end that judges them says so. */
void check_judges(struct gd_check *c, unsigned rule);

/* A finding resolved at the end of the capture (policy.denied,
 * policy.bypassed: gbpdump --policy), counted at the rule's level on frame
 * `frame` with the description what; its time and file offset are not
 * known (0), nor a byte offset (-1). */
void check_add_late(struct gd_check *c, unsigned rule, uint64_t frame, const char *what);
/* fn(ctx, o, json) writes more after the rules: text after the first
 * occurrences, JSON members (",\"key\":...") before "verdict". */
void check_set_extra(struct gd_check *c, void (*fn)(void *ctx, struct gd_out *o, int json),
		     void *ctx);

/* The run ended early, status its exit status (1 a data error, 2 an I/O or
 * resource error), msg (kept by the caller) why: the report's verdict is
 * "error" with that status, and the JSON says msg ("error"), whatever was
 * found in the frames before it. */
void check_set_error(struct gd_check *c, int status, const char *msg);
/* fn(ctx, o) writes more members of the JSON document after "check"
 * (",\"summary\":{...}", merge.h). */
void check_set_tail(struct gd_check *c, void (*fn)(void *ctx, struct gd_out *o), void *ctx);
/* gbpdump --merge: set rule's count at level (CHECK_MUST.._INFO) and its
 * first n occurrences (frame, off, what are used), and the frames not
 * judged (and not judged by source MAC), as a run would have left them. */
void check_import(struct gd_check *c, unsigned rule, int level, uint64_t count,
		  const struct check_occ *first, unsigned n);
void check_import_unjudged(struct gd_check *c, uint64_t n, uint64_t mac);

/* Fill cr with the rule at or after *it and step *it past it: 1, or 0
 * when there is none left.  Start with *it = 0. */
int check_rule_next(const struct gd_check *c, unsigned *it, struct check_rule *cr);

/* The run as a whole: profile, checksums verified, frames not judged,
 * counts per level and the exit status check_report() returns. */
struct check_totals {
	const char *profile;  /* "strict", "linux", ... */
	int checksums;        /* 1 when checksums were verified and judged */
	uint64_t unjudged;    /* frames that could not be judged */
	uint64_t unjudged_mac; /* frames the tracker judged by inner IP alone: no
	                         Ethernet header, so gbp.group-conflict by
	                         source MAC not judged (VXLAN-GPE carrying IP) */
	uint64_t count[3];    /* occurrences at CHECK_MUST, _SHOULD, _INFO */
	int exit;             /* CHECK_EXIT_PASS, _WARN or _FAIL */
};
void check_totals(const struct gd_check *c, struct check_totals *t);

#endif /* GBPDUMP_CHECK_H */
