// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-fuzz: a perf_event_open(2) fuzzer aimed at the arm_cmn_hnf PMUs, run
 * in the QEMU guest against the CMN-600 model.
 *
 *   cmn-fuzz [-s SEED] [-n ITERATIONS] [-t SECONDS] [-H PERMILLE]
 *            [-K KINDS] [-W OPS] [-G] [-v]
 *   cmn-fuzz -l          list the error numbers the admin guide documents
 *
 * It reads format/ and events/ of every arm_cmn_hnf_<n> PMU and then, for
 * ITERATIONS steps (or SECONDS), picks one operation at random: open an event
 * (valid aliases, fields in and out of range, random config/config1/config2,
 * every attr flag, odd attr sizes, cpu and pid choices including offline and
 * absent CPUs, groups mixing software, CPU PMU, other-mesh and our events),
 * close, read with odd sizes, an ioctl (ENABLE, DISABLE, RESET, REFRESH,
 * PERIOD, SET_OUTPUT, ID), mmap/munmap, poll, fork a child that works on the
 * inherited descriptors, or CPU hotplug (PERMILLE per step, default 10).
 * KINDS (default "oshct") narrows the events opened, to find which kind a
 * failure needs: o arm_cmn_hnf, s software, h generic hardware, c the CPU's
 * PMU, t a random type. -W OPS leaves operations out, for the same purpose:
 * a odd attr flags and sizes, p pid choices other than -1, g groups, i
 * ioctls, m mmap, l poll, f fork (read instead). -G also builds groups of
 * other PMUs' events only (see foreign_groups below). -v prints every
 * operation.
 *
 * Invariants, each printed as "check <name> ok" or "check <name> fail <why>":
 *   no_report        no kernel report (BUG, WARNING, Oops, KASAN, lockdep...)
 *                    appears in /dev/kmsg
 *   monotonic        the count of an event never goes down between two reads
 *                    of the same descriptor, unless it was RESET in between
 *   truth_bound      the count of a valid arm_cmn_hnf event never exceeds what
 *                    the model's HN-Fs produced since just before the open
 *   errno_documented every error number of perf_event_open, read, ioctl and
 *                    mmap is in the admin guide's table for that call (built
 *                    in from Documentation/arm_cmn_hnf.rst)
 *   config_oracle    an otherwise plain open of one of our events succeeds
 *                    or fails with EINVAL exactly as the ABI of
 *                    Documentation/internals.rst says
 *   irq_follows_cpu  after each hotplug the PMU's interrupts are delivered to
 *                    the CPU in its cpumask, which is online
 *   overflow_irqs    the model raised overflow interrupts during the run
 *                    (else the run exercised no overflow: void)
 *
 * The first violation stops the run; it prints the seed, the iteration and
 * the last operations, so "cmn-fuzz -s SEED -n ITERATION" replays it (the
 * sequence of operations depends only on the seed and on which opens
 * succeeded). At the end it prints the iteration count, the run time and
 * the errno histogram of every call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"
#include "cmn-fuzz-errnos.h"

#define MAX_PMUS	32
#define MAX_FIELDS	16
#define MAX_ALIASES	128
#define MAX_FEV		64
#define RING		48
#define PAGE		4096UL

enum call { C_OPEN, C_READ, C_IOCTL, C_MMAP, C_NCALLS };

static const char *const call_names[C_NCALLS] = {
	"perf_event_open", "read", "ioctl", "mmap",
};

struct field {
	char name[32];
	int word;			/* config, config1, config2 */
	int nr;
	int lo[4], hi[4];
};

struct alias {
	char name[64];
	u64 config[3];
};

struct fpmu {
	struct g_pmu p;
	bool ours;
	int nfields;
	struct field field[MAX_FIELDS];
	int naliases;
	struct alias alias[MAX_ALIASES];
	int nirqs;
	int irq[G_MAX_IRQS];
};

struct fev {
	int fd;				/* -1: free slot */
	int pmu;			/* index in pmus[], -1: generic type */
	bool ours;
	bool bound;			/* truth_bound applies */
	int leader;			/* slot of the group leader (self) */
	unsigned long seq;		/* open order (sibling order) */
	struct perf_event_attr attr;
	u64 last;
	bool have_last;
	u64 t0;
	void *map;
	size_t maplen;
	char desc[112];
};

static struct fpmu pmus[MAX_PMUS];
static int npmus;
static int cpu_pmu = -1;		/* the CPU's own PMU (armv8_pmuv3...) */
static struct fev fevs[MAX_FEV];
static unsigned long open_seq;
static struct g_rng rng;
static u64 seed, iters = 5000, iter;
static double max_secs;
static unsigned int hotplug_permille = 10;
static bool verbose;
static const char *kinds = "oshct";
static const char *without = "";
/*
 * Groups made only of other PMUs' events, on a CPU that goes offline and
 * back, make Debian's 6.12.117 kernel corrupt the perf context's lists
 * (list_del corruption in __perf_remove_from_context(), from
 * perf_event_exit_cpu_context() or a later close) with no arm_cmn_hnf event
 * anywhere: "cmn-fuzz -G -K s -W apimlf" finds it in seconds without this
 * module loaded. They are no business of this PMU, so they are left out
 * unless -G asks for them; every group that holds one of our events is kept.
 */
static bool foreign_groups;
static int devnull = -1;
static pid_t sleeper = -1;
static bool in_child;
static struct g_truth *truth;

static unsigned long hist[C_NCALLS][512];
static unsigned long nops, nreads_checked, nbound_checked, noracle;
static unsigned long nhotplug, nforks, nmono_resets, nforeign;
static u64 mmap_sink;

/* ---- violations ------------------------------------------------------- */

enum check {
	K_REPORT, K_MONO, K_BOUND, K_ERRNO, K_ORACLE, K_IRQ, K_OVF, K_NCHECKS
};

static const char *const check_names[K_NCHECKS] = {
	"no_report", "monotonic", "truth_bound", "errno_documented",
	"config_oracle", "irq_follows_cpu", "overflow_irqs",
};

static char failed[K_NCHECKS][320];
static bool stop;
static char ring[RING][160];
static unsigned int ring_pos;

