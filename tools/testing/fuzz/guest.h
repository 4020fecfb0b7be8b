/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest-side helpers shared by the static test programs (cmn-fuzz,
 * cmn-stress, cmn-priv, and the e2e helpers cmn-perf, cmn-hostile and
 * cmn-drv): sysfs and debugfs files, numbers, errno names, the PMUs, the
 * CMN-600 model's ground truth, interrupts and their affinity, CPU hotplug
 * and the kernel log.
 *
 * Nothing here includes the driver's headers: the attr.config layout below
 * is written from the ABI table of Documentation/internals.rst.
 */
#ifndef CMN_ABUSE_GUEST_H
#define CMN_ABUSE_GUEST_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned long long u64;
typedef unsigned int u32;

#define G_ATTR(list)		__attribute__(list)
#define G_PRINTF(a, b)		G_ATTR((format(printf, a, b)))
#define G_NORETURN		G_ATTR((__noreturn__))
#define G_ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define G_PMUS		"/sys/bus/event_source/devices"
#define G_MODEL		"/sys/kernel/debug/cmn600_model"
#define G_CPUS		"/sys/devices/system/cpu"
#define G_PREFIX	"arm_cmn_hnf_"
#define G_MESH_FILE	"/etc/cmn/mesh"	/* the harness's resolved meshes */

/* Limits of the CMN-600 facts (an 8x8 mesh has at most 128 HN-F ports) */
#define G_MAX_HNFS	128
#define G_MAX_MESHES	8
#define G_MAX_IRQS	8
#define G_MAX_CPUS	64
#define G_NEVENTS	32	/* HN-F event ids 0x01..0x1f */
#define G_NOCC		5	/* POCQ occupancy classes 0..4 */
#define G_DTM_COUNTERS	4	/* 16-bit local counters of an XP's DTM */
#define G_EV_OCCUPANCY	0x0f

/*
 * attr.config of arm_cmn_hnf (internals.rst, "The perf ABI"): eventid
 * 0-7, occupid 8-11, bynodeid 12, nodeid 16-31, type 32-35.
 */
#define G_CFG_EVENTID(c)	((unsigned int)((c) & 0xff))
#define G_CFG_OCCUPID(c)	((unsigned int)(((c) >> 8) & 0xf))
#define G_CFG_BYNODEID(c)	((unsigned int)(((c) >> 12) & 0x1))
#define G_CFG_NODEID(c)		((unsigned int)(((c) >> 16) & 0xffff))
#define G_CFG_TYPE(c)		((unsigned int)(((c) >> 32) & 0xf))
#define G_CFG_KNOWN		0xfffff1fffULL
#define G_TYPE_HNF		0
#define G_TYPE_HNF_ALT		5
#define G_TYPE_CYCLES		3
#define G_CFG(ev, occ, byn, node, type)				\
	((u64)(ev) | (u64)(occ) << 8 | (u64)(byn) << 12 |	\
	 (u64)(node) << 16 | (u64)(type) << 32)

void g_die(const char *fmt, ...) G_PRINTF(1, 2) G_NORETURN;
void g_note(const char *fmt, ...) G_PRINTF(1, 2);
extern const char *g_prog;

void g_strlcpy(char *dst, const char *src, size_t size);

/* Files: read_file returns the length or -errno; write_file 0 or -errno */
int g_read_file(const char *path, char *buf, size_t len);
int g_write_file(const char *path, const char *s);
int g_read_int(const char *path, long long *v);
int g_write_int(const char *path, long long v);
const char *g_errname(int e);
double g_now(void);
u64 g_num(const char *s);

int g_perf_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
		unsigned long flags);

/* Every PMU under /sys/bus/event_source/devices */
struct g_pmu {
	char name[64];
	int type;
	int cpu;		/* first CPU of cpumask, -1 without one */
	int mesh;		/* model mesh of an arm_cmn_hnf_<n>, else -1 */
};

int g_pmus(struct g_pmu *out, int max);
int g_pmu_cpu(const char *name);
int g_pmu_type(const char *name);	/* attr.type, or -1 */
/* The arm_cmn_hnf PMUs, sorted by instance number */
int g_hnf_pmus(struct g_pmu *out, int max);

/* The model's truth of one mesh */
struct g_truth {
	int nhnf;
	u32 node[G_MAX_HNFS];
	u64 cnt[G_MAX_HNFS][G_NEVENTS][G_NOCC];
	u64 cycles;
	char rev[16];
	int x, y;
};

bool g_model_present(void);
int g_model_meshes(void);
int g_truth_read(int mesh, struct g_truth *t);
/* Sum for eventid (0x0f: class occ, -1 all classes), node -1: every HN-F */
u64 g_truth_sum(const struct g_truth *t, unsigned int ev, int occ, int node);
int g_truth_has_node(const struct g_truth *t, unsigned int node);
/*
 * The XP of a node id (CMN-600: the low three bits are port and device, the
 * rest is the XP's x,y), and how many HN-Fs of a truth share that XP: an
 * event counted on every HN-F takes one counter of each HN-F's DTM.
 */
#define G_XP_OF(node)		((node) >> 3)
int g_truth_xp_hnfs(const struct g_truth *t, u32 node);
/* The most HN-Fs on one XP of a truth */
int g_truth_xp_hnfs_max(const struct g_truth *t);
/* What an arm_cmn_hnf event with this attr.config counts, from a truth */
u64 g_truth_of_config(const struct g_truth *t, u64 config);
int g_model_step(u64 cycles);
int g_model_clock(const char *mode);
int g_model_rate(int mesh, const char *line);
u64 g_model_irqs(int mesh);

/* Interrupts requested under a name (/proc/interrupts), their affinity */
int g_irqs_of(const char *name, int *irqs, int max);
int g_irq_effective_cpu(int irq);

/* CPU hotplug */
int g_ncpus(void);
int g_cpu_online(int cpu);
int g_cpu_set_online(int cpu, bool on);
int g_nonline(void);

/*
 * The kernel log from now on: g_kmsg_scan() reads what is new and returns
 * the number of lines that are kernel reports (BUG, WARNING, Oops, KASAN,
 * lockdep, panic, Call trace, hung task...). Every report line is printed
 * with g_note(); so are lines with @also (NULL: none) in them.
 */
struct g_kmsg {
	int fd;
	unsigned long reports;
	char first[256];
};

int g_kmsg_open(struct g_kmsg *k);
int g_kmsg_scan(struct g_kmsg *k, const char *also);
void g_kmsg_close(struct g_kmsg *k);

/* Small deterministic PRNG (xorshift64*) */
struct g_rng {
	u64 s;
};

void g_rng_seed(struct g_rng *r, u64 seed);
u64 g_rng_next(struct g_rng *r);
/* 0 .. n-1 */
u64 g_rng_below(struct g_rng *r, u64 n);
/* true with probability permille / 1000 */
bool g_rng_chance(struct g_rng *r, unsigned int permille);

#endif /* CMN_ABUSE_GUEST_H */
