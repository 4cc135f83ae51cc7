// SPDX-License-Identifier: BSD-2-Clause
/* unit.c - the runner shared by every unit test program. */
#include <stdlib.h>

#include "unit.h"

unsigned long unit_nchecks;
char unit_ctx[256];

TCase *unit_tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return tc;
}

int unit_run(Suite *s, const char *name)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	if (getenv("VXGBP_UNIT_COUNT"))
		fprintf(stderr, "%s: %d tests, %lu checks executed%s\n",
			name, srunner_ntests_run(sr), unit_nchecks,
			srunner_fork_status(sr) == CK_FORK ? " (in this process; use CK_FORK=no)" : "");
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