static void trace(const char *fmt, ...) G_PRINTF(1, 2);
static void trace(const char *fmt, ...)
{
	va_list ap;
	char *s = ring[ring_pos++ % RING];
	int n;

	n = snprintf(s, sizeof(ring[0]), "%llu: ", iter);
	va_start(ap, fmt);
	vsnprintf(s + n, sizeof(ring[0]) - (size_t)n, fmt, ap);
	va_end(ap);
	if (verbose)
		g_note("%s", s);
}

static void violation(enum check k, const char *fmt, ...) G_PRINTF(2, 3);
static void violation(enum check k, const char *fmt, ...)
{
	unsigned int i;
	va_list ap;
	char why[256];

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (in_child) {
		g_note("child of iteration %llu: %s: %s", iter,
		       check_names[k], why);
		_exit(1);
	}
	if (!failed[k][0])
		snprintf(failed[k], sizeof(failed[k]),
			 "%s (seed %llu iteration %llu)", why, seed, iter);
	if (stop)
		return;
	stop = true;
	g_note("VIOLATION %s at iteration %llu of seed %llu: %s",
	       check_names[k], iter, seed, why);
	g_note("replay: cmn-fuzz -s %llu -n %llu -H %u", seed, iter + 1,
	       hotplug_permille);
	g_note("last operations:");
	for (i = 0; i < RING; i++) {
		const char *s = ring[(ring_pos + i) % RING];

		if (s[0])
			g_note("  %s", s);
	}
}

/* ---- the errno table of the admin guide ------------------------------- */

static bool documented(enum call c, int e)
{
	static const unsigned int bit[C_NCALLS] = {
		DOC_OPEN, DOC_READ, DOC_IOCTL, DOC_MMAP,
	};
	unsigned int i;

	for (i = 0; i < G_ARRAY_SIZE(doc_errnos); i++)
		if (doc_errnos[i].err == e)
			return doc_errnos[i].calls & bit[c];
	return false;
}

/*
 * Records the outcome of a call (@e: 0 for success). The table and the
 * histogram are about calls on our events: @ours is false for a call that
 * involves no arm_cmn_hnf event (a lone software event, say).
 */
static void outcome(enum call c, int e, bool ours)
{
	if (!ours) {
		nforeign++;
		return;
	}
	if (e >= 0 && e < (int)G_ARRAY_SIZE(hist[0]))
		hist[c][e]++;
	if (e && !documented(c, e))
		violation(K_ERRNO, "%s returned %s, not in the admin guide's table for it",
			  call_names[c], g_errname(e));
}

/* ---- sysfs: formats and aliases --------------------------------------- */

static void parse_field(struct field *f, const char *name, char *spec)
{
	char *colon = strchr(spec, ':'), *r, *save = NULL;

	g_strlcpy(f->name, name, sizeof(f->name));
	f->nr = 0;
	f->word = -1;
	if (!colon)
		return;
	*colon = '\0';
	if (!strcmp(spec, "config"))
		f->word = 0;
	else if (!strcmp(spec, "config1"))
		f->word = 1;
	else if (!strcmp(spec, "config2"))
		f->word = 2;
	for (r = strtok_r(colon + 1, ",\n", &save); r && f->nr < 4;
	     r = strtok_r(NULL, ",\n", &save)) {
		char *dash = strchr(r, '-');

		f->lo[f->nr] = atoi(r);
		f->hi[f->nr] = dash ? atoi(dash + 1) : f->lo[f->nr];
		if (f->lo[f->nr] < 0 || f->hi[f->nr] > 63 ||
		    f->hi[f->nr] < f->lo[f->nr])
			return;
		f->nr++;
	}
}

static int field_width(const struct field *f)
{
	int i, w = 0;

	for (i = 0; i < f->nr; i++)
		w += f->hi[i] - f->lo[i] + 1;
	return w;
}

/* Puts @v into field @f of config[3], low bits in the first range */
static void field_set(const struct field *f, u64 *config, u64 v)
{
	int i, b;

	if (f->word < 0)
		return;
	for (i = 0; i < f->nr; i++)
		for (b = f->lo[i]; b <= f->hi[i]; b++, v >>= 1) {
			config[f->word] &= ~(1ULL << b);
			config[f->word] |= (v & 1) << b;
		}
}

static const struct field *find_field(const struct fpmu *p, const char *n)
{
	int i;

	for (i = 0; i < p->nfields; i++)
		if (!strcmp(p->field[i].name, n))
			return &p->field[i];
	return NULL;
}

static int parse_alias(const struct fpmu *p, struct alias *a, char *terms)
{
	char *t, *save = NULL;

	memset(a->config, 0, sizeof(a->config));
	for (t = strtok_r(terms, ",\n", &save); t;
	     t = strtok_r(NULL, ",\n", &save)) {
		char *eq = strchr(t, '=');
		const struct field *f;
		u64 v = 1;

		if (eq) {
			*eq = '\0';
			v = strtoull(eq + 1, NULL, 0);
		}
		f = find_field(p, t);
		if (!f)
			return -1;
		field_set(f, a->config, v);
	}
	return 0;
}

static void load_pmu_sysfs(struct fpmu *p)
{
	char dir[256], path[512], buf[256];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), G_PMUS "/%s/format", p->p.name);
	d = opendir(dir);
	while (d && (de = readdir(d)) && p->nfields < MAX_FIELDS) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (g_read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		parse_field(&p->field[p->nfields], de->d_name, buf);
		if (p->field[p->nfields].nr)
			p->nfields++;
	}
	if (d)
		closedir(d);

	snprintf(dir, sizeof(dir), G_PMUS "/%s/events", p->p.name);
	d = opendir(dir);
	while (d && (de = readdir(d)) && p->naliases < MAX_ALIASES) {
		struct alias *a = &p->alias[p->naliases];

		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (g_read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		g_strlcpy(a->name, de->d_name, sizeof(a->name));
		if (!parse_alias(p, a, buf))
			p->naliases++;
	}
	if (d)
		closedir(d);
	p->nirqs = g_irqs_of(p->p.name, p->irq, G_MAX_IRQS);
}

static void load_pmus(void)
{
	struct g_pmu all[MAX_PMUS];
	int i, n = g_pmus(all, MAX_PMUS);

	for (i = 0; i < n && npmus < MAX_PMUS; i++) {
		struct fpmu *p = &pmus[npmus++];

		memset(p, 0, sizeof(*p));
		p->p = all[i];
		p->ours = all[i].mesh >= 0;
		if (p->ours)
			load_pmu_sysfs(p);
		else if (!strncmp(all[i].name, "armv8_", 6) ||
			 !strcmp(all[i].name, "cpu"))
			cpu_pmu = npmus - 1;
	}
}

