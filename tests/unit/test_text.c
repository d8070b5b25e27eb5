/* test_text.c - outside text made safe to show (src/util/text.c): which bytes
 * start a valid UTF-8 sequence, and what a printable line makes of the rest. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "util/text.h"

static size_t seq(const char *s, size_t n)
{
	return hmb_utf8_seq((const unsigned char *)s, n);
}

/* Valid sequences of each length; broken ones, each byte of them wrong in turn:
 * a continuation missing or out of range, overlong forms, surrogates, beyond
 * U+10FFFF, or cut short. */
static void test_utf8_seq(void)
{
	CHECK(seq("A", 1) == 1);
	CHECK(seq("\xc3\xa9", 2) == 2);          /* é */
	CHECK(seq("\xe2\x82\xac", 3) == 3);      /* € */
	CHECK(seq("\xf0\x9f\x98\x80", 4) == 4);  /* U+1F600 */
	CHECK(seq("\xf4\x8f\xbf\xbf", 4) == 4);  /* U+10FFFF */
	CHECK(seq("\xc3\x41", 2) == 0);
	CHECK(seq("\xc1\xa9", 2) == 0);          /* overlong */
	CHECK(seq("\xc3", 1) == 0);              /* cut short */
	CHECK(seq("\xe2\x41\xac", 3) == 0);
	CHECK(seq("\xe2\x82\x41", 3) == 0);
	CHECK(seq("\xe0\x80\x80", 3) == 0);      /* overlong */
	CHECK(seq("\xed\xa0\x80", 3) == 0);      /* a surrogate */
	CHECK(seq("\xe2\x82", 2) == 0);
	CHECK(seq("\xf0\x41\x98\x80", 4) == 0);
	CHECK(seq("\xf0\x9f\x41\x80", 4) == 0);
	CHECK(seq("\xf0\x9f\x98\x41", 4) == 0);
	CHECK(seq("\xf0\x80\x80\x80", 4) == 0);  /* overlong */
	CHECK(seq("\xf4\x90\x80\x80", 4) == 0);  /* beyond U+10FFFF */
	CHECK(seq("\xf5\x80\x80\x80", 4) == 0);
	CHECK(seq("\xf0\x9f\x98", 3) == 0);
	CHECK(seq("\x80", 1) == 0);              /* a continuation alone */
}

/* A printable line: valid characters kept, control characters and every byte of a
 * broken sequence as \xNN, so that what is shown is valid UTF-8. */
static void test_printable(void)
{
	char out[128];

	CHECK(!strcmp(hmb_printable("caf\xc3\xa9 \xe2\x82\xac", 64, out, sizeof(out)),
		      "caf\xc3\xa9 \xe2\x82\xac"));
	CHECK(!strcmp(hmb_printable("a\xf0\x9f\x98" "A", 64, out, sizeof(out)),
		      "a\\xf0\\x9f\\x98A"));
	CHECK(!strcmp(hmb_printable("a\xe2\x82" "A", 64, out, sizeof(out)), "a\\xe2\\x82A"));
	CHECK(!strcmp(hmb_printable("tab\there\x1b[0m", 64, out, sizeof(out)),
		      "tab\\x09here\\x1b[0m"));
	CHECK(!strcmp(hmb_printable("\xc2\x85", 64, out, sizeof(out)), "\\xc2\\x85")); /* C1 */
	CHECK(!strcmp(hmb_printable("abcdef", 3, out, sizeof(out)), "abc..."));
}

void hmb_test_text(void)
{
	test_utf8_seq();
	test_printable();
}
