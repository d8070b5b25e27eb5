/*
 * vmm_share.h - between the vmm module's share cases (vmm_share.c) and the
 * importer process they start (vmm_importer.c): the messages on their
 * socket and the importer's life as the module sees it.
 */
#ifndef HMB_BENCH_VMM_SHARE_H
#define HMB_BENCH_VMM_SHARE_H

#include <stdint.h>
#include <sys/types.h>

#include "bench/vmm/vmm.h"
#include "bench/vmm/vmm_importer.h"

#if HMB_HAVE_VMM

#define SHARE_MAGIC 0x564d4d53u     /* "VMMS" */
#define ROUND_TIMEOUT_MS 60000
#define SEED_OUT 0x5a5a0000u        /* the importer's pattern: the round's seed + this */

enum req_op { REQ_HELLO, REQ_ROUND, REQ_QUIT };

/* This process to the importer; a round's carries the descriptor. */
struct share_req {
	uint32_t magic;
	int32_t op;
	int32_t device;
	uint32_t seed_in;           /* the pattern the chunk holds */
	uint32_t seed_out;          /* the pattern the importer writes */
	uint64_t size;
};

/* The importer's answer. */
struct share_reply {
	uint32_t magic;
	int32_t ok;                 /* 0: why says which call failed */
	double import_s, map_access_s;
	uint64_t bad_words;         /* of seed_in, as the importer read them */
	char why[480];
};

/* The importer as the module holds it. */
struct importer {
	pid_t pid;                  /* 0: none */
	int sock;                   /* -1: none */
};

/* Start `hipmembench __vmm-importer` on one end of a socket pair and wait
 * until it has opened the device (its time in *start_s). 0, or -1 with the
 * pending error; stop it on either path. */
int importer_start(struct importer *im, int device, double *start_s);
/* A request (a round's carries fd, which stays the caller's to close) and
 * its answer within timeout_ms. 0, or -1 with the pending error: the
 * importer's own reason, or how it ended where it is gone (then reaped). */
int importer_ask(struct importer *im, const struct share_req *q, int fd, struct share_reply *rep,
		 int timeout_ms);
/* Ask it to end, wait 10 s at most, then kill it; it is reaped in any case. */
void importer_stop(struct importer *im);

#endif

#endif
