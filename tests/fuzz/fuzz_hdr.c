// SPDX-License-Identifier: BSD-2-Clause
/*
 * fuzz_hdr.c - libFuzzer harness for the 8-byte header codec: decode,
 * encode (must give the same 8 bytes back), validation, the mark mapping
 * both ways and the Linux verdict model.  Anything that does not hold aborts.
 */
#include <stdlib.h>
#include <string.h>

#include <vxgbp/vxgbp.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vxgbp_hdr h, h2;
	struct vxgbp_verdict v;
	uint8_t out[VXGBP_HDR_LEN];
	uint32_t mark;
	int r;

	r = vxgbp_hdr_decode(&h, data, size);
	if (size < VXGBP_HDR_LEN) {
		if (r != VXGBP_E_TRUNCATED)
			abort();
		return 0;
	}
	if (r != VXGBP_HDR_LEN)
		abort();
	if (vxgbp_hdr_encode(&h, out, sizeof(out)) != VXGBP_HDR_LEN ||
	    memcmp(out, data, VXGBP_HDR_LEN))
		abort(); /* decode -> encode must be byte-identical */
	if (vxgbp_hdr_encode(&h, out, VXGBP_HDR_LEN - 1) != VXGBP_E_NOSPACE)
		abort();
	(void)vxgbp_hdr_check(&h);
	for (unsigned dev = 0; dev < 4; dev++) {
		vxgbp_verdict_linux(&h, dev, &v);
		if (!vxgbp_drop_name(v.why))
			abort();
	}
	mark = vxgbp_mark_from_hdr(&h);
	if (!vxgbp_hdr_has_gbp(&h) && mark)
		abort();
	if (mark & ~VXGBP_MARK_USED)
		abort();
	/* mark -> header -> mark keeps every GBP bit of the mark */
	vxgbp_mark_to_hdr(&h2, mark, h.vni, 0);
	if (mark && vxgbp_mark_from_hdr(&h2) != mark)
		abort();
	if (size >= 12) { /* bytes 8-11: an arbitrary skb->mark */
		uint32_t m = (uint32_t)data[8] << 24 | (uint32_t)data[9] << 16 |
			     (uint32_t)data[10] << 8 | data[11];

		vxgbp_mark_to_hdr(&h2, m, h.vni & VXGBP_VNI_MAX, data[0] & 1);
		if (vxgbp_hdr_encode(&h2, out, sizeof(out)) != VXGBP_HDR_LEN)
			abort();
		if ((vxgbp_mark_from_hdr(&h2) & VXGBP_MARK_USED) != (m & VXGBP_MARK_USED) &&
		    (m & VXGBP_MARK_USED))
			abort();
	}
	return 0;
}
