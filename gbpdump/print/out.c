// SPDX-License-Identifier: BSD-2-Clause
/* out.c - buffered output for the printers (see out.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <vxgbp/vxgbp.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "escape.h"
#include "out.h"

const char gd_digits2[200] =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

void out_init(struct gd_out *o, int fd)
{
	o->fd = fd;
	o->len = 0;
	o->err = 0;
}

int out_flush(struct gd_out *o)
{
	size_t done = 0;

	while (done < o->len) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->err)
				o->err = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	o->len = 0;
	return o->err ? -1 : 0;
}

void out_write_slow(struct gd_out *o, const char *s, size_t n)
{
	while (n) {
		size_t room = GD_OUT_CAP - o->len, k = n < room ? n : room;

		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == GD_OUT_CAP)
			out_flush(o);
	}
}

void out_u64_slow(struct gd_out *o, uint64_t v)
{
	char t[20];
	int n = 0;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		out_putc(o, t[--n]);
}

void out_i64(struct gd_out *o, int64_t v)
{
	if (v < 0) {
		out_putc(o, '-');
		out_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		out_u64(o, (uint64_t)v);
	}
}

void out_hex(struct gd_out *o, uint64_t v, int min_digits)
{
	static const char hx[] = "0123456789abcdef";
	int n = 1;
	char *d;

	while (n < 16 && v >> (4 * n))
		n++;
	if (n < min_digits)
		n = min_digits < 16 ? min_digits : 16;
	if (GD_OUT_CAP - o->len < 16)
		out_flush(o);
	d = o->buf + o->len;
	for (int i = n - 1; i >= 0; i--, v >>= 4)
		d[i] = hx[v & 0xf];
	o->len += (size_t)n;
}

/* v mod 10^width, zero-padded to width digits: two digits a step from the
 * end (the microseconds of every time stamp). */
void out_dec_pad(struct gd_out *o, uint64_t v, int width)
{
	char t[20];
	int i = width > 20 ? 20 : width;

	if (i == 6 && v < 1000000 && GD_OUT_CAP - o->len >= 6) { /* microseconds */
		uint32_t x = (uint32_t)v;
		char *d = o->buf + o->len;

		memcpy(d, gd_digits2 + 2 * (x / 10000), 2);
		memcpy(d + 2, gd_digits2 + 2 * (x / 100 % 100), 2);
		memcpy(d + 4, gd_digits2 + 2 * (x % 100), 2);
		o->len += 6;
		return;
	}
	if (i <= 0)
		return;
	width = i;
	while (i >= 2) {
		i -= 2;
		memcpy(t + i, gd_digits2 + 2 * (v % 100), 2);
		v /= 100;
	}
	if (i)
		t[0] = (char)('0' + v % 10);
	out_write(o, t, (size_t)width);
}

void out_u64_w(struct gd_out *o, uint64_t v, int width)
{
	out_commit(o, lw_u64_w(out_reserve(o, width > 20 ? (size_t)width : 20), v, width));
}

static void out_sink(void *ctx, const char *s, size_t n)
{
	out_write(ctx, s, n);
}

void out_json_str(struct gd_out *o, const char *s)
{
	size_t n = esc_json_plain(s);

	if (!s[n]) { /* the common case, nothing to escape: one copy */
		out_putc(o, '"');
		out_write(o, s, n);
		out_putc(o, '"');
	} else {
		esc_json(&(struct esc_sink){ out_sink, o }, s);
	}
}

/* "0." .. "255.", zero-filled, each entry's last byte its length: one
 * 8-byte load gives lw_ipv4 both */
