/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cli.h - command-line values the vxgbp tools read alike (gbpdump, gbpgen,
 * gbpprobe): numbers, sizes, MAC addresses.  Internal, not installed.
 * Each returns 0, or -1 for text that is not wholly such a value.
 */
#ifndef VXGBP_CLI_H
#define VXGBP_CLI_H

#include <stddef.h>
#include <stdint.h>

/* "512", "0x200", "0755" (strtoull's bases) up to max; no sign. */
int cli_parse_num(const char *s, unsigned long long max, unsigned long long *v);
/* "4096", "64k", "256M", "1G" (1024-based), above 0. */
int cli_parse_size(const char *s, size_t *v);
/* "02:00:00:00:00:01" (one or two hex digits a byte). */
int cli_parse_mac(const char *s, uint8_t mac[6]);

#endif /* VXGBP_CLI_H */
