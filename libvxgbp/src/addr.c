// SPDX-License-Identifier: BSD-2-Clause
/* addr.c - address formatting without libc's resolver or locale: IPv4
 * dotted quad, IPv6 in RFC 5952 form, MAC as six colon-separated pairs.
 * Written for speed: gbpdump formats millions of these. */
#include <string.h>

#include <vxgbp/vxgbp.h>

static const char hexd[] = "0123456789abcdef";

static size_t put_dec(char *p, unsigned v)
{
	char t[3];
	size_t n = 0, i;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && n < sizeof(t));
	for (i = 0; i < n; i++)
		p[i] = t[n - 1 - i];
	return n;
}

static size_t put_hex16(char *p, unsigned v)
{
	size_t n = 0;
	int shift = 12;

	while (shift > 0 && ((v >> shift) & 0xf) == 0)
		shift -= 4;
	for (; shift >= 0; shift -= 4)
		p[n++] = hexd[(v >> shift) & 0xf];
	return n;
}

int vxgbp_addr_format(char *buf, size_t buflen, const uint8_t *addr, size_t len)
{
	char tmp[48];
	size_t n = 0;

	if (!addr || (len != 4 && len != 16))
		return VXGBP_E_INVAL;
	if (len == 4) {
		for (int i = 0; i < 4; i++) {
			if (i)
				tmp[n++] = '.';
			n += put_dec(tmp + n, addr[i]);
		}
	} else {
		/* RFC 5952: longest run (>= 2) of zero groups becomes "::",
		 * the first one on a tie; lower-case hex, no leading zeros. */
		unsigned g[8];
		int best = -1, bestlen = 0;

		for (int i = 0; i < 8; i++)
			g[i] = (unsigned)addr[2 * i] << 8 | addr[2 * i + 1];
		for (int i = 0; i < 8;) {
			int j = i;

			while (j < 8 && g[j] == 0)
				j++;
			if (j - i > bestlen && j - i >= 2) {
				best = i;
				bestlen = j - i;
			}
			i = j > i ? j : i + 1;
		}
		/* IPv4-mapped ::ffff:a.b.c.d */
		if (best == 0 && bestlen == 5 && g[5] == 0xffff) {
			memcpy(tmp, "::ffff:", 7);
			n = 7;
			for (int i = 12; i < 16; i++) {
				if (i > 12)
					tmp[n++] = '.';
				n += put_dec(tmp + n, addr[i]);
			}
		} else {
			for (int i = 0; i < 8; i++) {
				if (i == best) {
					tmp[n++] = ':';
					tmp[n++] = ':';
					i += bestlen - 1;
					continue;
				}
				if (i && !(best >= 0 && i == best + bestlen))
					tmp[n++] = ':';
				n += put_hex16(tmp + n, g[i]);
			}
		}
	}
	if (n + 1 > buflen)
		return VXGBP_E_NOSPACE;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
	return (int)n;
}

int vxgbp_mac_format(char *buf, size_t buflen, const uint8_t mac[6])
{
	if (!mac)
		return VXGBP_E_INVAL;
	if (buflen < 18)
		return VXGBP_E_NOSPACE;
	for (int i = 0; i < 6; i++) {
		buf[3 * i] = hexd[mac[i] >> 4];
		buf[3 * i + 1] = hexd[mac[i] & 0xf];
		buf[3 * i + 2] = i < 5 ? ':' : '\0';
	}
	return 17;
}