const char gd_dec_dot[256][8] = {
	"0.\0\0\0\0\0\2", "1.\0\0\0\0\0\2", "2.\0\0\0\0\0\2", "3.\0\0\0\0\0\2", "4.\0\0\0\0\0\2",
	"5.\0\0\0\0\0\2", "6.\0\0\0\0\0\2", "7.\0\0\0\0\0\2", "8.\0\0\0\0\0\2", "9.\0\0\0\0\0\2",
	"10.\0\0\0\0\3", "11.\0\0\0\0\3", "12.\0\0\0\0\3", "13.\0\0\0\0\3", "14.\0\0\0\0\3",
	"15.\0\0\0\0\3", "16.\0\0\0\0\3", "17.\0\0\0\0\3", "18.\0\0\0\0\3", "19.\0\0\0\0\3",
	"20.\0\0\0\0\3", "21.\0\0\0\0\3", "22.\0\0\0\0\3", "23.\0\0\0\0\3", "24.\0\0\0\0\3",
	"25.\0\0\0\0\3", "26.\0\0\0\0\3", "27.\0\0\0\0\3", "28.\0\0\0\0\3", "29.\0\0\0\0\3",
	"30.\0\0\0\0\3", "31.\0\0\0\0\3", "32.\0\0\0\0\3", "33.\0\0\0\0\3", "34.\0\0\0\0\3",
	"35.\0\0\0\0\3", "36.\0\0\0\0\3", "37.\0\0\0\0\3", "38.\0\0\0\0\3", "39.\0\0\0\0\3",
	"40.\0\0\0\0\3", "41.\0\0\0\0\3", "42.\0\0\0\0\3", "43.\0\0\0\0\3", "44.\0\0\0\0\3",
	"45.\0\0\0\0\3", "46.\0\0\0\0\3", "47.\0\0\0\0\3", "48.\0\0\0\0\3", "49.\0\0\0\0\3",
	"50.\0\0\0\0\3", "51.\0\0\0\0\3", "52.\0\0\0\0\3", "53.\0\0\0\0\3", "54.\0\0\0\0\3",
	"55.\0\0\0\0\3", "56.\0\0\0\0\3", "57.\0\0\0\0\3", "58.\0\0\0\0\3", "59.\0\0\0\0\3",
	"60.\0\0\0\0\3", "61.\0\0\0\0\3", "62.\0\0\0\0\3", "63.\0\0\0\0\3", "64.\0\0\0\0\3",
	"65.\0\0\0\0\3", "66.\0\0\0\0\3", "67.\0\0\0\0\3", "68.\0\0\0\0\3", "69.\0\0\0\0\3",
	"70.\0\0\0\0\3", "71.\0\0\0\0\3", "72.\0\0\0\0\3", "73.\0\0\0\0\3", "74.\0\0\0\0\3",
	"75.\0\0\0\0\3", "76.\0\0\0\0\3", "77.\0\0\0\0\3", "78.\0\0\0\0\3", "79.\0\0\0\0\3",
	"80.\0\0\0\0\3", "81.\0\0\0\0\3", "82.\0\0\0\0\3", "83.\0\0\0\0\3", "84.\0\0\0\0\3",
	"85.\0\0\0\0\3", "86.\0\0\0\0\3", "87.\0\0\0\0\3", "88.\0\0\0\0\3", "89.\0\0\0\0\3",
	"90.\0\0\0\0\3", "91.\0\0\0\0\3", "92.\0\0\0\0\3", "93.\0\0\0\0\3", "94.\0\0\0\0\3",
	"95.\0\0\0\0\3", "96.\0\0\0\0\3", "97.\0\0\0\0\3", "98.\0\0\0\0\3", "99.\0\0\0\0\3",
	"100.\0\0\0\4", "101.\0\0\0\4", "102.\0\0\0\4", "103.\0\0\0\4", "104.\0\0\0\4",
	"105.\0\0\0\4", "106.\0\0\0\4", "107.\0\0\0\4", "108.\0\0\0\4", "109.\0\0\0\4",
	"110.\0\0\0\4", "111.\0\0\0\4", "112.\0\0\0\4", "113.\0\0\0\4", "114.\0\0\0\4",
	"115.\0\0\0\4", "116.\0\0\0\4", "117.\0\0\0\4", "118.\0\0\0\4", "119.\0\0\0\4",
	"120.\0\0\0\4", "121.\0\0\0\4", "122.\0\0\0\4", "123.\0\0\0\4", "124.\0\0\0\4",
	"125.\0\0\0\4", "126.\0\0\0\4", "127.\0\0\0\4", "128.\0\0\0\4", "129.\0\0\0\4",
	"130.\0\0\0\4", "131.\0\0\0\4", "132.\0\0\0\4", "133.\0\0\0\4", "134.\0\0\0\4",
	"135.\0\0\0\4", "136.\0\0\0\4", "137.\0\0\0\4", "138.\0\0\0\4", "139.\0\0\0\4",
	"140.\0\0\0\4", "141.\0\0\0\4", "142.\0\0\0\4", "143.\0\0\0\4", "144.\0\0\0\4",
	"145.\0\0\0\4", "146.\0\0\0\4", "147.\0\0\0\4", "148.\0\0\0\4", "149.\0\0\0\4",
	"150.\0\0\0\4", "151.\0\0\0\4", "152.\0\0\0\4", "153.\0\0\0\4", "154.\0\0\0\4",
	"155.\0\0\0\4", "156.\0\0\0\4", "157.\0\0\0\4", "158.\0\0\0\4", "159.\0\0\0\4",
	"160.\0\0\0\4", "161.\0\0\0\4", "162.\0\0\0\4", "163.\0\0\0\4", "164.\0\0\0\4",
	"165.\0\0\0\4", "166.\0\0\0\4", "167.\0\0\0\4", "168.\0\0\0\4", "169.\0\0\0\4",
	"170.\0\0\0\4", "171.\0\0\0\4", "172.\0\0\0\4", "173.\0\0\0\4", "174.\0\0\0\4",
	"175.\0\0\0\4", "176.\0\0\0\4", "177.\0\0\0\4", "178.\0\0\0\4", "179.\0\0\0\4",
	"180.\0\0\0\4", "181.\0\0\0\4", "182.\0\0\0\4", "183.\0\0\0\4", "184.\0\0\0\4",
	"185.\0\0\0\4", "186.\0\0\0\4", "187.\0\0\0\4", "188.\0\0\0\4", "189.\0\0\0\4",
	"190.\0\0\0\4", "191.\0\0\0\4", "192.\0\0\0\4", "193.\0\0\0\4", "194.\0\0\0\4",
	"195.\0\0\0\4", "196.\0\0\0\4", "197.\0\0\0\4", "198.\0\0\0\4", "199.\0\0\0\4",
	"200.\0\0\0\4", "201.\0\0\0\4", "202.\0\0\0\4", "203.\0\0\0\4", "204.\0\0\0\4",
	"205.\0\0\0\4", "206.\0\0\0\4", "207.\0\0\0\4", "208.\0\0\0\4", "209.\0\0\0\4",
	"210.\0\0\0\4", "211.\0\0\0\4", "212.\0\0\0\4", "213.\0\0\0\4", "214.\0\0\0\4",
	"215.\0\0\0\4", "216.\0\0\0\4", "217.\0\0\0\4", "218.\0\0\0\4", "219.\0\0\0\4",
	"220.\0\0\0\4", "221.\0\0\0\4", "222.\0\0\0\4", "223.\0\0\0\4", "224.\0\0\0\4",
	"225.\0\0\0\4", "226.\0\0\0\4", "227.\0\0\0\4", "228.\0\0\0\4", "229.\0\0\0\4",
	"230.\0\0\0\4", "231.\0\0\0\4", "232.\0\0\0\4", "233.\0\0\0\4", "234.\0\0\0\4",
	"235.\0\0\0\4", "236.\0\0\0\4", "237.\0\0\0\4", "238.\0\0\0\4", "239.\0\0\0\4",
	"240.\0\0\0\4", "241.\0\0\0\4", "242.\0\0\0\4", "243.\0\0\0\4", "244.\0\0\0\4",
	"245.\0\0\0\4", "246.\0\0\0\4", "247.\0\0\0\4", "248.\0\0\0\4", "249.\0\0\0\4",
	"250.\0\0\0\4", "251.\0\0\0\4", "252.\0\0\0\4", "253.\0\0\0\4", "254.\0\0\0\4",
	"255.\0\0\0\4",
};

