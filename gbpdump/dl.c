// SPDX-License-Identifier: BSD-2-Clause
/* dl.c - shared libraries opened at their first use (see dl.h). */
#define _GNU_SOURCE /* secure_getenv() */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dl.h"

/* One lock for every library: they are opened a few times a run at most. */
static pthread_mutex_t dl_lock = PTHREAD_MUTEX_INITIALIZER;

/* l opened and resolved, or the reason in l->err.  Under dl_lock. */
static void load(struct gd_dl *l)
{
	const char *name = l->env ? secure_getenv(l->env) : NULL;
	const char *e;
	void *h;

	if (!name || !*name)
		name = l->soname;
	/* RTLD_NOW: a library that cannot be bound fails here, not at some
	 * later call */
	if (!(h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
		e = dlerror();
		snprintf(l->err, sizeof(l->err), "%s", e ? e : name);
		return;
	}
	if (l->resolve(h) < 0) {
		e = dlerror();
		snprintf(l->err, sizeof(l->err), "%s", e ? e : "a function is missing");
		dlclose(h);
	}
	/* else the handle stays open for the process's life */
}

int gd_dl_open(struct gd_dl *l, const char *what, char *err, size_t n)
{
	int bad;

	pthread_mutex_lock(&dl_lock);
	if (!l->tried) {
		l->tried = 1;
		load(l);
	}
	bad = l->err[0] != 0;
	pthread_mutex_unlock(&dl_lock);
	if (!bad)
		return 0;
	snprintf(err, n, "%s needs %s: %s", what, l->label, l->err);
	return -1;
}
