// SPDX-License-Identifier: BSD-2-Clause
/* pcap_dl.c - libpcap opened at its first use (see pcap_dl.h). */
#define _GNU_SOURCE /* secure_getenv() */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "pcap_dl.h"

#ifndef GD_PCAP_SONAME
#error "GD_PCAP_SONAME (libpcap's SONAME) comes from gbpdump/CMakeLists.txt"
#endif

struct gd_pcap gd_pcap;

static pthread_once_t pcap_once = PTHREAD_ONCE_INIT;
/* load()'s outcome: empty when every function was resolved, else what
 * dlopen() or dlsym() said.  Written once, under pcap_once. */
static char pcap_err[512];

/* Every function of the table from handle h into t: 0, or -1 with the
 * first missing one's dlerror() in pcap_err. */
static int resolve(void *h, struct gd_pcap *t)
{
	void *sym;
	const char *e;

	/* POSIX (dlsym) lets a data pointer be converted to a function
	 * pointer; ISO C leaves it undefined, hence the cast through the
	 * member's own type. */
#define GD_PCAP_RESOLVE(f)                                                     \
	if (!(sym = dlsym(h, #f)))                                             \
		goto missing;                                                  \
	t->f = (__typeof__(t->f))sym;
	GD_PCAP_FUNCS(GD_PCAP_RESOLVE)
#undef GD_PCAP_RESOLVE
	return 0;
missing:
	e = dlerror();
	snprintf(pcap_err, sizeof(pcap_err), "%s", e ? e : "a function is missing");
	return -1;
}

/* Once per process: GBPDUMP_LIBPCAP, else the build's SONAME.  The
 * variable is ignored in a set-user-ID or file-capability run (as the
 * dynamic loader ignores LD_PRELOAD there). */
static void load(void)
{
	const char *name = secure_getenv("GBPDUMP_LIBPCAP");
	struct gd_pcap t;
	const char *e;
	void *h;

	if (!name || !*name)
		name = GD_PCAP_SONAME;
	/* RTLD_NOW: a library that cannot be bound fails here, not at some
	 * later call */
	if (!(h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
		e = dlerror();
		snprintf(pcap_err, sizeof(pcap_err), "%s", e ? e : name);
		return;
	}
	if (resolve(h, &t) < 0) {
		dlclose(h);
		return;
	}
	gd_pcap = t; /* the handle stays open for the process's life */
}

int gd_pcap_open(const char *what, char *err, size_t n)
{
	int e = pthread_once(&pcap_once, load);

	if (e == 0 && !pcap_err[0])
		return 0;
	snprintf(err, n, "%s needs libpcap: %s", what, e ? "pthread_once failed" : pcap_err);
	return -1;
}
