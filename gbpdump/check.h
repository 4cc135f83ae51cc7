/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check.h - gbpdump --check: conformance report over a capture.
 *
 * Per frame it takes the findings libvxgbp reports (vxgbp_pkt.findings) and
 * adds the cross-frame rules it computes itself:
 *   gbp.policy-reapplied        the same inner frame (hash of VNI + inner
 *                               bytes) seen again with a changed group ID
 *                               where A=1 on either sighting
 *   gbp.policy-applied-cleared  the same inner frame seen with A=1, later A=0
 *   gbp.group-conflict          one inner source MAC or IP (per VNI) sent
 *                               with different group IDs
 *   gbp.flow-group-change       the group ID changes within one inner
 *                               5-tuple flow (per VNI)
 * A profile (strict, linux, vpp) maps each rule to a level or off.
 * Memory grows with endpoints and flows (open-addressing tables that
 * double), not with frames: repeated frames are looked up in a fixed-size
 * cache; nothing is allocated per frame.
 */
#ifndef GBPDUMP_CHECK_H
#define GBPDUMP_CHECK_H

#include <stdio.h>

#include <vxgbp/vxgbp.h>

#include "out.h"
#include "reader.h"

/* Exit statuses of gbpdump --check (1 and 2 keep their gbpdump meaning). */
#define CHECK_EXIT_PASS 0 /* no MUST or SHOULD finding */
#define CHECK_EXIT_WARN 3 /* SHOULD findings only */
#define CHECK_EXIT_FAIL 4 /* at least one MUST finding */

struct gd_check;

/* A checker for profile name (NULL: "strict").  NULL when the profile is
 * unknown (*nomem = 0) or memory ran out (*nomem = 1). */
struct gd_check *check_new(const char *profile, int *nomem);
/* 1 when profile (NULL: "strict") names a profile, else 0. */
int check_profile_known(const char *profile);
/* One frame as parsed.  Returns 0, or -1 when a table could not grow (the
 * report says the cross-frame rules are incomplete). */
int check_frame(struct gd_check *c, const struct gd_rec *rec, const struct vxgbp_pkt *p);
/* Write the report (text, or one JSON object when json) and return
 * CHECK_EXIT_PASS, _WARN or _FAIL. */
int check_report(struct gd_check *c, struct gd_out *o, int json);
void check_free(struct gd_check *c);
/* The profile names and one line each, for --help. */
void check_list_profiles(FILE *f);

#endif /* GBPDUMP_CHECK_H */
