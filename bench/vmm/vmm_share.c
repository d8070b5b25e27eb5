/*
 * vmm_share.c - handing VMM memory to another process as a POSIX file
 * descriptor, for the vmm module (vmm.c).
 *
 * This process makes one chunk of --share-size (64M) with hipMemCreate,
 * asking for a file-descriptor handle, maps it and fills it with a pattern.
 * Its importer is this binary started again (`hipmembench __vmm-importer`,
 * an internal mode that refuses to run by hand; vmm_importer.c), which
 * opens the same GPU.
 * A round: the chunk is exported (hipMemExportToShareableHandle), the
 * descriptor goes to the importer over a unix socket (SCM_RIGHTS), which
 * imports it (hipMemImportFromShareableHandle), reserves an address range,
 * maps it and sets access, checks the exporter's pattern, writes its own,
 * unmaps and releases it, and answers with its timings and the words it
 * found wrong; then this process checks the importer's pattern in its own
 * mapping. Every round is checked both ways, outside the timed region.
 *   share/posix-fd/export      hipMemExportToShareableHandle (host clock)
 *   share/posix-fd/import      hipMemImportFromShareableHandle in the importer
 *   share/posix-fd/map-access  hipMemAddressReserve + hipMemMap + hipMemSetAccess
 *                              in the importer (both timed there, on its host
 *                              clock, and reported back: params.clock says so)
 *   share/posix-fd/round-trip  the whole round from this process: export,
 *                              send, everything the importer does, its answer
 * Starting the importer (its HIP initialisation included) is not timed: one
 * importer serves every case of the run, and each record observes the time
 * that one start took as importer_start_s (the same number in each: do not
 * add them up). Where the device cannot
 * export file descriptors, one record says "unsupported" and why.
 *
 * The importer is reaped on every path (vmm_importer.c). Every descriptor
 * exported here is closed once sent (the socket holds its own reference in
 * flight); the importer closes what it received once imported.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench/vmm/vmm_share.h"
#include "engine/verify.h"
#include "kernels/kernels.h"

#if HMB_HAVE_VMM

/* ---- the cases ---- */

enum share_case { SH_EXPORT, SH_IMPORT, SH_MAP_ACCESS, SH_ROUND_TRIP, NSHARE };
static const char *const share_name[] = { "share/posix-fd/export", "share/posix-fd/import",
					  "share/posix-fd/map-access",
					  "share/posix-fd/round-trip" };
static const char *const share_what[] = {
	"hipMemExportToShareableHandle of the chunk as a POSIX file descriptor",
	"hipMemImportFromShareableHandle of the descriptor, in the importer process",
	"hipMemAddressReserve + hipMemMap + hipMemSetAccess (device read-write) of the imported "
	"chunk, in the importer process",
	"hipMemExportToShareableHandle, the descriptor sent over a unix socket; in the importer: "
	"import, reserve, map, set access, a check kernel reading this process's pattern, a fill "
	"kernel writing its own, hipDeviceSynchronize, unmap, address free, release; its answer "
	"received",
};

struct share {
	enum share_case k;
	struct importer *im;
	int device;
	size_t size;
	hipMemGenericAllocationHandle_t h;   /* this process's chunk, mapped at p */
	void *p;
	uint32_t seed;              /* the round's pattern; the importer's is seed + SEED_OUT */
	int fd;                     /* exported, not yet sent: -1 */
	int pending;                /* a round whose importer pattern is not checked yet */
	int rounds;
};

/* Untimed: the chunk holds a new pattern for the next round. */
static int fill_chunk(struct share *s)
{
	s->seed++;
	HMB_TRY(hmb_launch_fill(s->p, 0, s->size / 4, s->seed, 0));
	HMB_TRY(hipDeviceSynchronize());
	return 0;
}

static int export_fd(struct share *s)
{
	int fd = -1;
	HMB_TRY(hipMemExportToShareableHandle(&fd, s->h, hipMemHandleTypePosixFileDescriptor, 0));
	s->fd = fd;
	return 0;
}

/* Send the exported descriptor (closed here, sent or not); the importer
 * checks this round's pattern and writes its own. */
static int exchange(struct share *s, struct share_reply *rep)
{
	struct share_req q = { SHARE_MAGIC, REQ_ROUND, s->device, s->seed, s->seed + SEED_OUT,
			       s->size };
	int fd = s->fd, rc;

	s->fd = -1;
	rc = importer_ask(s->im, &q, fd, rep, ROUND_TIMEOUT_MS);
	if (fd >= 0)
		close(fd);
	if (rc)
		return -1;
	s->rounds++;
	s->pending = 1;
	if (rep->bad_words) {
		hmb_set_error("verification failed: the importer read %llu words of this process's "
			      "pattern wrong", (unsigned long long)rep->bad_words);
		return -1;
	}
	return 0;
}

