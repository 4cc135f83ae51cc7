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

/* "0".."255": three characters, zero-padded after, then the length. */
static const char dec_u8[256][4] = {
	"0\0\0\1", "1\0\0\1", "2\0\0\1", "3\0\0\1", "4\0\0\1", "5\0\0\1", "6\0\0\1", "7\0\0\1",
	"8\0\0\1", "9\0\0\1", "10\0\2", "11\0\2", "12\0\2", "13\0\2", "14\0\2", "15\0\2",
	"16\0\2", "17\0\2", "18\0\2", "19\0\2", "20\0\2", "21\0\2", "22\0\2", "23\0\2",
	"24\0\2", "25\0\2", "26\0\2", "27\0\2", "28\0\2", "29\0\2", "30\0\2", "31\0\2",
	"32\0\2", "33\0\2", "34\0\2", "35\0\2", "36\0\2", "37\0\2", "38\0\2", "39\0\2",
	"40\0\2", "41\0\2", "42\0\2", "43\0\2", "44\0\2", "45\0\2", "46\0\2", "47\0\2",
	"48\0\2", "49\0\2", "50\0\2", "51\0\2", "52\0\2", "53\0\2", "54\0\2", "55\0\2",
	"56\0\2", "57\0\2", "58\0\2", "59\0\2", "60\0\2", "61\0\2", "62\0\2", "63\0\2",
	"64\0\2", "65\0\2", "66\0\2", "67\0\2", "68\0\2", "69\0\2", "70\0\2", "71\0\2",
	"72\0\2", "73\0\2", "74\0\2", "75\0\2", "76\0\2", "77\0\2", "78\0\2", "79\0\2",
	"80\0\2", "81\0\2", "82\0\2", "83\0\2", "84\0\2", "85\0\2", "86\0\2", "87\0\2",
	"88\0\2", "89\0\2", "90\0\2", "91\0\2", "92\0\2", "93\0\2", "94\0\2", "95\0\2",
	"96\0\2", "97\0\2", "98\0\2", "99\0\2", "100\3", "101\3", "102\3", "103\3",
	"104\3", "105\3", "106\3", "107\3", "108\3", "109\3", "110\3", "111\3",
	"112\3", "113\3", "114\3", "115\3", "116\3", "117\3", "118\3", "119\3",
	"120\3", "121\3", "122\3", "123\3", "124\3", "125\3", "126\3", "127\3",
	"128\3", "129\3", "130\3", "131\3", "132\3", "133\3", "134\3", "135\3",
	"136\3", "137\3", "138\3", "139\3", "140\3", "141\3", "142\3", "143\3",
	"144\3", "145\3", "146\3", "147\3", "148\3", "149\3", "150\3", "151\3",
	"152\3", "153\3", "154\3", "155\3", "156\3", "157\3", "158\3", "159\3",
	"160\3", "161\3", "162\3", "163\3", "164\3", "165\3", "166\3", "167\3",
	"168\3", "169\3", "170\3", "171\3", "172\3", "173\3", "174\3", "175\3",
	"176\3", "177\3", "178\3", "179\3", "180\3", "181\3", "182\3", "183\3",
	"184\3", "185\3", "186\3", "187\3", "188\3", "189\3", "190\3", "191\3",
	"192\3", "193\3", "194\3", "195\3", "196\3", "197\3", "198\3", "199\3",
	"200\3", "201\3", "202\3", "203\3", "204\3", "205\3", "206\3", "207\3",
	"208\3", "209\3", "210\3", "211\3", "212\3", "213\3", "214\3", "215\3",
	"216\3", "217\3", "218\3", "219\3", "220\3", "221\3", "222\3", "223\3",
	"224\3", "225\3", "226\3", "227\3", "228\3", "229\3", "230\3", "231\3",
	"232\3", "233\3", "234\3", "235\3", "236\3", "237\3", "238\3", "239\3",
	"240\3", "241\3", "242\3", "243\3", "244\3", "245\3", "246\3", "247\3",
	"248\3", "249\3", "250\3", "251\3", "252\3", "253\3", "254\3", "255\3",
};

/* One byte in decimal, no leading zeros; p has room for 4 bytes. */
static size_t put_u8(char *p, unsigned v)
{
	memcpy(p, dec_u8[v & 0xff], 4);
	return (size_t)dec_u8[v & 0xff][3];
}

int vxgbp_addr_format(char *buf, size_t buflen, const uint8_t *addr, size_t len)
{
	char tmp[48];
	size_t n = 0;

	if (!addr || (len != 4 && len != 16))
		return VXGBP_E_INVAL;
	if (len == 4 && buflen >= 16) { /* the common case: straight into buf */
		n = put_u8(buf, addr[0]);
		for (int i = 1; i < 4; i++) {
			buf[n++] = '.';
			n += put_u8(buf + n, addr[i]);
		}
		buf[n] = '\0';
		return (int)n;
	}
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
