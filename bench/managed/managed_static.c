/*
 * managed_static.c - finds the __managed__ array of kernels/managed_static.hip.
 * NVIDIA builds link it in. AMD builds keep it in a shared object opened here,
 * the first time the case asks for it, because the HIP runtime allocates a
 * __managed__ variable when its code is registered and aborts the process
 * where that fails: linked in, it would stop any run on a machine without a
 * GPU before main.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/managed/managed_static.h"
#include "kernels/kernels.h"

int hmb_managed_static_path(int i, const char *exe, char *buf, size_t len)
{
	static const char *const dirs[] = { "lib", "../lib/hipmembench" };
	const char *slash = strrchr(exe, '/');
	int dir_len = slash ? (int)(slash - exe) : 1;
	int n;

	if (i < 0 || i >= (int)(sizeof(dirs) / sizeof(dirs[0])))
		return 0;
	n = snprintf(buf, len, "%.*s/%s/%s", dir_len, slash ? exe : ".", dirs[i],
		     HMB_MANAGED_STATIC_LIB);
	return n > 0 && (size_t)n < len;
}

#if defined(HMB_PLATFORM_NVIDIA)
uint32_t *hmb_managed_static(char *why, size_t len)
{
	uint32_t *array = hmb_managed_static_array();
	if (!array)
		snprintf(why, len, "the __managed__ array could not be allocated");
	return array;
}
#else
uint32_t *hmb_managed_static(char *why, size_t len)
{
	static uint32_t *array;
	char exe[4096], path[4200], tried[8600] = "";
	ssize_t n;

	if (array)
		return array;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(why, len, "cannot find the binary's folder (readlink /proc/self/exe)");
		return NULL;
	}
	exe[n] = '\0';
	for (int i = 0; hmb_managed_static_path(i, exe, path, sizeof(path)); i++) {
		void *lib;
		uint32_t *(*get)(void);

		if (access(path, R_OK) != 0) {
			snprintf(tried + strlen(tried), sizeof(tried) - strlen(tried), "%s%s",
				 *tried ? ", " : "", path);
			continue;
		}
		/* Kept open for the life of the process: the runtime owns the array. */
		if (!(lib = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
			snprintf(why, len, "dlopen %s: %s", path, dlerror());
			return NULL;
		}
		*(void **)&get = dlsym(lib, "hmb_managed_static_array");
		if (!get) {
			snprintf(why, len, "%s has no hmb_managed_static_array", path);
			return NULL;
		}
		return array = get();
	}
	snprintf(why, len, "the shared object that holds the __managed__ array is missing "
		 "(looked for %s; `make` builds it, `make install` installs it)", tried);
	return NULL;
}
#endif
