/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * track_rules.h - the recent-frame cache's hash (track_rules.c), declared
 * for unit_rules, which holds each of its code paths to a plain copy.
 */
#ifndef VXGBP_TRACK_RULES_H
#define VXGBP_TRACK_RULES_H

#include <stddef.h>
#include <stdint.h>

/* The hash of VNI vni and the inner frame's bytes b[0..n).  isa: 1 the
 * fastest code the CPU runs, 0 plain C; both give the same values. */
uint64_t vxgbpi_dup_hash(uint32_t vni, const uint8_t *b, size_t n, int isa);

#endif
