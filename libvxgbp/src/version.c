// SPDX-License-Identifier: BSD-2-Clause
/*
 * version.c - the library's own version, for callers that were built
 * against another header than the library they load.
 */
#include <vxgbp/vxgbp.h>

/* CMake passes project()'s version (libvxgbp/CMakeLists.txt, which checks
 * the header at configure time too): the header must say the same. */
#ifdef VXGBP_PROJECT_VERSION_MAJOR
#if VXGBP_VERSION_MAJOR != VXGBP_PROJECT_VERSION_MAJOR || \
	VXGBP_VERSION_MINOR != VXGBP_PROJECT_VERSION_MINOR || \
	VXGBP_VERSION_PATCH != VXGBP_PROJECT_VERSION_PATCH
#error "vxgbp.h's VXGBP_VERSION_* differ from project(vxgbp VERSION ...): change both"
#endif
#endif

const char *vxgbp_version(void)
{
	return VXGBP_VERSION;
}
