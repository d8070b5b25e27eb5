/*
 * managed_static.h - where the managed module's __managed__ array is.
 */
#ifndef HMB_MANAGED_STATIC_H
#define HMB_MANAGED_STATIC_H

#include <stddef.h>
#include <stdint.h>

/* The array (HMB_MANAGED_STATIC_WORDS words), or NULL with the reason in
 * why (the file looked for, and dlerror's word). Call it only with a GPU
 * present: on AMD, loading the array allocates it. */
uint32_t *hmb_managed_static(char *why, size_t len);

/* Where an AMD build looks for the shared object that holds it, in order:
 * next to the binary in lib/ (the build folder, `make portable`), then
 * ../lib/hipmembench/ (`make install`). Writes the i-th path into buf;
 * 0 when there is no i-th. For the tests as well. */
int hmb_managed_static_path(int i, const char *exe, char *buf, size_t len);

#endif
