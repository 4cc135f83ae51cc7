// SPDX-License-Identifier: BSD-2-Clause
/*
 * cli.c - command-line values the vxgbp tools read alike (cli.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

int cli_parse_num(const char *s, unsigned long long max, unsigned long long *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s || *end || x > max || s[0] == '-')
		return -1;
	*v = x;
	return 0;
}

int cli_parse_size(const char *s, size_t *v)
{
	unsigned long long x, mul = 1;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || end == s || s[0] == '-')
		return -1;
	if (*end == 'k' || *end == 'K')
		mul = 1ull << 10;
	else if (*end == 'M')
		mul = 1ull << 20;
	else if (*end == 'G')
		mul = 1ull << 30;
	if (mul > 1)
		end++;
	if (*end || x == 0 || x > SIZE_MAX / mul)
		return -1;
	*v = (size_t)(x * mul);
	return 0;
}

int cli_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned m[6];
	char tail;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5],
		   &tail) != 6)
		return -1;
	for (int i = 0; i < 6; i++) {
		if (m[i] > 255)
			return -1;
		mac[i] = (uint8_t)m[i];
	}
	return 0;
}
