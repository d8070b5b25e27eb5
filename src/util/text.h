/*
 * text.h - outside text (arguments, file names, document strings) made safe
 * to show: one printable line for stderr, valid UTF-8 for JSON; a number for
 * people.
 */
#ifndef HMB_TEXT_H
#define HMB_TEXT_H

#include <stddef.h>

/* Longest piece of outside text shown in a message, in input bytes. */
#define HMB_SHOWN_MAX 160

/* The length of the UTF-8 sequence that starts s (n bytes available): 1 to
 * 4, or 0 where s does not start a valid, shortest-form sequence. */
size_t hmb_utf8_seq(const unsigned char *s, size_t n);

/* Copy text into out (outlen > 0 bytes, always terminated) as one printable
 * line: control characters (C0, DEL, C1) and bytes that are not UTF-8 become
 * \xNN, and text beyond max input bytes ends in "...".
 * Returns out. */
char *hmb_printable(const char *text, size_t max, char *out, size_t outlen);

/* hmb_printable into one of a few rotating static buffers, for messages:
 * valid until the eighth call after it. NULL shows as "(null)". */
const char *hmb_shown(const char *text);

/* Cut off an incomplete UTF-8 sequence that truncation (snprintf into a
 * full buffer) left at the end of s. */
void hmb_utf8_trim(char *s);

/* A copy of text (caller frees) that is valid UTF-8: every byte that does
 * not belong to a valid sequence becomes U+FFFD. */
char *hmb_utf8_valid(const char *text);

/* A number for people: whole numbers as integers (1048576, not 1.04858e+06),
 * others in %g. */
const char *hmb_number_text(double v, char *buf, size_t len);

#endif
