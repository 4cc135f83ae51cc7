/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dl.h - a shared library opened with dlopen() the first time gbpdump
 * needs it, not at every start.
 *
 * Linked, libpcap brought in D-Bus, systemd, libgcrypt and more, and the
 * decompressors zlib, libzstd and liblzma theirs: the dynamic loader
 * relocated them all at every start (about 1.7 million instructions, 3 ms)
 * although a plain -r on a classic pcap or pcapng file calls none of them.
 * Each library is described once (struct gd_dl) and its functions are
 * called through a table of its own whose members have the names and the
 * types the library's header declares (GD_DL_MEMBER: a call through the
 * table is checked as a direct call would be); the header still gives the
 * types and constants.  pcap_dl.c (libpcap) and decompress.c (the
 * decompressors) are the users.
 */
#ifndef GBPDUMP_DL_H
#define GBPDUMP_DL_H

#include <stddef.h>

struct gd_dl {
	const char *soname; /* the build's name for it (CMake reads its SONAME) */
	const char *env;    /* an environment variable naming another, or NULL */
	const char *label;  /* for messages: "libpcap", "zlib", ... */
	/* every function of the table from handle h: 0, or -1 at the first
	 * dlsym() that fails (dlerror() says which) */
	int (*resolve)(void *h);
	/* gd_dl_open()'s, under its lock */
	int tried;
	char err[512]; /* empty when every function was resolved */
};

/* A member of a library's function table: a pointer of the very type the
 * header declares f with (__typeof__: GCC and clang, also under -std=c11). */
#define GD_DL_MEMBER(f) __typeof__(f) *f;

/* In a resolve function: f from handle h into table t, or return -1.  POSIX
 * (dlsym) lets a data pointer be converted to a function pointer; ISO C
 * leaves it undefined, hence the cast through the member's own type. */
#define GD_DL_RESOLVE(h, t, f)                                                 \
	do {                                                                   \
		void *sym_ = dlsym((h), #f);                                   \
		if (!sym_)                                                     \
			return -1;                                             \
		(t)->f = (__typeof__((t)->f))sym_;                             \
	} while (0);

/* Open l and resolve its functions, once per process (any thread may call
 * it; callers after the first get its outcome).  The library is l->env's
 * value when that is set and not empty (ignored in set-user-ID and
 * file-capability runs, as the dynamic loader ignores LD_PRELOAD there),
 * else l->soname.  0, or -1 with "WHAT needs LABEL: <dlerror()>" in err
 * (n bytes), e.g. "-i needs libpcap: libpcap.so.0.8: cannot open shared
 * object file: No such file or directory". */
int gd_dl_open(struct gd_dl *l, const char *what, char *err, size_t n);

#endif