const char gd_hex2[256][2] = {
	"00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "0a", "0b",
	"0c", "0d", "0e", "0f", "10", "11", "12", "13", "14", "15", "16", "17",
	"18", "19", "1a", "1b", "1c", "1d", "1e", "1f", "20", "21", "22", "23",
	"24", "25", "26", "27", "28", "29", "2a", "2b", "2c", "2d", "2e", "2f",
	"30", "31", "32", "33", "34", "35", "36", "37", "38", "39", "3a", "3b",
	"3c", "3d", "3e", "3f", "40", "41", "42", "43", "44", "45", "46", "47",
	"48", "49", "4a", "4b", "4c", "4d", "4e", "4f", "50", "51", "52", "53",
	"54", "55", "56", "57", "58", "59", "5a", "5b", "5c", "5d", "5e", "5f",
	"60", "61", "62", "63", "64", "65", "66", "67", "68", "69", "6a", "6b",
	"6c", "6d", "6e", "6f", "70", "71", "72", "73", "74", "75", "76", "77",
	"78", "79", "7a", "7b", "7c", "7d", "7e", "7f", "80", "81", "82", "83",
	"84", "85", "86", "87", "88", "89", "8a", "8b", "8c", "8d", "8e", "8f",
	"90", "91", "92", "93", "94", "95", "96", "97", "98", "99", "9a", "9b",
	"9c", "9d", "9e", "9f", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
	"a8", "a9", "aa", "ab", "ac", "ad", "ae", "af", "b0", "b1", "b2", "b3",
	"b4", "b5", "b6", "b7", "b8", "b9", "ba", "bb", "bc", "bd", "be", "bf",
	"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "ca", "cb",
	"cc", "cd", "ce", "cf", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
	"d8", "d9", "da", "db", "dc", "dd", "de", "df", "e0", "e1", "e2", "e3",
	"e4", "e5", "e6", "e7", "e8", "e9", "ea", "eb", "ec", "ed", "ee", "ef",
	"f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "fa", "fb",
	"fc", "fd", "fe", "ff",
};

