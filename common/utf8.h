/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * utf8.h - what is valid UTF-8 (RFC 3629), decided once: the escapers of
 * gbpdump's JSON, XML and HTML replace what is not, the side-file reader
 * (lines.h) refuses it.  Not valid: overlongs, surrogates, code points past
 * U+10FFFF, cut sequences, 0x80-0xBF alone, 0xC0, 0xC1, 0xF5-0xFF.
 */
#ifndef VXGBP_COMMON_UTF8_H
#define VXGBP_COMMON_UTF8_H

#include <stddef.h>

/* The valid UTF-8 sequence at s: its length (1..4) and code point, or 0
 * when s does not begin one.  Reads no byte past one that is not a
 * continuation byte, so never past a terminating NUL. */
size_t utf8_seq(const unsigned char *s, unsigned *cp);

#endif /* VXGBP_COMMON_UTF8_H */