/* The importer's pattern, read through this process's own mapping. */
static int check_importer_pattern(struct share *s)
{
	unsigned long long bad = 0;

	if (!s->pending)
		return 0;
	s->pending = 0;
	HMB_TRY(hmb_check_device(s->p, 0, s->size, s->seed + SEED_OUT, 0, &bad));
	return hmb_verify_result(bad, "words of what the importer wrote read back wrong in "
				 "this process");
}

/* Before each sample: the last round checked, a new pattern; export: the
 * previous sample's descriptor goes through a round first. */
static int share_prepare(struct hmb_ctx *ctx, void *st, int sample)
{
	struct share *s = st;
	struct share_reply rep;

	(void)ctx;
	(void)sample;
	if (s->fd >= 0 && exchange(s, &rep))
		return -1;
	return check_importer_pattern(s) || fill_chunk(s) ? -1 : 0;
}

static int share_op(struct hmb_ctx *ctx, void *st, hipStream_t stream, long i)
{
	struct share *s = st;
	struct share_reply rep;

	(void)ctx;
	(void)stream;
	(void)i;
	if (export_fd(s))
		return -1;
	if (s->k == SH_EXPORT)
		return 0;
	if (exchange(s, &rep))
		return -1;
	if (s->k == SH_IMPORT)
		hmb_op_seconds(rep.import_s);
	else if (s->k == SH_MAP_ACCESS)
		hmb_op_seconds(rep.map_access_s);
	return 0;
}

static int share_verify(struct hmb_ctx *ctx, void *st)
{
	struct share *s = st;
	struct share_reply rep;

	(void)ctx;
	if (s->fd >= 0 && exchange(s, &rep))
		return -1;
	return check_importer_pattern(s);
}

static void share_teardown(struct hmb_ctx *ctx, void *st)
{
	struct share *s = st;
	(void)ctx;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->pending = 0;
}

/* This process's chunk: made with a file-descriptor handle, mapped, usable. */
struct chunk_state {
	hipMemGenericAllocationHandle_t h;
	void *p;
	size_t size;
	int have_h, have_p, mapped;
};

/* A failed call is the pending error, and its code the return value: HIP
 * says "cannot export here" by hipErrorNotSupported. */
#define CHUNK_CALL(call)                                                    \
	do {                                                                \
		hipError_t e_ = HMB_HIP_CALL(call);                         \
		if (e_ != hipSuccess)                                       \
			return e_;                                          \
	} while (0)

/* Made, mapped, filled with the first pattern and exported once (the
 * descriptor closed at once): the device can share it. */
static hipError_t make_chunk(struct chunk_state *c, int device, size_t want)
{
	hipMemAllocationProp prop;
	hipMemAccessDesc access;
	size_t gran = 0;
	int fd = -1;

	memset(&prop, 0, sizeof(prop));
	prop.type = hipMemAllocationTypePinned;
	prop.location.type = hipMemLocationTypeDevice;
	prop.location.id = device;
#if defined(HMB_PLATFORM_NVIDIA)
	prop.requestedHandleTypes = hipMemHandleTypePosixFileDescriptor;
#else
	prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
#endif
	memset(&access, 0, sizeof(access));
	access.location = prop.location;
	access.flags = hipMemAccessFlagsProtReadWrite;
	CHUNK_CALL(hipMemGetAllocationGranularity(&gran, &prop,
						  hipMemAllocationGranularityMinimum));
	c->size = vmm_round_up(want ? want : 1, gran ? gran : 2u << 20);
	CHUNK_CALL(hipMemCreate(&c->h, c->size, &prop, 0));
	c->have_h = 1;
	CHUNK_CALL(hipMemAddressReserve(&c->p, c->size, 0, NULL, 0));
	c->have_p = 1;
	CHUNK_CALL(hipMemMap(c->p, c->size, 0, c->h, 0));
	c->mapped = 1;
	CHUNK_CALL(hipMemSetAccess(c->p, c->size, &access, 1));
	CHUNK_CALL(hmb_launch_fill(c->p, 0, c->size / 4, VMM_SEED, 0));
	CHUNK_CALL(hipDeviceSynchronize());
	CHUNK_CALL(hipMemExportToShareableHandle(&fd, c->h, hipMemHandleTypePosixFileDescriptor,
						 0));
	close(fd);
	return hipSuccess;
}

static void free_chunk(struct chunk_state *c)
{
	(void)hipDeviceSynchronize();
	if (c->mapped)
		(void)hipMemUnmap(c->p, c->size);
	if (c->have_p)
		(void)hipMemAddressFree(c->p, c->size);
	if (c->have_h)
		(void)hipMemRelease(c->h);
	(void)hipGetLastError();
	memset(c, 0, sizeof(*c));
}

