/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * size.h - size-versioned structs (docs/api.md): the caller states in a
 * leading uint32_t size the sizeof it was built with.
 *
 * The least size each takes is its size in the first release, 1.4.0.
 * While no field has been added that is sizeof itself; the release that
 * adds the first field after it writes offsetof(that field) here, and the
 * functions that take the struct then read a caller's smaller one through
 * a zero-extended copy (input) or fill a copy and give back what fits
 * (output).
 */
#ifndef VXGBP_SIZE_H
#define VXGBP_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include <vxgbp/vxgbp.h>

#define VXGBPI_PKT_SIZE_MIN sizeof(struct vxgbp_pkt)
#define VXGBPI_PARSE_OPTS_SIZE_MIN sizeof(struct vxgbp_parse_opts)
#define VXGBPI_TRACK_OPTS_SIZE_MIN sizeof(struct vxgbp_track_opts)
#define VXGBPI_TRACK_SUMMARY_SIZE_MIN sizeof(struct vxgbp_track_summary)

/* An input struct s of the caller's size bytes, ours of them known here:
 * 0 to read it, VXGBP_E_INVAL below min, VXGBP_E_UNSUPPORTED when a byte
 * past ours is set (the caller asks for what this library cannot do: as
 * openat2(2) and bpf(2) refuse it). */
static inline int vxgbpi_size_in(const void *s, uint32_t size, size_t ours, size_t min)
{
	const unsigned char *b = s;

	if (size == ours)
		return 0;
	if (size < min || size < ours)
		return VXGBP_E_INVAL;
	for (size_t i = ours; i < size; i++)
		if (b[i])
			return VXGBP_E_UNSUPPORTED;
	return 0;
}

/* An output struct whose caller's size is *size: 0 to fill ours (a bigger
 * one is then told in *size what was filled), VXGBP_E_INVAL below min. */
static inline int vxgbpi_size_out(uint32_t *size, size_t ours, size_t min)
{
	if (*size == ours)
		return 0;
	if (*size < min || *size < ours)
		return VXGBP_E_INVAL;
	*size = (uint32_t)ours;
	return 0;
}

#endif /* VXGBP_SIZE_H */