static int nours(void)
{
	int i, n = 0;

	for (i = 0; i < npmus; i++)
		n += pmus[i].ours;
	return n;
}

static struct fpmu *pick_ours(void)
{
	int i, k = (int)g_rng_below(&rng, (u64)nours());

	for (i = 0; i < npmus; i++)
		if (pmus[i].ours && !k--)
			return &pmus[i];
	return NULL;
}

/* ---- the ABI oracle (Documentation/internals.rst) --------------------- */

enum verdict { V_INVALID, V_VALID, V_UNSPECIFIED };

static const char *const revs_before_r1p2[] = { "r1p0", "r1p1" };

static enum verdict abi_verdict(const struct fpmu *p, u64 config)
{
	unsigned int type = G_CFG_TYPE(config), ev = G_CFG_EVENTID(config);
	unsigned int occ = G_CFG_OCCUPID(config), i;

	if (config & ~G_CFG_KNOWN)
		return V_INVALID;
	if (type == G_TYPE_CYCLES)
		return config == G_CFG(0, 0, 0, 0, G_TYPE_CYCLES) ?
			V_VALID : V_UNSPECIFIED;
	if (type != G_TYPE_HNF && type != G_TYPE_HNF_ALT)
		return V_INVALID;
	if (ev < 0x01 || ev > 0x1f)
		return V_INVALID;
	if (ev == G_EV_OCCUPANCY ? occ > 4 : occ != 0)
		return V_INVALID;
	if (!G_CFG_BYNODEID(config) && G_CFG_NODEID(config))
		return V_INVALID;
	if (G_CFG_BYNODEID(config)) {
		if (g_truth_read(p->p.mesh, truth))
			return V_UNSPECIFIED;
		if (!g_truth_has_node(truth, G_CFG_NODEID(config)))
			return V_INVALID;
	}
	/* snp_sent_untrk exists from r1p2 on */
	if (ev == 0x1b && !g_truth_read(p->p.mesh, truth))
		for (i = 0; i < G_ARRAY_SIZE(revs_before_r1p2); i++)
			if (!strcmp(truth->rev, revs_before_r1p2[i]))
				return V_UNSPECIFIED;
	return V_VALID;
}

/* ---- random attributes ------------------------------------------------ */

static u64 rnd_hnf_node(const struct fpmu *p)
{
	if (g_truth_read(p->p.mesh, truth) || !truth->nhnf)
		return g_rng_below(&rng, 0x10000);
	return truth->node[g_rng_below(&rng, (u64)truth->nhnf)];
}

/* A value for one field: mostly plausible, sometimes out of range */
static u64 rnd_field_value(const struct fpmu *p, const struct field *f)
{
	int w = field_width(f);
	u64 full = w >= 64 ? ~0ULL : (1ULL << w) - 1;

	if (g_rng_chance(&rng, 150))
		return g_rng_next(&rng) & full;
	if (!strcmp(f->name, "eventid"))
		return g_rng_below(&rng, 0x24);
	if (!strcmp(f->name, "occupid"))
		return g_rng_below(&rng, 7);
	if (!strcmp(f->name, "bynodeid"))
		return g_rng_below(&rng, 2);
	if (!strcmp(f->name, "nodeid"))
		return g_rng_chance(&rng, 750) ? rnd_hnf_node(p) :
			g_rng_below(&rng, 0x200);
	if (!strcmp(f->name, "type")) {
		static const u64 types[] = { 0, 0, 5, 3, 1, 2, 4, 7, 15 };

		return types[g_rng_below(&rng, G_ARRAY_SIZE(types))];
	}
	return g_rng_next(&rng) & full;
}

static void rnd_our_config(const struct fpmu *p, u64 *config, char *desc,
			   size_t len)
{
	unsigned int mode = (unsigned int)g_rng_below(&rng, 100);
	const struct alias *a;
	const struct field *f;
	int i;

	memset(config, 0, 3 * sizeof(*config));
	if (mode < 45 && p->naliases) {
		a = &p->alias[g_rng_below(&rng, (u64)p->naliases)];
		memcpy(config, a->config, sizeof(a->config));
		snprintf(desc, len, "%s/%s", p->p.name, a->name);
		if (mode < 20) {
			f = find_field(p, "bynodeid");
			if (f)
				field_set(f, config, 1);
			f = find_field(p, "nodeid");
			if (f)
				field_set(f, config, rnd_hnf_node(p));
			snprintf(desc, len, "%s/%s,bynodeid", p->p.name,
				 a->name);
		}
	} else if (mode < 85) {
		for (i = 0; i < p->nfields; i++)
			if (g_rng_chance(&rng, 700))
				field_set(&p->field[i], config,
					  rnd_field_value(p, &p->field[i]));
		snprintf(desc, len, "%s/fields", p->p.name);
	} else {
		config[0] = g_rng_next(&rng);
		if (g_rng_chance(&rng, 500))
			config[0] &= 0xfffffffffULL;
		config[1] = g_rng_chance(&rng, 300) ? g_rng_next(&rng) : 0;
		config[2] = g_rng_chance(&rng, 300) ? g_rng_next(&rng) : 0;
		snprintf(desc, len, "%s/random", p->p.name);
	}
	/* a stray bit outside every field */
	if (mode >= 45 && mode < 85 && g_rng_chance(&rng, 100))
		config[0] |= 1ULL << (13 + g_rng_below(&rng, 3));
	if (g_rng_chance(&rng, 40))
		config[1] = g_rng_next(&rng);
	if (g_rng_chance(&rng, 40))
		config[2] = g_rng_next(&rng);
}

static const u64 valid_read_formats[] = {
	0, PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	PERF_FORMAT_ID, PERF_FORMAT_GROUP,
	PERF_FORMAT_GROUP | PERF_FORMAT_ID,
	PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID,
	PERF_FORMAT_LOST, PERF_FORMAT_GROUP | PERF_FORMAT_LOST,
	PERF_FORMAT_TOTAL_TIME_RUNNING,
};

