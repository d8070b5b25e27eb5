/*
 * rocmguide.h - the ROCm unified-memory guide's table (HIP documentation,
 * "Unified memory management": what each allocator gives without HMM or with
 * HSA_XNACK=0, and with HMM and HSA_XNACK=1) as expectations that the xnack
 * and managed records of an AMD run are checked against. A record that ran
 * in a known mode (params.hsa_xnack, modeplan.h) and contradicts its row gets
 * observed.rocm_guide "disagrees with the ROCm guide: ..." and a warning;
 * one that fits gets "agrees: ...". docs/amd.md has the table with what
 * hipmembench records for each row.
 */
#ifndef HMB_ROCMGUIDE_H
#define HMB_ROCMGUIDE_H

#include <stddef.h>
#include <stdio.h>

#include "engine/record.h"
#include "engine/report.h"

enum hmb_guide_alloc {
	HMB_GUIDE_SYSTEM,          /* new, malloc() */
	HMB_GUIDE_HIP_MALLOC,      /* hipMalloc() */
	HMB_GUIDE_MANAGED,         /* hipMallocManaged(), __managed__ */
	HMB_GUIDE_HOST_REGISTER,   /* hipHostRegister() */
	HMB_GUIDE_HOST_MALLOC,     /* hipHostMalloc() */
	HMB_GUIDE_COUNT
};

struct hmb_guide_row {
	const char *call;
	const char *origin[2];     /* [0] without HMM or HSA_XNACK=0, [1] with HMM and HSA_XNACK=1 */
	const char *access[2];     /* access outside the origin, likewise */
	const char *recorded;      /* what hipmembench records for the row */
};

const struct hmb_guide_row *hmb_guide_row(enum hmb_guide_alloc a);
/* The allocator a record of the xnack or managed module measures; -1 none. */
int hmb_guide_alloc_of(const struct hmb_record *r);
/* One record against its row: 1 and why when it disagrees, 0 and why when
 * it agrees, -1 where there is nothing to check (no mode recorded, another
 * module, an APU whose one memory the table does not describe). */
int hmb_guide_check(const struct hmb_record *r, char *why, size_t len);
/* The managed module's measured migration: on-demand/second-kernel against
 * prefetch/kernel-after-prefetch of the same size and mode. Pages that
 * migrated on the first kernel's faults make the second kernel run at
 * device-memory speed (ratio near 1); pages left in host memory keep it
 * reading over the link. 1 disagrees, 0 agrees, -1 no verdict. */
int hmb_guide_check_migration(const struct hmb_record *second,
			      const struct hmb_record *after_prefetch, char *why, size_t len);
/* Every record of rep that ran in a known mode: observed.rocm_guide, and a
 * warning on out for each disagreement. Returns how many disagree. */
int hmb_guide_check_report(struct hmb_report *rep, FILE *out);

#endif
