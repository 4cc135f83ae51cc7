// SPDX-License-Identifier: BSD-2-Clause
/*
 * version.c - the library's own version, for callers that were built
 * against another header than the library they load.
 */
#include <vxgbp/vxgbp.h>

const char *vxgbp_version(void)
{
	return VXGBP_VERSION;
}
