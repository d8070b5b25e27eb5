/* version.h - the tool's version; the git revision comes from the build's
 * generated revision.h (the Makefile writes it), else "unknown". */
#ifndef HMB_VERSION_H
#define HMB_VERSION_H

#define HMB_VERSION "0.2.0"

#if defined(__has_include)
#if __has_include("revision.h")
#include "revision.h"
#endif
#endif
#ifndef HMB_GIT_REVISION
#define HMB_GIT_REVISION "unknown"
#endif

#endif
