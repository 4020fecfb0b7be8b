/* SPDX-License-Identifier: GPL-2.0 */
/*
 * make bench's counting build of arm_cmn_hnf, and nothing else: bench.sh
 * copies this header beside hw.c in its build copy, includes it there and
 * renames every register accessor of hw.c to the counting ones below. The
 * shipped module has none of it. The counts are the module parameter
 * mmio_accesses ("reads N", "writes N"; writing anything zeroes them).
 */
#include <linux/io.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

static unsigned long cmn_bench_reads, cmn_bench_writes;

static int cmn_bench_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "reads %lu\nwrites %lu\n", READ_ONCE(cmn_bench_reads),
			  READ_ONCE(cmn_bench_writes));
}

static int cmn_bench_set(const char *val, const struct kernel_param *kp)
{
	WRITE_ONCE(cmn_bench_reads, 0);
	WRITE_ONCE(cmn_bench_writes, 0);
	return 0;
}

static const struct kernel_param_ops cmn_bench_ops = {
	.get = cmn_bench_get,
	.set = cmn_bench_set,
};
module_param_cb(mmio_accesses, &cmn_bench_ops, NULL, 0600);

#define cmn_bench_readq_relaxed(a)					\
	({ WRITE_ONCE(cmn_bench_reads, cmn_bench_reads + 1); readq_relaxed(a); })
#define cmn_bench_readq(a)						\
	({ WRITE_ONCE(cmn_bench_reads, cmn_bench_reads + 1); readq(a); })
#define cmn_bench_readl(a)						\
	({ WRITE_ONCE(cmn_bench_reads, cmn_bench_reads + 1); readl(a); })
#define cmn_bench_writeq_relaxed(v, a)					\
	({ WRITE_ONCE(cmn_bench_writes, cmn_bench_writes + 1); writeq_relaxed(v, a); })
