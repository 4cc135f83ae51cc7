/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * group.h - a group as gbpdump's summaries print it (--stats, the
 * --policy audit): the ID with its --groups name, or what the tracker says
 * in its place (VXGBP_GROUP_NONE: plain VXLAN; VXGBP_GROUP_UNKNOWN: a
 * destination never seen sending with G).  Formatting only.
 */
#ifndef GBPDUMP_GROUP_H
#define GBPDUMP_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include <vxgbp/vxgbp.h>

#include "out.h"

/* "0x0200 web", "0x0200", "(no gbp)" or "(unknown)" into buf (n bytes,
 * cut short if needed); the length snprintf() gives. */
int group_format(char *buf, size_t n, uint32_t g, const struct vxgbp_groups *groups);
/* group_format() onto o. */
void group_text(struct gd_out *o, uint32_t g, const struct vxgbp_groups *groups);
/* "KEY":ID[,"KEY_name":"NAME"]; null for plain VXLAN or an unknown group. */
void group_json(struct gd_out *o, const char *key, uint32_t g,
		const struct vxgbp_groups *groups);
/* A policy verdict (vxgbp_policy_pair/_judge) as a word: "allow", "deny",
 * "some". */
const char *group_verdict_name(int verdict);

#endif /* GBPDUMP_GROUP_H */
