/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * policy_index.h - what policy.c and policy_index.c share: the one
 * definition of "a's ports cover b's", and the indexed answers.
 */
#ifndef VXGBP_POLICY_INDEX_H
#define VXGBP_POLICY_INDEX_H

#include <vxgbp/vxgbp.h>

#define VXGBPI_NO_RULE 0xffffffffu

/* Every port of b's ranges lies in a's ranges (a without ports: all). */
int vxgbpi_policy_ports_cover(const struct vxgbp_policy_rule *a,
			      const struct vxgbp_policy_rule *b);
/* p->index, when it describes p's rules; else NULL. */
const struct vxgbp_policy_index *vxgbpi_policy_index(const struct vxgbp_policy *p);
/* The first rule that matches, or VXGBPI_NO_RULE. */
uint32_t vxgbpi_policy_index_judge(const struct vxgbp_policy_index *ix, uint32_t src,
				   uint32_t dst, uint8_t proto, uint16_t dport);
/* The first earlier rule that covers rule i, or VXGBPI_NO_RULE. */
uint32_t vxgbpi_policy_index_shadowed(const struct vxgbp_policy_index *ix, size_t i);

#endif /* VXGBP_POLICY_INDEX_H */
