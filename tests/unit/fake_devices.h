/*
 * fake_devices.h - fact sheets (memmodel.h) of real GPUs as their runtimes
 * and drivers describe them, for tests without the hardware: MI250X with
 * XNACK off and on, MI300X, MI300A, H100.
 */
#ifndef HMB_FAKE_DEVICES_H
#define HMB_FAKE_DEVICES_H

#include "system/memmodel.h"

struct hmb_facts hmb_fake_mi250x(int xnack);   /* HPE Cray EX: Infinity Fabric host link */
struct hmb_facts hmb_fake_mi300x(void);        /* PCIe gen5 x16, idle at gen1 */
struct hmb_facts hmb_fake_mi300a(void);        /* APU, HSA_XNACK=1 */
struct hmb_facts hmb_fake_h100(void);          /* PCIe gen5 x16 */

#endif
