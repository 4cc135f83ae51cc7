// SPDX-License-Identifier: BSD-2-Clause
/* pcap_dl.c - libpcap opened at its first use (see pcap_dl.h and dl.h). */
#include <dlfcn.h>

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
