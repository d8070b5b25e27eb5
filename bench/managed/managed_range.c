/*
 * managed_range.c - where the runtime says a managed range is, read twice.
 *
 * The singular hipMemRangeGetAttribute, one call per attribute (last
 * prefetch location, preferred location, read-mostly, accessed-by), and the
 * plural hipMemRangeGetAttributes, one call for the four. Both are kept as
 * observations (the plural ones prefixed "plural_"; accessed_by_device and
 * accessed_by_host say whether that processor is in the accessed-by list)
 * with range_attributes_agree: whether the two said the same. Both read the
 * same state; a disagreement is the runtime's (HIP implements the calls
 * separately), worth knowing before trusting either. A read that fails is
 * named in range_attributes_unread (the others are still kept), and then
 * nothing is compared.
 */
#include <stdio.h>
#include <string.h>

#include "bench/managed/managed.h"

#define BY_SLOTS 8 /* accessed-by: up to 8 processors; -2 (invalid) fills the rest */

/* What one way of reading said; ok[i]: attribute i (enum below) was read. */
enum { A_LAST, A_PREFERRED, A_READ_MOSTLY, A_BY, A_COUNT };
struct range_view {
	int ok[A_COUNT];
	int last, preferred, read_mostly, by[BY_SLOTS];
};

static int all_read(const struct range_view *v)
{
	return v->ok[A_LAST] && v->ok[A_PREFERRED] && v->ok[A_READ_MOSTLY] && v->ok[A_BY];
}

static int accessed_by(const struct range_view *v, int who)
{
	for (int i = 0; i < BY_SLOTS; i++)
		if (v->by[i] == who)
			return 1;
	return 0;
}

static void view_init(struct range_view *v)
{
	memset(v, 0, sizeof(*v));
	v->last = v->preferred = -2;
	for (int i = 0; i < BY_SLOTS; i++)
		v->by[i] = -2;
}

/* Each attribute its own call (one failing does not hide the others); the
 * failures are named in err. */
static void read_singular(struct range_view *v, const void *p, size_t size, char *err,
			  size_t len)
{
	static const char *const name[A_COUNT] = {
		"hipMemRangeAttributeLastPrefetchLocation", "hipMemRangeAttributePreferredLocation",
		"hipMemRangeAttributeReadMostly", "hipMemRangeAttributeAccessedBy",
	};
	static const hipMemRangeAttribute attr[A_COUNT] = {
		hipMemRangeAttributeLastPrefetchLocation, hipMemRangeAttributePreferredLocation,
		hipMemRangeAttributeReadMostly, hipMemRangeAttributeAccessedBy,
	};
	void *data[A_COUNT];
	size_t n[A_COUNT] = { sizeof(v->last), sizeof(v->preferred), sizeof(v->read_mostly),
			      sizeof(v->by) };
	size_t used = 0;

	view_init(v);
	data[A_LAST] = &v->last;
	data[A_PREFERRED] = &v->preferred;
	data[A_READ_MOSTLY] = &v->read_mostly;
	data[A_BY] = v->by;
	for (int a = 0; a < A_COUNT; a++) {
		hipError_t e = hipMemRangeGetAttribute(data[a], n[a], attr[a], p, size);
		v->ok[a] = e == hipSuccess;
		if (!v->ok[a] && used < len)
			used += (size_t)snprintf(err + used, len - used, "%s%s(%s): %s",
						 used ? "; " : "", "hipMemRangeGetAttribute",
						 name[a], hipGetErrorString(e));
	}
	(void)hipGetLastError();
}

static void read_plural(struct range_view *v, const void *p, size_t size, char *err, size_t len)
{
	hipMemRangeAttribute attrs[A_COUNT] = {
		hipMemRangeAttributeLastPrefetchLocation, hipMemRangeAttributePreferredLocation,
		hipMemRangeAttributeReadMostly, hipMemRangeAttributeAccessedBy,
	};
	void *data[A_COUNT];
	size_t sizes[A_COUNT] = { sizeof(v->last), sizeof(v->preferred), sizeof(v->read_mostly),
			    sizeof(v->by) };
	hipError_t e;

	view_init(v);
	data[A_LAST] = &v->last;
	data[A_PREFERRED] = &v->preferred;
	data[A_READ_MOSTLY] = &v->read_mostly;
	data[A_BY] = v->by;
	e = hipMemRangeGetAttributes(data, sizes, attrs, A_COUNT, p, size);
	for (int a = 0; a < A_COUNT; a++)
		v->ok[a] = e == hipSuccess;
	if (e != hipSuccess)
		snprintf(err, len, "hipMemRangeGetAttributes: %s", hipGetErrorString(e));
	(void)hipGetLastError();
}

static void observe_view(struct hmb_record *r, const char *prefix, const struct range_view *v,
			 int dev)
{
	char key[64];

	if (v->ok[A_LAST]) {
		snprintf(key, sizeof(key), "%slast_prefetch_location", prefix);
		hmb_observe_num(r, key, v->last);
	}
	if (v->ok[A_PREFERRED]) {
		snprintf(key, sizeof(key), "%spreferred_location", prefix);
		hmb_observe_num(r, key, v->preferred);
	}
	if (v->ok[A_READ_MOSTLY]) {
		snprintf(key, sizeof(key), "%sread_mostly", prefix);
		hmb_observe_bool(r, key, v->read_mostly);
	}
	if (v->ok[A_BY]) {
		snprintf(key, sizeof(key), "%saccessed_by_device", prefix);
		hmb_observe_bool(r, key, accessed_by(v, dev));
		snprintf(key, sizeof(key), "%saccessed_by_host", prefix);
		hmb_observe_bool(r, key, accessed_by(v, hipCpuDeviceId));
	}
}

void managed_observe_range(struct hmb_record *r, const void *p, size_t size, int dev)
{
	struct range_view one, all;
	char err1[200] = "", err2[200] = "", both[420];

	read_singular(&one, p, size, err1, sizeof(err1));
	read_plural(&all, p, size, err2, sizeof(err2));
	observe_view(r, "", &one, dev);
	observe_view(r, "plural_", &all, dev);
	if (all_read(&one) && all_read(&all)) {
		/* accessed-by compared as sets: neither call promises an order */
		int same = one.last == all.last && one.preferred == all.preferred &&
			   !one.read_mostly == !all.read_mostly;
		for (int i = 0; i < BY_SLOTS; i++)
			same &= one.by[i] == -2 || accessed_by(&all, one.by[i]);
		for (int i = 0; i < BY_SLOTS; i++)
			same &= all.by[i] == -2 || accessed_by(&one, all.by[i]);
		hmb_observe_bool(r, "range_attributes_agree", same);
	} else {
		snprintf(both, sizeof(both), "%s%s%s", err1, err1[0] && err2[0] ? "; " : "", err2);
		hmb_observe_str(r, "range_attributes_unread", both);
	}
	hmb_observe_str(r, "location_codes", "device ordinal; -1 host; -2 none/invalid");
}
