/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * labels.h - gbpdump's printers of network security labels: the CIPSO IPv4
 * option and the CALIPSO IPv6 hop-by-hop option of one IP header (outer or
 * inner), as decoded by libvxgbp (vxgbp_cipso_parse / vxgbp_calipso_parse).
 */
#ifndef GBPDUMP_LABELS_H
#define GBPDUMP_LABELS_H

#include <stdint.h>

#include <vxgbp/vxgbp.h>

#include "out.h"

/* Text, appended after "src > dst:".  Nothing when l3 carries no label.
 *   verbose 0:  " cipso doi 16 lvl 1 cat 0,1"   (the MAC tag: first of 1/2/5/6)
 *               " calipso doi 16 lvl 1 cat 0,1"
 *   verbose>0:  " cipso len 11 doi 16 [tag 1 bitmap lvl 1 cat 0,1] [tag 7 freeform 0a0b]"
 *               " calipso len 14 doi 16 lvl 1 cat 0,1 cmpt 1 csum 0x1234 ok"
 * A bad CALIPSO checksum always shows as " csum 0x1234 bad (want 0x5678)";
 * an option too short to decode as " cipso len 4 [malformed]". */
void labels_print_text(struct gd_out *o, const uint8_t *frame, const struct vxgbp_l3 *l3,
		       int verbose);

/* JSON: `,"label":{"type":"cipso","len":11,"doi":16,"level":1,"categories":"0,1",
 * "tags":[{"type":1,"name":"bitmap","len":5,"level":1,"categories":"0,1"}],
 * "findings":[]}` (CALIPSO: "cmpt_len", "checksum", "checksum_ok" instead of
 * "tags"), or nothing when l3 carries no label. */
void labels_print_json(struct gd_out *o, const uint8_t *frame, const struct vxgbp_l3 *l3);

#endif /* GBPDUMP_LABELS_H */
