/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cursor.h - the one checked cursor every packet read in libvxgbp goes
 * through (internal, not installed).
 *
 * A cursor is a window [base+pos, base+end) into the caller's buffer.  Every
 * read first asks vxc_need(); a read past the end is impossible by
 * construction because each accessor re-checks.  No bitfields, no unaligned
 * loads: multi-byte fields are assembled byte by byte in network order.
 */
#ifndef VXGBP_CURSOR_H
#define VXGBP_CURSOR_H

#include <stddef.h>
#include <stdint.h>

/* The accessors are a few instructions each and called many times a
 * frame: always inline them (GCC otherwise keeps out-of-line copies). */
#if defined(__GNUC__)
#define VXC_INLINE static inline __attribute__((always_inline))
#else
#define VXC_INLINE static inline
#endif

struct vxc {
	const uint8_t *base; /* start of the frame (offsets are from here) */
	size_t pos;          /* next byte to read */
	size_t end;          /* one past the last readable byte */
};

VXC_INLINE void vxc_init(struct vxc *c, const void *base, size_t len)
{
	c->base = base;
	c->pos = 0;
	c->end = len;
}

VXC_INLINE size_t vxc_left(const struct vxc *c)
{
	return c->end > c->pos ? c->end - c->pos : 0;
}

VXC_INLINE int vxc_need(const struct vxc *c, size_t n)
{
	return vxc_left(c) >= n;
}

/* Byte at pos+off, or 0 when out of range (callers check vxc_need first;
 * this second check makes an over-read impossible even if they forget). */
VXC_INLINE uint8_t vxc_u8_at(const struct vxc *c, size_t off)
{
	return off < vxc_left(c) ? c->base[c->pos + off] : 0;
}

/* Multi-byte reads check the window once when the whole field is inside
 * it (always, for callers that asked vxc_need first); otherwise byte by
 * byte as before, each byte outside reading as 0. */
VXC_INLINE uint16_t vxc_be16_at(const struct vxc *c, size_t off)
{
	size_t left = vxc_left(c);

	if (off < left && left - off >= 2) {
		const uint8_t *b = c->base + c->pos + off;

		return (uint16_t)((unsigned)b[0] << 8 | b[1]);
	}
	return (uint16_t)((unsigned)vxc_u8_at(c, off) << 8 | vxc_u8_at(c, off + 1));
}

VXC_INLINE uint32_t vxc_be32_at(const struct vxc *c, size_t off)
{
	size_t left = vxc_left(c);

	if (off < left && left - off >= 4) {
		const uint8_t *b = c->base + c->pos + off;

		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	}
	return (uint32_t)vxc_be16_at(c, off) << 16 | vxc_be16_at(c, off + 2);
}

/* Big-endian reads at b, for bytes a check before has found inside the
 * window (pkt_fast.c's fills, after its checks over whole layers): the
 * accessors' own checks are not free where the compiler cannot see the
 * earlier one. */
VXC_INLINE uint16_t vxc_be16(const uint8_t *b)
{
	return (uint16_t)((unsigned)b[0] << 8 | b[1]);
}

VXC_INLINE uint32_t vxc_be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* Pointer to n readable bytes at pos+off, or NULL. */
VXC_INLINE const uint8_t *vxc_ptr_at(const struct vxc *c, size_t off, size_t n)
{
	if (off > vxc_left(c) || n > vxc_left(c) - off)
		return NULL;
	return c->base + c->pos + off;
}

VXC_INLINE int vxc_skip(struct vxc *c, size_t n)
{
	if (!vxc_need(c, n))
		return 0;
	c->pos += n;
	return 1;
}

/* Narrow the window to n bytes from pos (for a layer whose own length field
 * says where it ends).  Never widens. */
VXC_INLINE void vxc_limit(struct vxc *c, size_t n)
{
	if (n < vxc_left(c))
		c->end = c->pos + n;
}

/* The next run of set bits in a bitmap of nbytes (bit 0 = the top bit of
 * the first byte), from bit *iter: [*lo, *hi], *iter moved past it.  1, or
 * 0 when no bit is left.  CIPSO tags 1/6 and the CALIPSO compartment
 * bitmap use it. */
VXC_INLINE int vxc_bitmap_next(const uint8_t *bm, size_t nbytes, unsigned *iter,
				  uint16_t *lo, uint16_t *hi)
{
	struct vxc d;
	size_t nbits = nbytes * 8, b = *iter;

	vxc_init(&d, bm, bm ? nbytes : 0);
	while (b < nbits && !(vxc_u8_at(&d, b / 8) & (0x80u >> (b % 8))))
		b++;
	if (b >= nbits) {
		*iter = (unsigned)nbits;
		return 0;
	}
	*lo = (uint16_t)b;
	while (b + 1 < nbits && (vxc_u8_at(&d, (b + 1) / 8) & (0x80u >> ((b + 1) % 8))))
		b++;
	*hi = (uint16_t)b;
	*iter = (unsigned)(b + 1);
	return 1;
}

#endif /* VXGBP_CURSOR_H */