/* Named flags, each set alone or in twos and threes */
static void set_named_flag(struct perf_event_attr *a)
{
	switch (g_rng_below(&rng, 24)) {
	case 0:
		a->sample_period = 1 + g_rng_below(&rng, 100000);
		break;
	case 1:
		a->freq = 1;
		a->sample_freq = 1 + g_rng_below(&rng, 4000);
		break;
	case 2:
		a->inherit = 1;
		break;
	case 3:
		a->pinned = 1;
		break;
	case 4:
		a->exclusive = 1;
		break;
	case 5:
		a->exclude_user = 1;
		break;
	case 6:
		a->exclude_kernel = 1;
		break;
	case 7:
		a->exclude_hv = 1;
		break;
	case 8:
		a->exclude_idle = 1;
		break;
	case 9:
		a->exclude_host = 1;
		break;
	case 10:
		a->exclude_guest = 1;
		break;
	case 11:
		a->precise_ip = (unsigned int)g_rng_below(&rng, 4);
		break;
	case 12:
		a->enable_on_exec = 1;
		break;
	case 13:
		a->watermark = 1;
		a->wakeup_watermark = (u32)g_rng_below(&rng, 8192);
		break;
	case 14:
		a->inherit_stat = 1;
		break;
	case 15:
		a->exclude_callchain_kernel = 1;
		break;
	case 16:
		a->exclude_callchain_user = 1;
		break;
	case 17:
		a->sample_type = g_rng_next(&rng) & 0xfffff;
		break;
	case 18:
		a->use_clockid = 1;
		a->clockid = 1;
		break;
	case 19:
		a->read_format = g_rng_next(&rng) & 0x3f;
		break;
	case 20:
		a->mmap = 1;
		a->comm = 1;
		a->task = 1;
		break;
	case 21:
		a->sample_id_all = 1;
		break;
	case 22:
		a->wakeup_events = (u32)g_rng_below(&rng, 16);
		break;
	default:
		a->disabled = !a->disabled;
		break;
	}
}

/* The attr size to pass, and what goes past the struct */
static u32 rnd_size(unsigned char *tail, size_t tail_len)
{
	static const u32 sizes[] = {
		0, 1, 8, 63, PERF_ATTR_SIZE_VER0, 65, PERF_ATTR_SIZE_VER1,
		PERF_ATTR_SIZE_VER2, PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4,
		PERF_ATTR_SIZE_VER5, PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
		136, 144, 4096, 4097, 65536,
	};
	u32 s = sizes[g_rng_below(&rng, G_ARRAY_SIZE(sizes))];

	memset(tail, 0, tail_len);
	if (s > sizeof(struct perf_event_attr) && g_rng_chance(&rng, 400))
		tail[g_rng_below(&rng, tail_len)] = (unsigned char)
			(1 + g_rng_below(&rng, 255));
	return s;
}

/* ---- the descriptor table --------------------------------------------- */

static int nopen(void)
{
	int i, n = 0;

	for (i = 0; i < MAX_FEV; i++)
		n += fevs[i].fd >= 0;
	return n;
}

static int pick_fev(void)
{
	int n = nopen(), i, k;

	if (!n)
		return -1;
	k = (int)g_rng_below(&rng, (u64)n);
	for (i = 0; i < MAX_FEV; i++)
		if (fevs[i].fd >= 0 && !k--)
			return i;
	return -1;
}

static int free_slot(void)
{
	int i;

	for (i = 0; i < MAX_FEV; i++)
		if (fevs[i].fd < 0)
			return i;
	return -1;
}

