// SPDX-License-Identifier: BSD-2-Clause
/*
 * consumer.c - a program outside the source tree, built against the
 * installed libvxgbp through pkg-config (debian/tests/libvxgbp-dev).
 * Prints the header's and the loaded library's version, then a VXLAN-GBP
 * header (VNI 100, group 0x200, Don't Learn) encoded, decoded back and
 * mapped to the skb->mark a Linux gbp device sets.
 */
#include <stdint.h>
#include <stdio.h>
#include <vxgbp/vxgbp.h>

int main(void)
{
	struct vxgbp_hdr h, back;
	uint8_t wire[VXGBP_HDR_LEN];
	size_t i;

	if (vxgbp_hdr_init(&h, 100, VXGBP_F_G | VXGBP_F_D, 0x200) != 0 ||
	    vxgbp_hdr_encode(&h, wire, sizeof(wire)) != VXGBP_HDR_LEN ||
	    vxgbp_hdr_decode(&back, wire, sizeof(wire)) != VXGBP_HDR_LEN) {
		fprintf(stderr, "consumer: libvxgbp refused a valid header\n");
		return 1;
	}
	/* field by field: the struct's padding holds whatever the stack did */
	if (h.flags != back.flags || h.group != back.group || h.vni != back.vni ||
	    h.rsvd != back.rsvd) {
		fprintf(stderr, "consumer: decode(encode(h)) != h\n");
		return 1;
	}
	printf("header %s library %s wire ", VXGBP_VERSION, vxgbp_version());
	for (i = 0; i < sizeof(wire); i++)
		printf("%02x", wire[i]);
	printf(" mark %#x\n", (unsigned)vxgbp_mark_from_hdr(&back));
	return 0;
}