/* a 16-bit group without leading zeros, pairs from gd_hex2 */
static char *lw_hex16(char *d, unsigned v)
{
	if (v < 0x100) {
		if (v < 0x10)
			return lw_c(d, gd_hex2[v][1]);
		return lw_mem(d, gd_hex2[v], 2);
	}
	if (v < 0x1000)
		d = lw_c(d, gd_hex2[v >> 8][1]);
	else
		d = lw_mem(d, gd_hex2[v >> 8], 2);
	return lw_mem(d, gd_hex2[v & 0xff], 2);
}

/* bit i set when group i of an IPv6 address is zero: one compare of the
 * eight groups with SSE2 */
static unsigned zero_groups(const uint8_t *a)
{
#ifdef __SSE2__
	__m128i z = _mm_setzero_si128();
	__m128i eq = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(const void *)a), z);

	return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(eq, z));
#else
	unsigned zero = 0;

	for (unsigned i = 0; i < 8; i++)
		zero |= (unsigned)(!a[2 * i] && !a[2 * i + 1]) << i;
	return zero;
#endif
}

/* RFC 5952 as libvxgbp's vxgbp_addr_format writes it (and inet_ntop):
 * the longest run of two or more zero groups, the first on a tie, is
 * "::"; ::ffff:a.b.c.d for an IPv4-mapped address; lower-case hex, no
 * leading zeros.  At most 39 bytes.  The run from a bit mask
 * of the zero groups: the starts of runs of len or more zeros, narrowed
 * while a longer run remains; the lowest start is the first. */
static char *lw_ipv6(char *d, const uint8_t *a)
{
	unsigned zero = zero_groups(a), m, best = 8, len = 0, i;

	m = zero & (zero >> 1);
	if (m) {
		for (len = 2; m & (zero >> len); len++)
			m &= zero >> len;
		best = (unsigned)__builtin_ctz(m);
	}
	if (best == 0 && len == 5 && a[10] == 0xff && a[11] == 0xff)
		return lw_ipv4(LW_LIT(d, "::ffff:"), a + 12);
	for (i = 0; i < best; i++) /* each group and a colon */
		d = lw_c(lw_hex16(d, (unsigned)a[2 * i] << 8 | a[2 * i + 1]), ':');
	if (best == 8)
		return d - 1;
	d = best ? lw_c(d, ':') : LW_LIT(d, "::");
	for (i = best + len; i < 8; i++)
		d = lw_c(lw_hex16(d, (unsigned)a[2 * i] << 8 | a[2 * i + 1]), ':');
	return best + len < 8 ? d - 1 : d;
}

/* IPv6, and '?' for anything neither IPv4 nor IPv6 (lw_addr's rest) */
char *lw_addr_other(char *p, const uint8_t *a, size_t len)
{
	if (a && len == 4)
		return lw_ipv4(p, a);
	if (a && len == 16)
		return lw_ipv6(p, a);
	return lw_c(p, '?');
}

void out_addr(struct gd_out *o, const uint8_t *a, size_t len)
{
	out_commit(o, lw_addr(out_reserve(o, GD_ADDR_MAX), a, len));
}

/* aa:bb:cc:dd:ee:ff, lower case (vxgbp_mac_format's text). */
char *lw_mac(char *d, const uint8_t *mac)
{
	if (!mac)
		return lw_c(d, '?');
	for (int i = 0; i < 6; i++, d += 3) {
		memcpy(d, gd_hex2[mac[i]], 2);
		d[2] = ':';
	}
	return d - 1;
}

void out_mac(struct gd_out *o, const uint8_t *mac)
{
	out_commit(o, lw_mac(out_reserve(o, 18), mac));
}

char *lw_u32_long(char *p, uint32_t v)
{
	char *e, *q;

	e = p + (v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10);
	for (q = e; v >= 100; v /= 100) {
		q -= 2;
		memcpy(q, gd_digits2 + 2 * (v % 100), 2);
	}
	if (v >= 10)
		memcpy(q - 2, gd_digits2 + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return e;
}

char *lw_u64(char *p, uint64_t v)
{
	if (v <= UINT32_MAX)
		return lw_u32(p, (uint32_t)v);
	/* the high part first, then the low nine digits zero-padded */
	p = lw_u64(p, v / 1000000000);
	v %= 1000000000;
	for (int i = 8; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + 9;
}

char *lw_u64_w(char *p, uint64_t v, int width)
{
	char t[20];
	int n = (int)(lw_u64(t, v) - t);

	if (n < width) {
		memset(p, ' ', (size_t)(width - n));
		p += width - n;
	}
	return lw_mem(p, t, (size_t)n);
}

void out_printf(struct gd_out *o, const char *fmt, ...)
{
	char b[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	out_write(o, b, (size_t)n < sizeof(b) ? (size_t)n : sizeof(b) - 1);
}
