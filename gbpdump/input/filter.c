// SPDX-License-Identifier: BSD-2-Clause
/* filter.c - a BPF filter expression compiled with libpcap (see filter.h). */
#include <stdio.h>

#include "filter.h"

pcap_t *gd_pcap_filter(int dlt, int snaplen, int precision, const char *expr,
		       struct bpf_program *prog, const char *who, char *err, size_t n)
{
	pcap_t *dead = pcap_open_dead_with_tstamp_precision(dlt, snaplen, precision);

	if (dead && pcap_compile(dead, prog, expr, 1, PCAP_NETMASK_UNKNOWN) == 0)
		return dead;
	snprintf(err, n, "%s%sfilter '%s': %s", who ? who : "", who ? ": " : "", expr,
		 dead ? pcap_geterr(dead) : "out of memory");
	if (dead)
		pcap_close(dead);
	return NULL;
}
