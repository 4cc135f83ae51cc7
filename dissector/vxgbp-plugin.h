/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vxgbp-plugin.h - what the parts of the Wireshark plugin share:
 * packet-vxgbp.c (registration and the postdissector), vxgbp-groups.c
 * (group names) and vxgbp-stats.c (statistics).
 */
#ifndef VXGBP_PLUGIN_H
#define VXGBP_PLUGIN_H

#include <glib.h>

#include <epan/prefs.h>

#include <vxgbp/vxgbp.h>

/* Queued on the "vxgbp" tap once per frame that carries a VXLAN header,
 * for the outermost one.  Lives as long as the packet's pinfo->pool. */
typedef struct {
	const struct vxgbp_pkt *pkt; /* libvxgbp's parse of that header (and of
	                                the whole frame when it reached it) */
	guint32 frame_len;           /* the frame's length on the wire */
	guint64 findings;            /* VXGBP_RB(rule) bits, cross-frame ones too */
} vxgbp_tap_info_t;

/* Name of a group from the UAT or the group file, or NULL. */
const char *vxgbp_plugin_group_name(guint16 id);

/* Registers the group-name UAT and the group-file preference on module. */
void vxgbp_groups_register(module_t *module);
/* Re-reads the group file (the preferences changed). */
void vxgbp_groups_apply(void);

/* Registers the -z vxgbp,groups report and the stats tree. */
void vxgbp_stats_register(void);

/* A libvxgbp tracker in Wireshark's heap (g_malloc0/g_free).  NULL when it
 * could not be started. */
struct vxgbp_track *vxgbp_plugin_track_new(unsigned what);
void vxgbp_plugin_track_free(struct vxgbp_track *t);

#endif
