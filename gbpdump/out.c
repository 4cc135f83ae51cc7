// SPDX-License-Identifier: BSD-2-Clause
/* out.c - buffered output for the printers (see out.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <vxgbp/vxgbp.h>

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
	char t[16];
	int n = 0;

	do {
		t[n++] = hx[v & 0xf];
		v >>= 4;
	} while (v && n < 16);
	while (n < min_digits && n < 16)
		t[n++] = '0';
	while (n)
		out_putc(o, t[--n]);
}

void out_dec_pad(struct gd_out *o, uint64_t v, int width)
{
	char t[20];

	if (width > 20)
		width = 20;
	for (int i = width - 1; i >= 0; i--) {
		t[i] = (char)('0' + v % 10);
		v /= 10;
	}
	out_write(o, t, (size_t)width);
}

void out_spaces(struct gd_out *o, int n)
{
	static const char sp[32] = "                                ";

	while (n > 0) {
		int k = n < 32 ? n : 32;

		out_write(o, sp, (size_t)k);
		n -= k;
	}
}

void out_u64_w(struct gd_out *o, uint64_t v, int width)
{
	char t[20];
	int n = 0;

	do {
		t[sizeof(t) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	out_spaces(o, width - n);
	out_write(o, t + sizeof(t) - n, (size_t)n);
}

void out_json_str(struct gd_out *o, const char *s)
{
	static const char hx[] = "0123456789abcdef";
	size_t n;

	/* the common case, nothing to escape: one copy */
	for (n = 0; s[n]; n++) {
		unsigned char c = (unsigned char)s[n];

		if (c == '"' || c == '\\' || c < 0x20 || c == 0x7f)
			break;
	}
	if (!s[n]) {
		out_putc(o, '"');
		out_write(o, s, n);
		out_putc(o, '"');
		return;
	}
	out_putc(o, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			out_putc(o, '\\');
			out_putc(o, (char)c);
		} else if (c < 0x20 || c == 0x7f) {
			out_str(o, "\\u00");
			out_putc(o, hx[c >> 4]);
			out_putc(o, hx[c & 0xf]);
		} else {
			out_putc(o, (char)c);
		}
	}
	out_putc(o, '"');
}

void out_addr(struct gd_out *o, const uint8_t *a, size_t len)
{
	char b[64];
	int n;

	if (GD_OUT_CAP - o->len >= 64) { /* straight into the buffer */
		n = vxgbp_addr_format(o->buf + o->len, 64, a, len);
		if (n > 0)
			o->len += (size_t)n;
		else
			o->buf[o->len++] = '?';
		return;
	}
	n = vxgbp_addr_format(b, sizeof(b), a, len);

	if (n > 0)
		out_write(o, b, (size_t)n);
	else
		out_putc(o, '?');
}

void out_mac(struct gd_out *o, const uint8_t *mac)
{
	char b[18];

	if (GD_OUT_CAP - o->len >= 18 && vxgbp_mac_format(o->buf + o->len, 18, mac) == 17) {
		o->len += 17;
		return;
	}

	if (vxgbp_mac_format(b, sizeof(b), mac) == 17)
		out_write(o, b, 17);
	else
		out_putc(o, '?');
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