static void close_fev(int i)
{
	struct fev *f = &fevs[i];
	int j;

	if (f->map)
		munmap(f->map, f->maplen);
	close(f->fd);
	trace("close #%d fd %d (%s)", i, f->fd, f->desc);
	/* perf promotes the siblings of a closed leader to singletons */
	for (j = 0; j < MAX_FEV; j++)
		if (j != i && fevs[j].fd >= 0 && fevs[j].leader == i)
			fevs[j].leader = j;
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

/* Does the group of @slot (its leader and the leader's siblings) hold one of
 * our events?
 */
static bool group_has_ours(int slot)
{
	int i, leader = fevs[slot].leader;

	for (i = 0; i < MAX_FEV; i++)
		if (fevs[i].fd >= 0 && fevs[i].ours &&
		    (i == leader || fevs[i].leader == leader))
			return true;
	return false;
}

/* ---- truth bound ------------------------------------------------------- */

static bool truth_now(const struct fev *f, u64 *v)
{
	if (g_truth_read(pmus[f->pmu].p.mesh, truth))
		return false;
	*v = g_truth_of_config(truth, f->attr.config);
	return true;
}

/* ---- operations ------------------------------------------------------- */

static int online_cpu(void)
{
	int n = g_ncpus(), c, k;

	for (k = 0; k < 4; k++) {
		c = (int)g_rng_below(&rng, (u64)n);
		if (g_cpu_online(c) == 1)
			return c;
	}
	for (c = 0; c < n; c++)
		if (g_cpu_online(c) == 1)
			return c;
	return 0;
}

static int rnd_cpu(const struct fpmu *p)
{
	unsigned int r = (unsigned int)g_rng_below(&rng, 100);
	int n = g_ncpus(), c;

	if (r < 40 && p && p->p.cpu >= 0)
		return g_pmu_cpu(p->p.name);
	if (r < 80)
		return online_cpu();
	if (r < 88) {
		for (c = 0; c < n; c++)
			if (g_cpu_online(c) == 0)
				return c;	/* an offline CPU */
		return online_cpu();
	}
	switch (r) {
	case 88:
	case 89:
	case 90:
		return n;
		/* absent */;
	case 91:
	case 92:
		return n + (int)g_rng_below(&rng, 4096);
	case 93:
		return INT_MAX;
	case 94:
		return -2;
	default:
		return -1;
	}
}

static int rnd_pid(void)
{
	unsigned int r = (unsigned int)g_rng_below(&rng, 100);

	if (r < 82)
		return -1;
	switch (r) {
	case 82:
	case 83:
	case 84:
		return 0;
	case 85:
	case 86:
		return (int)getpid();
	case 87:
	case 88:
	case 89:
		return sleeper > 0 ? sleeper : 0;
	case 90:
		return 1;
	case 91:
	case 92:
		return 0x3ffffff0;
		/* no such task */;
	default:
		return -1;
	}
}

static void op_open(void)
{
	union {
		struct perf_event_attr attr;
		unsigned char raw[65536 + 64];
	} *u;
	static void *ubuf;
	struct perf_event_attr *a;
	struct fpmu *p = NULL;
	int slot = free_slot(), pid, cpu, gfd = -1, gslot = -1, fd, e, k;
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	unsigned int kind, r;
	bool plain = true, cand = false;
	enum verdict v = V_UNSPECIFIED;
	char desc[112];
	u64 cfg[3], t0 = 0;
	u32 size;

	if (slot < 0) {
		close_fev(pick_fev());
		slot = free_slot();
	}
	if (!ubuf)
		ubuf = calloc(1, sizeof(*u));
	if (!ubuf)
		g_die("out of memory");
	u = ubuf;
	a = &u->attr;
	memset(a, 0, sizeof(*a));

	kind = (unsigned int)g_rng_below(&rng, 100);
	/* -K: keep the kinds of events asked for, in the same proportions */
	while (!strchr(kinds, kind < 66 ? 'o' : kind < 78 ? 's' :
		       kind < 88 ? 'h' : kind < 95 ? 'c' : 't'))
		kind = (unsigned int)g_rng_below(&rng, 100);
	if (kind < 66 && nours()) {
		p = pick_ours();
		a->type = (u32)p->p.type;
		rnd_our_config(p, cfg, desc, sizeof(desc));
		a->config = cfg[0];
		a->config1 = cfg[1];
		a->config2 = cfg[2];
	} else if (kind < 78) {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = g_rng_below(&rng, 12);
		snprintf(desc, sizeof(desc), "sw:%llu", a->config);
	} else if (kind < 88) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = g_rng_below(&rng, 10);
		snprintf(desc, sizeof(desc), "hw:%llu", a->config);
	} else if (kind < 95 && cpu_pmu >= 0) {
		a->type = (u32)pmus[cpu_pmu].p.type;
		a->config = g_rng_below(&rng, 0x40);
		snprintf(desc, sizeof(desc), "%s:0x%llx",
			 pmus[cpu_pmu].p.name, a->config);
	} else {
		a->type = (u32)(g_rng_chance(&rng, 500) ? 64 + g_rng_below(&rng, 64)
				: g_rng_next(&rng));
		a->config = g_rng_next(&rng);
		snprintf(desc, sizeof(desc), "type %u", a->type);
	}
	a->size = sizeof(*a);
	a->disabled = g_rng_chance(&rng, 300);
	a->read_format = valid_read_formats[g_rng_below(&rng,
				G_ARRAY_SIZE(valid_read_formats))];

	r = (unsigned int)g_rng_below(&rng, 100);
	if (r >= 55 && !strchr(without, 'a')) {
		plain = false;
		for (k = 1 + (int)g_rng_below(&rng, 3); k; k--)
			set_named_flag(a);
		if (r >= 92) {
			u64 w = g_rng_next(&rng) & g_rng_next(&rng);

			/* the whole flags word (bits after read_format) */
			memcpy((char *)&a->read_format + sizeof(a->read_format),
			       &w, sizeof(w));
		}
	}
	if (g_rng_chance(&rng, 120)) {
		plain = false;
		size = rnd_size(u->raw + sizeof(*a), sizeof(u->raw) - sizeof(*a));
		a->size = size;
	}

	pid = strchr(without, 'p') ? -1 : rnd_pid();
	cpu = rnd_cpu(p);
	r = (unsigned int)g_rng_below(&rng, 100);
	if (strchr(without, 'g')) {
		gfd = -1;
	} else if (r < 28 && nopen()) {
		gslot = pick_fev();
		gfd = fevs[gslot].fd;
		/* see foreign_groups */
		if (!p && !foreign_groups && !group_has_ours(gslot)) {
			gslot = -1;
			gfd = -1;
		}
	} else if (r < 30) {
		gfd = devnull;
	} else if (r < 31) {
		gfd = 1000 + (int)g_rng_below(&rng, 1000);
	}
	r = (unsigned int)g_rng_below(&rng, 100);
	if (r < 5)
		flags |= PERF_FLAG_FD_NO_GROUP;
	else if (r < 8)
		flags |= PERF_FLAG_FD_OUTPUT;
	else if (r < 10)
		flags |= PERF_FLAG_PID_CGROUP;
	else if (r < 11)
		flags |= 1UL << (4 + g_rng_below(&rng, 8));
	else if (r < 20)
		flags = 0;

	if (p && plain && pid == -1 && gfd == -1 && !a->config1 &&
	    !a->config2 && !(flags & ~PERF_FLAG_FD_CLOEXEC) && cpu >= 0 &&
	    cpu < g_ncpus() && g_cpu_online(cpu) == 1 && !a->sample_period &&
	    !(a->read_format & ~(u64)(PERF_FORMAT_MAX - 1)))
		v = abi_verdict(p, a->config);
	cand = p && abi_verdict(p, a->config) == V_VALID && !a->config1 &&
		!a->config2;
	if (cand && !g_truth_read(p->p.mesh, truth))
		t0 = g_truth_of_config(truth, a->config);
	else
		cand = false;

	fd = g_perf_open(a, pid, cpu, gfd, flags);
	e = fd < 0 ? errno : 0;
	trace("open %s config 0x%llx,0x%llx,0x%llx size %u rf 0x%llx %s%d %s%d %s%d %s0x%lx -> %s",
	      desc, a->config, a->config1, a->config2, a->size,
	      a->read_format, "pid ", pid, "cpu ", cpu, "group ", gfd,
	      "flags ", flags, fd < 0 ? g_errname(e) : "OK");
	outcome(C_OPEN, e, p || (gslot >= 0 && group_has_ours(gslot)));
	if (v != V_UNSPECIFIED) {
		noracle++;
		if (v == V_VALID && e)
			violation(K_ORACLE, "%s config 0x%llx: valid by the ABI, open failed: %s",
				  desc, a->config, g_errname(e));
		else if (v == V_INVALID && e != EINVAL)
			violation(K_ORACLE, "%s config 0x%llx: outside the ABI, got %s",
				  desc, a->config, g_errname(e));
	}
	if (fd < 0)
		return;

	memset(&fevs[slot], 0, sizeof(fevs[slot]));
	fevs[slot].fd = fd;
	fevs[slot].pmu = p ? (int)(p - pmus) : -1;
	fevs[slot].ours = p;
	fevs[slot].attr = *a;
	fevs[slot].seq = ++open_seq;
	fevs[slot].bound = cand;
	fevs[slot].t0 = t0;
	g_strlcpy(fevs[slot].desc, desc, sizeof(fevs[slot].desc));
	fevs[slot].leader = slot;
	if (gslot >= 0 && !(flags & PERF_FLAG_FD_NO_GROUP))
		fevs[slot].leader = fevs[gslot].leader;
	trace("  -> #%d fd %d leader #%d", slot, fd, fevs[slot].leader);
}

