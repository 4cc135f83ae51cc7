/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * run.h - one gbpdump run, from parsed options (options.h) to the exit
 * status: a capture read (files, -r DIR, a live interface) or --merge.
 */
#ifndef GBPDUMP_RUN_H
#define GBPDUMP_RUN_H

#include "options.h"

/* Everything o asks for; the exit status (gbpdump(1), EXIT STATUS). */
int run_main(struct opts *o);

#endif /* GBPDUMP_RUN_H */
