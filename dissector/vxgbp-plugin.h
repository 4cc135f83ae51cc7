/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vxgbp-plugin.h - what the dissector (packet-vxgbp.c) and the statistics
 * (vxgbp-stats.c) of the Wireshark plugin share.
 */
#ifndef VXGBP_PLUGIN_H
#define VXGBP_PLUGIN_H

#include <glib.h>

/* Queued on the "vxgbp" tap once per VXLAN header dissected. */
typedef struct {
	guint32 vni;
	int has_gbp;     /* G flag set: group is the Group Policy ID */
	guint16 group;
	guint32 bytes;   /* frame length on the wire */
	guint64 findings;/* VXGBP_RB(rule) bits */
	char src[48];    /* inner source endpoint: IP address, else MAC; "" unknown */
	char dst[48];    /* inner destination endpoint, same form */
} vxgbp_tap_info_t;

/* Name of a group from the vxgbp_groups table, or NULL. */
const char *vxgbp_plugin_group_name(guint16 id);

/* Registers the -z vxgbp,groups report and the stats tree. */
void vxgbp_stats_register(void);

#endif