/* Siblings of @leader in the order perf lists them (open order) */
static int group_members(int leader, int *out, int max)
{
	int n = 0, i, j, best;
	unsigned long last = 0, min;

	out[n++] = leader;
	for (;;) {
		best = -1;
		min = ~0UL;
		for (i = 0; i < MAX_FEV; i++) {
			if (i == leader || fevs[i].fd < 0 ||
			    fevs[i].leader != leader)
				continue;
			if (fevs[i].seq > last && fevs[i].seq < min) {
				min = fevs[i].seq;
				best = i;
			}
		}
		if (best < 0 || n == max)
			break;
		out[n++] = best;
		last = min;
	}
	for (j = n; j < max; j++)
		out[j] = -1;
	return n;
}

static size_t read_size(const struct fev *f, int nmembers)
{
	u64 rf = f->attr.read_format;
	size_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		       !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (rf & PERF_FORMAT_GROUP)
		return 8 * (1 + times + per * (size_t)nmembers);
	return 8 * (times + per);
}

static void check_value(int slot, u64 v)
{
	struct fev *f = &fevs[slot];
	u64 now;

	nreads_checked++;
	if (f->have_last && v < f->last)
		violation(K_MONO, "count of #%d fd %d (%s 0x%llx) went down: %llu, then %llu",
			  slot, f->fd, f->desc, f->attr.config, f->last, v);
	f->last = v;
	f->have_last = true;
	if (!f->bound || !g_rng_chance(&rng, 250))
		return;
	if (!truth_now(f, &now))
		return;
	nbound_checked++;
	if (v > now - f->t0)
		violation(K_BOUND, "count of #%d fd %d (%s 0x%llx) is %llu, %s %llu",
			  slot, f->fd, f->desc, f->attr.config, v,
			  "the model produced since the open only", now - f->t0);
}

static void op_read(int slot)
{
	struct fev *f = &fevs[slot];
	int members[MAX_FEV], n, i, e;
	u64 buf[2 + 3 * MAX_FEV + 16], rf = f->attr.read_format;
	size_t want, len, per, off;
	ssize_t got;

	n = group_members(f->leader, members, MAX_FEV);
	want = read_size(f, n);
	switch (g_rng_below(&rng, 10)) {
	case 0:
		len = want > 8 ? want - 8 : 0;
		break;
	case 1:
		len = 1;
		break;
	case 2:
		len = 0;
		break;
	case 3:
		len = want + 8;
		break;
	case 4:
		len = sizeof(buf);
		break;
	default:
		len = want;
		break;
	}
	if (len > sizeof(buf))
		len = sizeof(buf);
	got = read(f->fd, buf, len);
	e = got < 0 ? errno : 0;
	trace("read #%d fd %d len %zu (want %zu) -> %zd %s", slot, f->fd, len,
	      want, got, g_errname(e));
	outcome(C_READ, e, group_has_ours(slot));
	if (got <= 0)
		return;
	if (!(rf & PERF_FORMAT_GROUP)) {
		check_value(slot, buf[0]);
		return;
	}
	/*
	 * A group read, even on a sibling, lists the leader, then the
	 * siblings in the order they joined.
	 */
	if ((size_t)got < 8 || buf[0] != (u64)n)
		return;
	per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	off = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	for (i = 0; i < n && (off + per * (size_t)i) * 8 < (size_t)got; i++)
		check_value(members[i], buf[off + per * (size_t)i]);
}

static void reset_done(int slot, bool group)
{
	int i;

	if (!group) {
		fevs[slot].have_last = false;
		nmono_resets++;
		return;
	}
	for (i = 0; i < MAX_FEV; i++)
		if (fevs[i].fd >= 0 &&
		    fevs[i].leader == fevs[slot].leader) {
			fevs[i].have_last = false;
			nmono_resets++;
		}
}

static void op_ioctl(int slot)
{
	struct fev *f = &fevs[slot];
	unsigned long arg = g_rng_chance(&rng, 300) ? PERF_IOC_FLAG_GROUP : 0;
	u64 val, id = 0;
	const char *what;
	int r, e;

	switch (g_rng_below(&rng, 7)) {
	case 0:
		what = "ENABLE";
		r = ioctl(f->fd, PERF_EVENT_IOC_ENABLE, arg);
		break;
	case 1:
		what = "DISABLE";
		r = ioctl(f->fd, PERF_EVENT_IOC_DISABLE, arg);
		break;
	case 2:
		what = "RESET";
		r = ioctl(f->fd, PERF_EVENT_IOC_RESET, arg);
		if (!r)
			reset_done(slot, arg & PERF_IOC_FLAG_GROUP);
		/* a failed reset may still have reset some: forget them */
		else
			reset_done(slot, true);
		break;
	case 3:
		what = "REFRESH";
		arg = g_rng_chance(&rng, 500) ? 1 : g_rng_next(&rng) & 0xffff;
		r = ioctl(f->fd, PERF_EVENT_IOC_REFRESH, arg);
		break;
	case 4:
		what = "PERIOD";
		val = g_rng_chance(&rng, 300) ? 1ULL << 63 :
			g_rng_below(&rng, 1000000);
		arg = (unsigned long)&val;
		r = ioctl(f->fd, PERF_EVENT_IOC_PERIOD, arg);
		break;
	case 5:
		what = "SET_OUTPUT";
		switch (g_rng_below(&rng, 5)) {
		case 0:
			arg = (unsigned long)-1;
			break;
		case 1:
			arg = (unsigned long)devnull;
			break;
		case 2:
			arg = (unsigned long)f->fd;
			break;
		default: {
			int o = pick_fev();

			arg = (unsigned long)(o >= 0 ? fevs[o].fd : -1);
			break;
		}
		}
		r = ioctl(f->fd, PERF_EVENT_IOC_SET_OUTPUT, arg);
		break;
	default:
		what = "ID";
		arg = (unsigned long)&id;
		r = ioctl(f->fd, PERF_EVENT_IOC_ID, arg);
		break;
	}
	e = r < 0 ? errno : 0;
	trace("ioctl #%d fd %d %s 0x%lx -> %s", slot, f->fd, what, arg,
	      g_errname(e));
	outcome(C_IOCTL, e, group_has_ours(slot));
}