/* Can the device export a chunk as a file descriptor? 1, or 0 with why. */
static int fd_handles(int device, char *why, size_t len)
{
#if defined(HMB_PLATFORM_NVIDIA)
	int v = 0;
	hipError_t e = hipDeviceGetAttribute(&v, HMB_ATTR_POSIX_FD_HANDLES, device);
	if (e != hipSuccess) {
		snprintf(why, len, "the driver does not say whether the device can export POSIX "
			 "file descriptors: cuDeviceGetAttribute(HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_"
			 "SUPPORTED): %s", hipGetErrorString(e));
		return 0;
	}
	if (!v) {
		snprintf(why, len, "the device cannot export memory as a POSIX file descriptor "
			 "(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED = 0)");
		return 0;
	}
#else
	/* HIP has no attribute for it: the export itself says (see vmm_share) */
	(void)device;
	(void)why;
	(void)len;
#endif
	return 1;
}

static void share_case(struct hmb_ctx *ctx, struct importer *im, struct chunk_state *c,
		       enum share_case k, double start_s, const char *start_fail)
{
	struct hmb_record *r = hmb_case_record(ctx, "%s", share_name[k]);
	struct share s;
	struct hmb_case hc = {
		.what = share_what[k],
		.timing = { .clock = k == SH_IMPORT || k == SH_MAP_ACCESS ? HMB_CLOCK_REPORTED
									  : HMB_CLOCK_HOST,
			    .sync = HMB_SYNC_NONE, .reps = 10, .warmup = 1 },
		.ops = { NULL, share_prepare, share_op, share_verify, share_teardown },
		.state = &s,
	};

	memset(&s, 0, sizeof(s));
	s.k = k;
	s.im = im;
	s.device = ctx->dev->ordinal;
	s.size = c->size;
	s.h = c->h;
	s.p = c->p;
	s.seed = VMM_SEED + 0x100u * (uint32_t)k;
	s.fd = -1;
	hmb_param_num(r, "size", (double)c->size);
	hmb_param_str(r, "handle_type", "posix-fd");
	hmb_param_str(r, "importer", "this binary in a second process, on the same GPU; the "
		      "descriptor passed over a unix socket (SCM_RIGHTS)");
	hmb_context_str(r, "untimed_before_each_sample", k == SH_EXPORT ?
			"the previous sample's descriptor sent through a whole round, both "
			"patterns checked; the chunk filled with a new pattern" :
			"the previous round's importer pattern checked; the chunk filled with a "
			"new pattern");
	hmb_context_str(r, "verification", "every round: the importer checks this process's "
			"pattern and writes its own, which this process checks");
	if (start_fail) {
		hmb_record_status(r, HMB_FAILED, "%s", start_fail);
		hmb_commit(ctx, r);
		return;
	}
	hmb_observe_num(r, "importer_start_s", start_s);
	if (hmb_measure(ctx, r, &hc) == 0) {
		hmb_observe_num(r, "rounds", s.rounds);
		hmb_observe_bool(r, "importer_verified", s.rounds > 0);
		hmb_observe_bool(r, "exporter_verified", s.rounds > 0);
	}
	hmb_commit(ctx, r);
}

void vmm_share(struct hmb_ctx *ctx, size_t size)
{
	struct importer im = { 0, -1 };
	struct chunk_state c;
	char why[1100] = "";
	const char *first = NULL, *start_fail = NULL;
	double start_s = 0;
	hipError_t e;

	for (int k = 0; k < NSHARE && !first; k++)
		if (hmb_selected(ctx, share_name[k]))
			first = share_name[k];
	if (!first)
		return;
	memset(&c, 0, sizeof(c));
	if (!fd_handles(ctx->dev->ordinal, why, sizeof(why))) {
		struct hmb_record *r = hmb_case_record(ctx, "%s", first);
		hmb_record_status(r, HMB_UNSUPPORTED, "%s", why);
		hmb_commit(ctx, r);
		return;
	}
	hmb_clear_error();
	e = make_chunk(&c, ctx->dev->ordinal, size);
	if (e == hipErrorNotSupported) {
		struct hmb_record *r = hmb_case_record(ctx, "%s", first);
		hmb_record_status(r, HMB_UNSUPPORTED, "chunks cannot be shared as POSIX file "
				  "descriptors here: %s", hmb_take_error(why, sizeof(why)));
		hmb_commit(ctx, r);
		free_chunk(&c);
		return;
	}
	if (e != hipSuccess)
		start_fail = hmb_take_error(why, sizeof(why));
	if (!start_fail && importer_start(&im, ctx->dev->ordinal, &start_s) != 0)
		start_fail = hmb_take_error(why, sizeof(why));
	for (int k = 0; k < NSHARE && !hmb_interrupted(); k++)
		if (hmb_selected(ctx, share_name[k]))
			share_case(ctx, &im, &c, (enum share_case)k, start_s, start_fail);
	importer_stop(&im);
	free_chunk(&c);
}

#endif
