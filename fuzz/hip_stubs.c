/* hip_stubs.c - the runtime calls of the topology probe (src/system/topology.c), linked
 * into fuzz_load, which prints a document's topology (output/node_tables.c) but never
 * probes a GPU: each answers that there is none. */
#include <stdint.h>

#include "platform/hip.h"

hipError_t hipGetDeviceCount(int *count)
{
	*count = 0;
	return hipErrorNoDevice;
}

hipError_t hipGetLastError(void)
{
	return hipSuccess;
}

hipError_t hipDeviceCanAccessPeer(int *can, int device, int peer)
{
	(void)device;
	(void)peer;
	*can = 0;
	return hipErrorNoDevice;
}

hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attr, int src, int dst)
{
	(void)attr;
	(void)src;
	(void)dst;
	*value = 0;
	return hipErrorNoDevice;
}

hipError_t hipDeviceGetPCIBusId(char *id, int len, int device)
{
	(void)device;
	if (len > 0)
		id[0] = '\0';
	return hipErrorNoDevice;
}

hipError_t hipExtGetLinkTypeAndHopCount(int a, int b, uint32_t *type, uint32_t *hops)
{
	(void)a;
	(void)b;
	*type = 0;
	*hops = 0;
	return hipErrorNoDevice;
}