static void op_mmap(int slot)
{
	static const unsigned int pages[] = { 1, 1, 2, 3, 5, 9, 4, 6 };
	struct fev *f = &fevs[slot];
	struct perf_event_mmap_page *pg;
	unsigned int np = pages[g_rng_below(&rng, G_ARRAY_SIZE(pages))];
	int prot = PROT_READ, mflags = MAP_SHARED, e;
	off_t off = 0;
	void *m;

	if (f->map) {
		trace("munmap #%d", slot);
		munmap(f->map, f->maplen);
		f->map = NULL;
		return;
	}
	if (g_rng_chance(&rng, 500))
		prot |= PROT_WRITE;
	if (g_rng_chance(&rng, 80))
		mflags = MAP_PRIVATE;
	if (g_rng_chance(&rng, 50))
		off = (off_t)PAGE;
	m = mmap(NULL, np * PAGE, prot, mflags, f->fd, off);
	e = m == MAP_FAILED ? errno : 0;
	trace("mmap #%d fd %d %u pages prot %d flags %d off %ld -> %s", slot,
	      f->fd, np, prot, mflags, (long)off, g_errname(e));
	outcome(C_MMAP, e, group_has_ours(slot));
	if (m == MAP_FAILED)
		return;
	/* read the user page as a self-monitoring program would */
	pg = m;
	mmap_sink += pg->lock + pg->index + (u64)pg->offset + pg->time_enabled;
	f->map = m;
	f->maplen = np * PAGE;
}

static void op_poll(int slot)
{
	struct pollfd pfd = { .fd = fevs[slot].fd, .events = POLLIN | POLLOUT };
	int r = poll(&pfd, 1, 0);

	trace("poll #%d -> %d revents 0x%x", slot, r, pfd.revents);
}

/* Checks that every PMU of ours counts on an online CPU and that its
 * interrupts are delivered there.
 */
static void check_irqs(const char *when)
{
	int i, j, cpu, eff;

	for (i = 0; i < npmus; i++) {
		if (!pmus[i].ours)
			continue;
		cpu = g_pmu_cpu(pmus[i].p.name);
		if (cpu < 0 || g_cpu_online(cpu) != 1) {
			violation(K_IRQ, "%s: %s cpumask is CPU %d, which is not online",
				  when, pmus[i].p.name, cpu);
			continue;
		}
		for (j = 0; j < pmus[i].nirqs; j++) {
			eff = g_irq_effective_cpu(pmus[i].irq[j]);
			if (eff != cpu)
				violation(K_IRQ, "%s: IRQ %d of %s goes to CPU %d, cpumask is %d",
					  when, pmus[i].irq[j], pmus[i].p.name,
					  eff, cpu);
		}
	}
}

static void op_hotplug(void)
{
	int n = g_ncpus(), c = (int)g_rng_below(&rng, (u64)n), st, r;
	char when[64];

	st = g_cpu_online(c);
	if (st < 0)
		return;
	if (st == 1 && g_nonline() < 2)
		return;
	r = g_cpu_set_online(c, !st);
	trace("cpu%d %s -> %s", c, st ? "offline" : "online", g_errname(-r));
	nhotplug++;
	snprintf(when, sizeof(when), "after cpu%d went %s", c,
		 st ? "offline" : "online");
	if (!r)
		check_irqs(when);
}

static void op_fork(void)
{
	int i, n, slot, st;
	pid_t pid;

	nforks++;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return;
	if (!pid) {
		in_child = true;
		n = 4 + (int)g_rng_below(&rng, 20);
		for (i = 0; i < n; i++) {
			slot = pick_fev();
			if (slot < 0)
				break;
			switch (g_rng_below(&rng, 6)) {
			case 0:
			case 1:
			case 2:
				op_read(slot);
				break;
			case 3:
				op_poll(slot);
				break;
			case 4:
				ioctl(fevs[slot].fd, g_rng_chance(&rng, 500) ?
				      PERF_EVENT_IOC_ENABLE :
				      PERF_EVENT_IOC_DISABLE, 0);
				break;
			default:
				close(fevs[slot].fd);
				fevs[slot].fd = -1;
				break;
			}
		}
		_exit(0);
	}
	/* the child consumed numbers from its copy; skip as many here */
	g_rng_next(&rng);
	if (waitpid(pid, &st, 0) == pid &&
	    (!WIFEXITED(st) || WEXITSTATUS(st)))
		violation(K_MONO, "a forked child failed (status 0x%x), see above",
			  st);
	trace("fork: child %d done", pid);
}

static void one_step(void)
{
	unsigned int r = (unsigned int)g_rng_below(&rng, 1000);
	int slot;

	nops++;
	if (r < hotplug_permille) {
		op_hotplug();
		return;
	}
	if (r < 300 || nopen() < 2) {
		op_open();
		return;
	}
	slot = pick_fev();
	if (r < 380)
		close_fev(slot);
	else if (r < 640 || strchr(without, r < 880 ? 'i' : r < 940 ? 'm' :
				    r < 975 ? 'l' : 'f'))
		op_read(slot);
	else if (r < 880)
		op_ioctl(slot);
	else if (r < 940)
		op_mmap(slot);
	else if (r < 975)
		op_poll(slot);
	else
		op_fork();
}

