/* gpus_here.c - what a run asks of the GPUs, against the GPUs here (gpus_here.h). */
#include "cli/gpus_here.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "platform/hip.h"
#include "util/nearest.h"
#include "util/sizes.h"
#include "util/text.h"

#define MAX_LISTED 64

int hmb_gpus_here_check(const struct hmb_options *o, char *err, size_t errlen)
{
	int list[MAX_LISTED], n = 0, highest = o->device, count = 0, all;
	char there[1024] = { 0 }, text[64];
	size_t largest = hmb_sizes_max(&o->sizes);

	all = o->devices && strcmp(o->devices, "all") == 0;
	if (o->devices && !all)
		n = hmb_parse_device_list(o->devices, list, MAX_LISTED);
	for (int i = 0; i < n; i++)
		highest = list[i] > highest ? list[i] : highest;
	/* GPU 0 is there wherever a GPU is: the runtime need not be asked */
	if ((highest <= 0 && !o->sizes.n) || hipGetDeviceCount(&count) != hipSuccess || count < 1)
		return 0;
	for (int g = 0; g < count && g < (int)sizeof(there); g++)
		there[g] = 1;
	hmb_numbers_text(there, (int)sizeof(there), text, sizeof(text));
	for (int i = 0; i < n; i++)
		if (list[i] >= count) {
			snprintf(err, errlen, "--devices %s: there is no GPU %d here (GPUs here: %s)",
				 hmb_shown(o->devices), list[i], text);
			return -1;
		}
	if (!o->devices && o->device >= count) {
		snprintf(err, errlen, "--device %d: there is no GPU %d here (GPUs here: %s)",
			 o->device, o->device, text);
		return -1;
	}
	if (!n && !all) {
		list[n++] = o->device;
	} else if (all) {
		for (int g = 0; g < count && g < MAX_LISTED; g++)
			list[g] = g;
		n = count < MAX_LISTED ? count : MAX_LISTED;
	}
	for (int i = 0; i < n && o->sizes.n; i++) {
		size_t total = 0;
		if (hipDeviceTotalMem(&total, list[i]) == hipSuccess && total && largest > total) {
			snprintf(err, errlen, "--sizes: %s is larger than the device's memory (GPU %d: "
				 "%.1f GiB)", hmb_sz(largest), list[i], (double)total / (1 << 30));
			return -1;
		}
	}
	return 0;
}
