// SPDX-License-Identifier: BSD-2-Clause
/* pcap_dl.c - libpcap opened at its first use (see pcap_dl.h and dl.h). */
#include <dlfcn.h>
#include <stdio.h>

#include "pcap_dl.h"

#ifndef GD_PCAP_SONAME
#error "GD_PCAP_SONAME (libpcap's SONAME) comes from gbpdump/CMakeLists.txt"
#endif

struct gd_pcap gd_pcap;

static int pcap_resolve(void *h)
{
#define PCAP_RESOLVE(f) GD_DL_RESOLVE(h, &gd_pcap, f)
	GD_PCAP_FUNCS(PCAP_RESOLVE)
#undef PCAP_RESOLVE
	return 0;
}

static struct gd_dl pcap_lib = {
	.soname = GD_PCAP_SONAME,
	.env = "GBPDUMP_LIBPCAP",
	.label = "libpcap",
	.resolve = pcap_resolve,
};

int gd_pcap_open(const char *what, char *err, size_t n)
{
	return gd_dl_open(&pcap_lib, what, err, n);
}

pcap_t *gd_pcap_filter(int dlt, int snaplen, int precision, const char *expr,
		       struct bpf_program *prog, const char *who, char *err, size_t n)
{
	pcap_t *dead;

	if (gd_pcap_open("a filter expression", err, n) < 0)
		return NULL;
	dead = gd_pcap.pcap_open_dead_with_tstamp_precision(dlt, snaplen, precision);
	if (dead && gd_pcap.pcap_compile(dead, prog, expr, 1, PCAP_NETMASK_UNKNOWN) == 0)
		return dead;
	snprintf(err, n, "%s%sfilter '%s': %s", who ? who : "", who ? ": " : "", expr,
		 dead ? gd_pcap.pcap_geterr(dead) : "out of memory");
	if (dead)
		gd_pcap.pcap_close(dead);
	return NULL;
}
