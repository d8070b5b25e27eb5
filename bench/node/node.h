/*
 * node.h - what the parts of the node module share: every GPU's streams and
 * buffers, the placement of its host memory, the peer access the module
 * turned on, and one way to time work spread over several GPUs.
 *
 * The engine times on the context's stream (the first GPU's). A case here is
 * a list of transfers, each on a stream of the GPU that runs it: the op
 * records a fork event on the timing stream, every stream used waits for it,
 * takes its transfer and records a join event, and the timing stream waits
 * for the joins. Behind the engine's latch, every GPU starts together; the
 * sample ends when the last transfer (or the one GPU's, for "in-all") ends.
 */
#ifndef HMB_BENCH_NODE_H
#define HMB_BENCH_NODE_H

#include <stdint.h>

#include "engine/module.h"
#include "system/numa_place.h"
#include "system/topology.h"

#define NODE_MAX HMB_TOPO_MAX_GPUS
#define SEED_DEV(g) (0x4e0000u + (uint32_t)(g))   /* a GPU's source data */
#define SEED_HOST(g) (0x4e1000u + (uint32_t)(g))  /* a GPU's host source data */
#define SEED_POISON 0x4e2badu                      /* destinations before a case */

struct node_gpu {
	int ord;
	hipStream_t s[2];          /* lane 0; lane 1 for the second direction of a GPU */
	hipEvent_t join[2];
	uint8_t *src;              /* copy size, SEED_DEV */
	uint8_t *dst;              /* (GPUs - 1) slots of copy size: what the others send */
	uint32_t *chain;           /* the chase chain in its memory */
	uint32_t *pos;             /* where its chase stands */
	unsigned long long *bad;   /* words found wrong by a check */
	struct hmb_host_buf hsrc, hdst, hchain; /* host memory of the placement in use */
	int host_node;             /* where hsrc and hdst are (-1 unknown or split) */
	char host_pages[32];       /* "64/64": sampled pages found there */
	struct hmb_placement local, remote;
	int has_remote;
};

struct node {
	struct hmb_ctx *ctx;
	int n;                     /* GPUs used */
	int home;                  /* the context's device */
	struct node_gpu g[NODE_MAX];
	hipEvent_t fork;           /* on home */
	size_t size;               /* one copy */
	size_t stride, slots;      /* the chase chain: slot spacing, slots */
	long long loads;           /* dependent loads per sample */
	uint32_t *next;            /* the chain on the host: next[slot] */
	struct hmb_topology topo;
	struct hmb_numa_host numa;
	int have_numa;
	struct hmb_idset allowed;  /* the thread's CPUs when the module began */
	int peer_on[NODE_MAX][NODE_MAX];       /* this module enabled row -> column */
	char peer_why[NODE_MAX][NODE_MAX][200]; /* why enabling failed */
};

enum xfer_kind { X_PEER, X_H2D, X_D2H, X_KERNEL, X_CHASE };

struct xfer {
	int gpu, lane;             /* the stream that runs it */
	enum xfer_kind kind;
	void *dst;                 /* X_CHASE: the reader's position word */
	const void *src;           /* X_CHASE: the chain */
	int dst_gpu, src_gpu;      /* X_PEER; X_CHASE: src_gpu holds the chain, -1 the host */
	size_t bytes;
	int check_gpu;             /* -1: nothing to check */
	void *check;               /* the destination as check_gpu addresses it */
	uint32_t seed;             /* what it must hold afterwards */
};

struct multi {
	struct node *nd;
	struct xfer x[2 * NODE_MAX];
	int nx;
	int wait_for;              /* -1: the sample waits for every GPU; else for this one */
	long ops;                  /* operations made: where the chase must stand */
};

/* node_multi.c: measure a case of transfers into r (not committed: the
 * caller adds its metrics, then commits); returns the median (s), or -1 when
 * it did not measure. latch: queue the samples behind the engine's latch
 * (not for copies the runtime may stage on the host). */
double node_measure(struct node *nd, struct hmb_record *r, struct multi *m, const char *what,
		    int latch);
/* The reference loop beside it: m's one transfer, which runs on the home
 * GPU, per_sample times back to back on the timing stream itself between
 * the engine's two events: no fork, no join, no latch (the classic
 * bandwidth test's loop); checked as node_measure's are. */
double node_reference(struct node *nd, struct hmb_record *r, struct multi *m, const char *what,
		      int per_sample);
/* A record of this module, with its GPU parameters (-1: none). */
struct hmb_record *node_record(struct node *nd, const char *name, int src, int dst);
/* Is a case of this name selected (--case)? Of any name starting with prefix? */
int node_sel(struct node *nd, const char *name);
int node_sel_prefix(struct node *nd, const char *prefix);
/* A committed "unsupported" record. */
void node_unsupported(struct node *nd, const char *name, const char *why);
/* Synchronise every GPU; the current device is home afterwards. */
int node_sync_all(struct node *nd);
/* Where the chain stands after `steps` loads from slot 0. */
uint32_t node_chain_walk(const struct node *nd, long long steps);
/* Check what the transfers of m left at their destinations (each on its
 * check_gpu, all GPUs at once); the error names the GPU and `what`. */
int node_check(struct node *nd, const struct multi *m, const char *what);
/* GPU gi's count of wrong words: zeroed on its lane 0 (before checks queued
 * there), read once lane 0 is done. The current device is gi's afterwards. */
int node_bad_reset(struct node *nd, int gi);
int node_bad_read(struct node *nd, int gi, unsigned long long *bad);
/* The chain as the chase kernel reads it (slots x stride bytes at out). */
void node_chain_layout(const struct node *nd, void *out);
/* Bytes of each GPU's receive buffer (a slot per other GPU). */
size_t node_dst_bytes(const struct node *nd);
/* node_tables.c: the topology and the pairwise figures as matrices (rows
 * source, columns destination), from the module's records first up to end
 * (NULL: the last), printed after its table; nothing where there are none. */
void node_tables_print(FILE *out, const struct hmb_record *first, const struct hmb_record *end);
/* One of those matrices (kase as printed: "p2p/ce/write", ...; p2p/latency's
 * diagonal from device/latency) into v; the GPUs of the topology the module
 * recorded, or 0 where it recorded none or the case has no figure. */
int node_matrix(const struct hmb_record *first, const struct hmb_record *end, const char *kase,
		double (*v)[HMB_TOPO_MAX_GPUS]);
/* node_findings.c: what the figures say together (host copies that do not
 * scale with the GPUs, peer pairs and GPUs far below the others), a line
 * each into lines, up to max; how many. */
int node_findings(const struct hmb_record *head, double link_gbps,
		  char (*lines)[HMB_FINDING_LEN], int max);
/* GB/s of a record's median, or 0. */
double node_gbps(const struct hmb_record *r);

/* The parts: host memory (node_host.c), peers (node_p2p.c), what peer access
 * costs (node_cost.c). Each commits its records; returns 0, or -1 when the
 * module cannot go on. */
int node_host(struct node *nd);
int node_p2p_disabled(struct node *nd);
int node_peer_enable(struct node *nd);
void node_peer_disable(struct node *nd);
int node_p2p_enabled(struct node *nd);
int node_cost_before(struct node *nd);
int node_cost_after(struct node *nd);

#endif
