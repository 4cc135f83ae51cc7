// SPDX-License-Identifier: BSD-2-Clause
/*
 * group.c - groups and policy verdicts as the summaries print them
 * (group.h).
 */
#include <stdio.h>

#include "group.h"

int group_format(char *buf, size_t n, uint32_t g, const struct vxgbp_groups *groups)
{
	const char *name;

	if (g == VXGBP_GROUP_NONE)
		return snprintf(buf, n, "(no gbp)");
	if (g == VXGBP_GROUP_UNKNOWN)
		return snprintf(buf, n, "(unknown)");
	if ((name = vxgbp_groups_name(groups, (uint16_t)g)))
		return snprintf(buf, n, "0x%04x %s", g, name);
	return snprintf(buf, n, "0x%04x", g);
}

void group_text(struct gd_out *o, uint32_t g, const struct vxgbp_groups *groups)
{
	char buf[64]; /* "0x" + 4 digits, a space, a name of up to 31 characters */
	int n = group_format(buf, sizeof(buf), g, groups);

	if (n > 0)
		out_write(o, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void group_json(struct gd_out *o, const char *key, uint32_t g,
		const struct vxgbp_groups *groups)
{
	const char *name;

	out_printf(o, "\"%s\":", key);
	if (g >= VXGBP_GROUP_NONE) {
		out_str(o, "null");
		return;
	}
	out_u64(o, g);
	if ((name = vxgbp_groups_name(groups, (uint16_t)g))) {
		out_printf(o, ",\"%s_name\":", key);
		out_json_str(o, name);
	}
}

const char *group_verdict_name(int verdict)
{
	return verdict == VXGBP_POLICY_ALLOW ? "allow" : verdict == VXGBP_POLICY_DENY ? "deny"
	       : "some";
}
