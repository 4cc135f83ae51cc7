/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * policy.h - gbpdump --policy FILE: load the policy (libvxgbp's language,
 * docs/policy.md) and audit the capture's flows against it.  The judgement
 * is libvxgbp's (vxgbp_policy_judge on the tracker's VXGBP_TRACK_FLOWS
 * flows); this file reads, formats and writes.
 */
#ifndef GBPDUMP_POLICY_H
#define GBPDUMP_POLICY_H

#include <vxgbp/vxgbp.h>

#include "check.h"
#include "out.h"

/* Load path into a new policy, group names from groups.  Errors go to
 * standard error as "gbpdump: FILE:LINE:COL: reason"; a rule no flow can
 * reach (shadowed) is a warning there, for the first 20, then a count.
 * The rules are indexed (vxgbp_policy_index_init).  NULL after an error. */
struct vxgbp_policy *policy_load(const char *path, const struct vxgbp_groups *groups);
void policy_free(struct vxgbp_policy *p);

/* The flows of t judged by p, kept for the outputs below. */
struct gd_audit {
	const struct vxgbp_policy *p;
	const char *path;           /* the --policy file */
	const struct vxgbp_groups *groups; /* names (--groups) */
	struct vxgbp_track_flow *f; /* every flow, by first frame */
	struct vxgbp_policy_verdict *v; /* libvxgbp's verdict on f[i] */
	size_t n;
	uint64_t allowed, denied, bypassed, dropped; /* flows; dropped: frames
	                                              in flows not tracked */
};
/* Judge every flow of t (a tracker with VXGBP_TRACK_FLOWS).  0, or -1
 * when memory ran out; policy_audit_free it either way. */
int policy_audit(struct gd_audit *a, const struct vxgbp_policy *p, const char *path,
		 const struct vxgbp_track *t, const struct vxgbp_groups *groups);
void policy_audit_free(struct gd_audit *a);

/* The audit on its own (gbpdump --policy without --check/--stats): every
 * denied flow (verbose: every flow), then a summary; text, or one JSON
 * object (denied flows only). */
void policy_print(const struct gd_audit *a, struct gd_out *o, int json, int verbose);
/* --check: the findings libvxgbp raised (policy.denied, policy.bypassed)
 * into the check engine, at the frames it named. */
void policy_check(const struct gd_audit *a, struct gd_check *c);
/* --check: the denied flows after the rules (check_set_extra's callback;
 * ctx is the struct gd_audit).  JSON: a ',"policy":{...}' member. */
void policy_check_extra(void *ctx, struct gd_out *o, int json);

#endif /* GBPDUMP_POLICY_H */
