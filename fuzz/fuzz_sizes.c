/*
 * fuzz_sizes.c - libFuzzer target for the size parser: any text is parsed as
 * one size and as a list; what parses is positive, within the list limit,
 * and prints back ("64M") to text that parses to the same size.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "util/sizes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256], buf[64];
	struct hmb_sizes list;
	size_t one, back;

	memcpy(text, data, size);
	text[size] = '\0';
	if (hmb_parse_size(text, &one, err, sizeof(err)) == 0) {
		REQUIRE(one > 0);
		REQUIRE(hmb_parse_size(hmb_format_size(one, buf, sizeof(buf)), &back, err,
				       sizeof(err)) == 0 && back == one);
	} else {
		REQUIRE(err[0] && printable_line(err));
	}
	if (hmb_parse_sizes(text, &list, err, sizeof(err)) == 0) {
		REQUIRE(list.n >= 1 && list.n <= HMB_MAX_SIZES);
		for (size_t i = 0; i < list.n; i++) {
			REQUIRE(list.v[i] > 0);
			REQUIRE(hmb_parse_size(hmb_format_size(list.v[i], buf, sizeof(buf)), &back,
					       err, sizeof(err)) == 0 && back == list.v[i]);
		}
		REQUIRE(hmb_sizes_max(&list) > 0);
	} else {
		REQUIRE(err[0] && printable_line(err));
	}
	free(text);
	return 0;
}