/* ---- main ------------------------------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: cmn-fuzz [-s SEED] [-n ITERATIONS] [-t SECONDS] [-H PERMILLE]\n"
		"                [-K KINDS] [-W OPS] [-G] [-v]\n"
		"       cmn-fuzz -l\n");
	exit(2);
}

static void list_documented(void)
{
	unsigned int i, c;

	for (i = 0; i < G_ARRAY_SIZE(doc_errnos); i++) {
		printf("%s", doc_errnos[i].name);
		for (c = 0; c < C_NCALLS; c++)
			if (documented(c, doc_errnos[i].err))
				printf(" %s", call_names[c]);
		printf("\n");
	}
}

static void print_histogram(void)
{
	unsigned int c, e;

	g_note("errno histogram of the calls on arm_cmn_hnf events (call errno count);");
	g_note("%lu calls on other events not counted:", nforeign);
	for (c = 0; c < C_NCALLS; c++)
		for (e = 0; e < G_ARRAY_SIZE(hist[c]); e++)
			if (hist[c][e])
				g_note("  %-16s %-12s %lu", call_names[c],
				       g_errname((int)e), hist[c][e]);
}

int main(int argc, char **argv)
{
	u64 irq0[G_MAX_MESHES] = { 0 }, irqs = 0;
	unsigned long nopens = 0;
	struct sigaction sa;
	struct g_kmsg km;
	double t0, dt;
	int i, opt, k;

	g_prog = "cmn-fuzz";
	setvbuf(stdout, NULL, _IOLBF, 0);
	seed = (u64)getpid() ^ (u64)(g_now() * 1e6);
	while ((opt = getopt(argc, argv, "s:n:t:H:K:W:Gvlh")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			iters = strtoull(optarg, NULL, 0);
			break;
		case 't':
			max_secs = strtod(optarg, NULL);
			break;
		case 'H':
			hotplug_permille = (unsigned int)atoi(optarg);
			break;
		case 'v':
			verbose = true;
			break;
		case 'K':
			kinds = optarg;
			break;
		case 'G':
			foreign_groups = true;
			break;
		case 'W':
			without = optarg;
			break;
		case 'l':
			list_documented();
			return 0;
		default:
			print_usage();
		}
	}
	if (optind != argc || !*kinds || kinds[strspn(kinds, "oshct")])
		print_usage();
	g_rng_seed(&rng, seed);
	truth = calloc(1, sizeof(*truth));
	if (!truth)
		g_die("out of memory");
	for (i = 0; i < MAX_FEV; i++)
		fevs[i].fd = -1;
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	signal(SIGPIPE, SIG_IGN);
	/* attr.sigtrap on a task event of ours signals this process */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTRAP, &sa, NULL);
	sigaction(SIGIO, &sa, NULL);

	load_pmus();
	if (!nours() && strchr(kinds, 'o'))
		g_die("no " G_PREFIX "<n> PMU is registered");
	for (i = 0; i < npmus; i++) {
		if (!pmus[i].ours)
			continue;
		g_note("%s: type %d, cpu %d, %d format fields, %d aliases, %d IRQs",
		       pmus[i].p.name, pmus[i].p.type, pmus[i].p.cpu,
		       pmus[i].nfields, pmus[i].naliases, pmus[i].nirqs);
		if (!pmus[i].nfields || !pmus[i].naliases || !pmus[i].nirqs)
			g_die("%s: no format/events/IRQ found", pmus[i].p.name);
		if (g_truth_read(pmus[i].p.mesh, truth))
			g_die("%s: no model truth for mesh %d", pmus[i].p.name,
			      pmus[i].p.mesh);
		irq0[pmus[i].p.mesh] = g_model_irqs(pmus[i].p.mesh);
	}
	g_note("cpu PMU: %s", cpu_pmu >= 0 ? pmus[cpu_pmu].p.name : "none");
	g_note("seed %llu, %llu iterations, hotplug %u/1000", seed, iters,
	       hotplug_permille);

	sleeper = fork();
	if (!sleeper) {
		for (;;)
			pause();
	}
	g_kmsg_open(&km);
	check_irqs("at start");

	t0 = g_now();
	for (iter = 0; iter < iters && !stop; iter++) {
		one_step();
		if ((iter & 127) == 127 && g_kmsg_scan(&km, "cmn600_model"))
			violation(K_REPORT, "%s", km.first);
		if (max_secs > 0 && (iter & 15) == 15 &&
		    g_now() - t0 >= max_secs) {
			iter++;
			break;
		}
	}
	dt = g_now() - t0;

	for (i = 0; i < MAX_FEV; i++)
		if (fevs[i].fd >= 0)
			close_fev(i);
	if (sleeper > 0) {
		kill(sleeper, SIGKILL);
		waitpid(sleeper, NULL, 0);
	}
	/* every CPU back, and the PMUs must have followed */
	for (k = 0; k < g_ncpus(); k++)
		if (g_cpu_online(k) == 0 && g_cpu_set_online(k, true))
			g_note("cannot put cpu%d back online", k);
	check_irqs("at the end");
	for (i = 0; i < npmus; i++)
		if (pmus[i].ours)
			irqs += g_model_irqs(pmus[i].p.mesh) -
				irq0[pmus[i].p.mesh];
	if (g_kmsg_scan(&km, NULL) || km.reports)
		violation(K_REPORT, "%s", km.first);
	if (!irqs && nours())
		violation(K_OVF, "no overflow interrupt was raised during the run: void");

	for (k = 0; k < (int)G_ARRAY_SIZE(hist[C_OPEN]); k++)
		nopens += hist[C_OPEN][k];
	g_note("seed %llu: %llu iterations in %.1f s (%.0f/s), %lu opens of which %lu succeeded",
	       seed, iter, dt, dt > 0 ? (double)iter / dt : 0.0, nopens,
	       hist[C_OPEN][0]);
	g_note("%lu counts checked for monotonicity, %lu against the truth,",
	       nreads_checked, nbound_checked);
	g_note("%lu opens against the ABI; %lu hotplug operations, %lu forks,",
	       noracle, nhotplug, nforks);
	g_note("%lu resets, %llu overflow interrupts, %lu kernel reports",
	       nmono_resets, irqs, km.reports);
	if (verbose)
		g_note("mmap pages read: %llx", mmap_sink);
	print_histogram();
	g_kmsg_close(&km);

	printf("iterations %llu\n", iter);
	for (k = 0; k < K_NCHECKS; k++) {
		if (failed[k][0])
			printf("check %s fail %s\n", check_names[k], failed[k]);
		else
			printf("check %s ok\n", check_names[k]);
	}
	return stop ? 1 : 0;
}
