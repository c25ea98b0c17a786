/* SPDX-License-Identifier: GPL-2.0 */
/* The fprobe perf PMU: perf events fed by fprobe */
#ifndef _LINUX_FPROBE_PMU_H
#define _LINUX_FPROBE_PMU_H

#include <uapi/linux/fprobe_pmu.h>

#ifdef CONFIG_FPROBE_PMU
int fprobe_pmu_type(void);
#else
static inline int fprobe_pmu_type(void)
{
	return -ENODEV;
}
#endif

#endif /* _LINUX_FPROBE_PMU_H */
