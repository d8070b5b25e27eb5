/* version.h - the tool's version; the git revision comes from the Makefile. */
#ifndef HMB_VERSION_H
#define HMB_VERSION_H

#define HMB_VERSION "0.1.0"
#ifndef HMB_GIT_REVISION
#define HMB_GIT_REVISION "unknown"
#endif

#endif
