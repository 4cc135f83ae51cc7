// SPDX-License-Identifier: BSD-2-Clause
/* csum.c - the Internet checksum (RFC 1071), used by the parser to verify
 * and by the builder to fill in IPv4 header and UDP/TCP/ICMP checksums. */
#include <vxgbp/vxgbp.h>

uint32_t vxgbp_csum_add(uint32_t sum, const void *buf, size_t len)
{
	const uint8_t *b = buf;
	uint64_t s = sum;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (i < len)
		s += (uint32_t)b[i] << 8;
	while (s >> 32)
		s = (s & 0xffffffffu) + (s >> 32);
	return (uint32_t)s;
}

uint16_t vxgbp_csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}
