// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-stress: lifecycle stress of arm_cmn_hnf in the QEMU guest, against the
 * CMN-600 model's ground truth. The model must be loaded (mesh file written),
 * with rates set and, unless said otherwise, the clock in manual mode.
 *
 *   cmn-stress load -k KO [-n CYCLES] [-N STEP]
 *       CYCLES times: load the driver from KO, check that every mesh has its
 *       PMU and that the PMU's interrupts go to its CPU, count two events
 *       per mesh (an aggregated one and one HN-F, a different event id each
 *       cycle, dtc_cycles on mesh 0) over a step of STEP cycles and compare
 *       them with the truth exactly, close them and unload the driver. The
 *       one HN-F is one whose XP still has a DTM counter free beside the
 *       aggregated event (none such: the aggregated event alone).
 *   cmn-stress hotplug [-n CYCLES] [-N STEP] [-F]
 *       With the driver loaded and three events open per mesh (aggregated,
 *       one HN-F, dtc_cycles): CYCLES times step, offline the CPU that
 *       counts a mesh (the meshes in turn), step, online it again, step;
 *       after each step every count equals the truth since the open, and
 *       after each hotplug every PMU counts on an online CPU that gets its
 *       interrupts. -F: the model's clock runs free instead of stepping;
 *       every read must then be monotonic and within the truth, and after
 *       the cycles one manual step must count exactly.
 *   cmn-stress twoproc [-N STEP]
 *       Process A and process B count the same event (B also one HN-F's
 *       event); B closes while A keeps counting; then process C joins.
 *       Every count equals the truth of its own window. Where mesh 0 cannot
 *       hold that at once (two aggregated events take two counters of each
 *       HN-F's DTM, B's one HN-F a fifth on its XP), the checks exact and
 *       close are skipped ("check <name> skip <why>").
 *   cmn-stress irqs
 *       Every PMU's interrupts are delivered to the CPU in its cpumask.
 *
 * Every count checked for exactness must also have run all the time it was
 * enabled (time_running == time_enabled over the window checked): a
 * multiplexed count is a failure. Across a hotplug perf moves the events to
 * another CPU, and they are enabled but not running while it does, so there
 * only the counts are compared, and the times again over the last step.
 *
 * Output: "# ..." context lines, "total <name> <n>" figures and one line
 * per check, "check <name> ok", "check <name> fail <why>" or "check <name>
 * skip <why>". Exit status 0 only if every check passed or was skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

#define MAX_EV		4
#define DEF_STEP	100000ULL

struct sev {
	int fd;
	int mesh;
	u64 config;
	u64 base;		/* truth (or count) at the start of the window */
	u64 last;
	u64 enabled, running;	/* of the last read, in ns */
	char name[96];
};

struct check {
	const char *name;
	unsigned long ok, bad;
	bool skip;
	char why[256];
};

static struct check checks[16];
static int nchecks;
static u64 step = DEF_STEP;
static int cycles = 10;
static struct g_truth *tr[G_MAX_MESHES];
static struct g_kmsg km;

static struct check *chk(const char *name)
{
	int i;

	for (i = 0; i < nchecks; i++)
		if (!strcmp(checks[i].name, name))
			return &checks[i];
	if (nchecks == (int)G_ARRAY_SIZE(checks))
		g_die("too many checks");
	checks[nchecks].name = name;
	return &checks[nchecks++];
}

static void result(const char *name, bool ok, const char *fmt, ...)
	G_PRINTF(3, 4);
static void result(const char *name, bool ok, const char *fmt, ...)
{
	struct check *c = chk(name);
	va_list ap;

	if (ok) {
		c->ok++;
		return;
	}
	c->bad++;
	if (c->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	g_note("%s: %s", name, c->why);
}

/* A check that cannot run here: it reports "skip" with the reason */
static void skipped(const char *name, const char *fmt, ...) G_PRINTF(2, 3);
static void skipped(const char *name, const char *fmt, ...)
{
	struct check *c = chk(name);
	va_list ap;

	c->skip = true;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	g_note("%s: skip: %s", name, c->why);
}

static int report(void)
{
	int i, rc = 0;

	if (g_kmsg_scan(&km, "cmn600_model") || km.reports)
		result("no_report", false, "%s", km.first);
	else
		result("no_report", true, "-");
	for (i = 0; i < nchecks; i++) {
		printf("total %s %lu\n", checks[i].name,
		       checks[i].ok + checks[i].bad);
		if (checks[i].skip && !checks[i].ok && !checks[i].bad) {
			printf("check %s skip %s\n", checks[i].name,
			       checks[i].why);
		} else if (checks[i].bad) {
			printf("check %s fail %lu of %lu: %s\n", checks[i].name,
			       checks[i].bad, checks[i].ok + checks[i].bad,
			       checks[i].why);
			rc = 1;
		} else {
			printf("check %s ok\n", checks[i].name);
		}
	}
	return rc;
}

/* ---- events ----------------------------------------------------------- */

static int open_ev(struct sev *e, const struct g_pmu *p, u64 config,
		   const char *name)
{
	struct perf_event_attr a;
	int cpu = g_pmu_cpu(p->name);

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (u32)p->type;
	a.config = config;
	a.disabled = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->fd = g_perf_open(&a, -1, cpu < 0 ? 0 : cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
	e->mesh = p->mesh;
	e->config = config;
	e->last = 0;
	snprintf(e->name, sizeof(e->name), "%s/0x%llx", p->name, config);
	if (e->fd < 0) {
		result("open", false, "%s (%s): %s", e->name, name,
		       g_errname(errno));
		return -1;
	}
	result("open", true, "-");
	return 0;
}

/* The count; e->enabled and e->running get the event's times */
static u64 read_ev(struct sev *e)
{
	u64 v[3] = { 0 };

	if (read(e->fd, v, sizeof(v)) != (ssize_t)sizeof(v)) {
		result("read", false, "%s: %s", e->name, g_errname(errno));
		e->enabled = 1;
		e->running = 0;
		return 0;
	}
	e->enabled = v[1];
	e->running = v[2];
	return v[0];
}

/* Exact: GOT == WANT != 0, counted all the time it was enabled */
static void exact(const char *check, const char *when, const char *who,
		  u64 got, u64 want, u64 enabled, u64 running)
{
	if (enabled != running)
		result(check, false,
		       "%s: %s counted %llu, truth %llu, multiplexed: ran %llu of %llu ns",
		       when, who, got, want, running, enabled);
	else
		result(check, got == want && want,
		       "%s: %s counted %llu, truth %llu", when, who, got,
		       want);
}

static void close_ev(struct sev *e)
{
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
}

static void read_truths(int nmeshes)
{
	int m;

	for (m = 0; m < nmeshes; m++)
		if (g_truth_read(m, tr[m]))
			g_die("cannot read the truth of mesh %d", m);
}

static u64 truth_of(const struct sev *e)
{
	return g_truth_of_config(tr[e->mesh], e->config);
}

/*
 * Every count equals the truth since e->base (0 would prove nothing); with
 * @times, each event also ran all the time it was enabled
 */
static void expect_exact(const char *check, struct sev *ev, int n,
			 const char *when, bool times)
{
	u64 got, want;
	int i;

	for (i = 0; i < n; i++) {
		if (ev[i].fd < 0)
			continue;
		got = read_ev(&ev[i]);
		want = truth_of(&ev[i]) - ev[i].base;
		exact(check, when, ev[i].name, got, want, ev[i].enabled,
		      times ? ev[i].running : ev[i].enabled);
		ev[i].last = got;
	}
}

/*
 * The k-th (modulo how many there are) HN-F of a truth whose XP keeps a DTM
 * counter free for one more event on it while @aggr events count on every
 * HN-F (each takes one counter per HN-F of the XP). -1: there is none.
 */
static int node_with_room(const struct g_truth *t, int aggr, int k, u32 *node)
{
	int h, n = 0;

	for (h = 0; h < t->nhnf; h++)
		n += aggr * g_truth_xp_hnfs(t, t->node[h]) < G_DTM_COUNTERS;
	if (!n)
		return -1;
	k %= n;
	for (h = 0; h < t->nhnf; h++) {
		if (aggr * g_truth_xp_hnfs(t, t->node[h]) >= G_DTM_COUNTERS)
			continue;
		if (!k--) {
			*node = t->node[h];
			return 0;
		}
	}
	return -1;
}

/*
 * The events of one mesh: aggregated, one HN-F (on an XP with a DTM counter
 * left beside the aggregated event), and optionally cycles
 */
static int open_mesh_events(struct sev *ev, const struct g_pmu *p, int k,
			    bool cycles_too)
{
	const struct g_truth *t = tr[p->mesh];
	static const unsigned int evs[] = {
		0x01, 0x02, 0x03, 0x05, 0x06, 0x0d, 0x0f, 0x04, 0x14, 0x1f,
	};
	unsigned int e1 = evs[k % G_ARRAY_SIZE(evs)];
	unsigned int e2 = evs[(k + 3) % G_ARRAY_SIZE(evs)];
	unsigned int occ = e1 == G_EV_OCCUPANCY ? (unsigned int)k % G_NOCC : 0;
	u32 node;
	int n = 0;

	if (!open_ev(&ev[n], p, G_CFG(e1, occ, 0, 0, G_TYPE_HNF), "all HN-Fs"))
		n++;
	if (node_with_room(t, 1, k, &node))
		g_note("%s: no XP keeps one of its %d DTM counters free: no one-HN-F event",
		       p->name, G_DTM_COUNTERS);
	else if (!open_ev(&ev[n], p, G_CFG(e2, 0, 1, node, G_TYPE_HNF),
			  "one HN-F"))
		n++;
	if (cycles_too &&
	    !open_ev(&ev[n], p, G_CFG(0, 0, 0, 0, G_TYPE_CYCLES), "dtc_cycles"))
		n++;
	return n;
}

static void enable_all(struct sev *ev, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ev[i].base = truth_of(&ev[i]);
		if (ioctl(ev[i].fd, PERF_EVENT_IOC_ENABLE, 0))
			result("enable", false, "%s: %s", ev[i].name,
			       g_errname(errno));
	}
}

static void do_step(void)
{
	int r = g_model_step(step);

	if (r)
		g_die("model step: %s", g_errname(-r));
}

/* ---- interrupts ------------------------------------------------------- */

static void check_irqs(const char *when)
{
	struct g_pmu p[G_MAX_MESHES];
	int n = g_hnf_pmus(p, G_MAX_MESHES), i, j, nirq, cpu, eff;
	int irq[G_MAX_IRQS];

	for (i = 0; i < n; i++) {
		cpu = g_pmu_cpu(p[i].name);
		result("cpumask_online", cpu >= 0 && g_cpu_online(cpu) == 1,
		       "%s: %s counts on CPU %d, not online", when, p[i].name,
		       cpu);
		nirq = g_irqs_of(p[i].name, irq, G_MAX_IRQS);
		result("irq_follows_cpu", nirq > 0,
		       "%s: %s has no interrupt in /proc/interrupts", when,
		       p[i].name);
		for (j = 0; j < nirq; j++) {
			eff = g_irq_effective_cpu(irq[j]);
			result("irq_follows_cpu", eff == cpu,
			       "%s: IRQ %d of %s is delivered to CPU %d, cpumask is %d",
			       when, irq[j], p[i].name, eff, cpu);
		}
	}
}

/* ---- load ------------------------------------------------------------- */

static int wait_pmus(int want, struct g_pmu *p)
{
	double end = g_now() + 5;
	int n;

	do {
		n = g_hnf_pmus(p, G_MAX_MESHES);
		if (n >= want)
			return n;
		usleep(20000);
	} while (g_now() < end);
	return n;
}

static int cmd_load(const char *ko)
{
	int nm = g_model_meshes(), k, m, n, i, fd;
	struct sev ev[G_MAX_MESHES * MAX_EV];
	struct g_pmu p[G_MAX_MESHES];
	char path[128];
	double t0 = g_now();

	if (!ko)
		g_die("load: -k KO is required");
	for (k = 0; k < cycles; k++) {
		fd = open(ko, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			g_die("cannot open %s: %s", ko, g_errname(errno));
		if (syscall(__NR_finit_module, fd, "", 0)) {
			result("load", false, "cycle %d: finit_module: %s", k,
			       g_errname(errno));
			close(fd);
			break;
		}
		close(fd);
		n = wait_pmus(nm, p);
		result("load", n == nm, "cycle %d: %d PMUs for %d meshes", k,
		       n, nm);
		check_irqs("after probe");
		read_truths(nm);
		for (m = 0, i = 0; m < n; m++)
			i += open_mesh_events(&ev[i], &p[m], k + m, m == 0);
		enable_all(ev, i);
		do_step();
		read_truths(nm);
		expect_exact("count_exact", ev, i, "load cycle", true);
		while (i--)
			close_ev(&ev[i]);
		if (syscall(__NR_delete_module, "arm_cmn_hnf", O_NONBLOCK)) {
			result("unload", false, "cycle %d: delete_module: %s", k,
			       g_errname(errno));
			break;
		}
		snprintf(path, sizeof(path), G_PMUS "/%s0", G_PREFIX);
		result("unload", access(path, F_OK) != 0,
		       "cycle %d: %s still there after unload", k, path);
		if (g_kmsg_scan(&km, "arm_cmn_hnf"))
			break;
	}
	printf("total load_cycles %d\n", k);
	g_note("%d load/count/unload cycles in %.1f s", k, g_now() - t0);
	return report();
}

/* ---- hotplug ---------------------------------------------------------- */

static int open_all_meshes(struct sev *ev, struct g_pmu *p, int *np)
{
	int m, i = 0;

	*np = g_hnf_pmus(p, G_MAX_MESHES);
	if (!*np)
		g_die("no %s<n> PMU: load the driver first", G_PREFIX);
	read_truths(g_model_meshes());
	for (m = 0; m < *np; m++)
		i += open_mesh_events(&ev[i], &p[m], m, true);
	return i;
}

static void hotplug_manual(struct sev *ev, int n, struct g_pmu *p, int np,
			   int *nhp)
{
	int k, cpu, nm = g_model_meshes(), r;
	char when[96];

	for (k = 0; k < cycles; k++) {
		do_step();
		read_truths(nm);
		expect_exact("count_exact", ev, n, "before offline", false);

		cpu = g_pmu_cpu(p[k % np].name);
		if (g_nonline() < 2) {
			result("hotplug", false, "only one CPU online");
			return;
		}
		r = g_cpu_set_online(cpu, false);
		result("hotplug", !r, "offline cpu%d: %s", cpu, g_errname(-r));
		(*nhp)++;
		snprintf(when, sizeof(when), "cycle %d, cpu%d offline", k, cpu);
		check_irqs(when);
		result("cpumask_moved", g_pmu_cpu(p[k % np].name) != cpu,
		       "%s: %s still counts on cpu%d", when, p[k % np].name,
		       cpu);
		do_step();
		read_truths(nm);
		expect_exact("count_exact", ev, n, when, false);

		r = g_cpu_set_online(cpu, true);
		result("hotplug", !r, "online cpu%d: %s", cpu, g_errname(-r));
		(*nhp)++;
		snprintf(when, sizeof(when), "cycle %d, cpu%d back online", k,
			 cpu);
		check_irqs(when);
		do_step();
		read_truths(nm);
		expect_exact("count_exact", ev, n, when, false);
	}
}

/* Free clock: reads monotonic and within the truth since the open */
static void free_reads(struct sev *ev, int n, const char *when)
{
	int nm = g_model_meshes(), i;
	u64 v[G_MAX_MESHES * MAX_EV];

	for (i = 0; i < n; i++)
		v[i] = read_ev(&ev[i]);
	read_truths(nm);
	for (i = 0; i < n; i++) {
		result("count_monotonic", v[i] >= ev[i].last,
		       "%s: %s went down from %llu to %llu", when, ev[i].name,
		       ev[i].last, v[i]);
		result("count_within_truth", v[i] <= truth_of(&ev[i]) - ev[i].base,
		       "%s: %s counted %llu, the model produced %llu", when,
		       ev[i].name, v[i], truth_of(&ev[i]) - ev[i].base);
		ev[i].last = v[i];
	}
}

static void hotplug_free(struct sev *ev, int n, struct g_pmu *p, int np,
			 int *nhp)
{
	int k, cpu, r, i, nm = g_model_meshes();
	u64 c0[G_MAX_MESHES * MAX_EV], en0[G_MAX_MESHES * MAX_EV];
	u64 run0[G_MAX_MESHES * MAX_EV];
	char when[96];

	if (g_model_clock("free constant"))
		g_die("cannot start the model's free clock");
	for (k = 0; k < cycles; k++) {
		cpu = g_pmu_cpu(p[k % np].name);
		r = g_cpu_set_online(cpu, false);
		result("hotplug", !r, "offline cpu%d: %s", cpu, g_errname(-r));
		(*nhp)++;
		snprintf(when, sizeof(when), "free cycle %d, cpu%d offline", k,
			 cpu);
		check_irqs(when);
		free_reads(ev, n, when);
		r = g_cpu_set_online(cpu, true);
		result("hotplug", !r, "online cpu%d: %s", cpu, g_errname(-r));
		(*nhp)++;
		snprintf(when, sizeof(when), "free cycle %d, cpu%d online", k,
			 cpu);
		check_irqs(when);
		free_reads(ev, n, when);
	}
	if (g_model_clock("manual"))
		g_die("cannot stop the model's free clock");
	/* after the storm, one step must still count exactly */
	for (i = 0; i < n; i++) {
		c0[i] = read_ev(&ev[i]);
		en0[i] = ev[i].enabled;
		run0[i] = ev[i].running;
	}
	read_truths(nm);
	for (i = 0; i < n; i++)
		ev[i].base = truth_of(&ev[i]);
	do_step();
	read_truths(nm);
	for (i = 0; i < n; i++) {
		u64 got = read_ev(&ev[i]) - c0[i];
		u64 want = truth_of(&ev[i]) - ev[i].base;

		exact("count_exact_after", "the last step", ev[i].name, got,
		      want, ev[i].enabled - en0[i], ev[i].running - run0[i]);
	}
}

static int cmd_hotplug(bool free_clock)
{
	struct sev ev[G_MAX_MESHES * MAX_EV];
	struct g_pmu p[G_MAX_MESHES];
	int n, np, nhp = 0;
	double t0 = g_now();

	n = open_all_meshes(ev, p, &np);
	enable_all(ev, n);
	check_irqs("before hotplug");
	if (free_clock)
		hotplug_free(ev, n, p, np, &nhp);
	else
		hotplug_manual(ev, n, p, np, &nhp);
	while (n--)
		close_ev(&ev[n]);
	printf("total hotplug_operations %d\n", nhp);
	g_note("%d offline/online cycles (%d hotplug operations) on %d PMUs, %s clock, in %.1f s",
	       cycles, nhp, np, free_clock ? "free" : "manual", g_now() - t0);
	return report();
}

/* ---- two processes ---------------------------------------------------- */

struct proc {
	pid_t pid;
	int cmd, ans;		/* parent's ends of the pipes */
};

/*
 * Child: open the events, enable them, answer "READY"; then on 'r' print
 * the counts, on 'q' close and exit.
 */
static void child_loop(int cmd, int ans, const struct g_pmu *p, int nev,
		       const u64 *configs)
{
	struct sev ev[MAX_EV];
	char c, buf[256];
	int i, len;

	for (i = 0; i < nev; i++) {
		if (open_ev(&ev[i], p, configs[i], "child"))
			_exit(3);
		if (ioctl(ev[i].fd, PERF_EVENT_IOC_ENABLE, 0))
			_exit(3);
	}
	if (write(ans, "READY\n", 6) != 6)
		_exit(3);
	while (read(cmd, &c, 1) == 1) {
		if (c == 'q')
			break;
		len = 0;
		for (i = 0; i < nev; i++) {
			u64 v = read_ev(&ev[i]);

			len += snprintf(buf + len, sizeof(buf) - (size_t)len,
					"%llu %llu %llu ", v, ev[i].enabled,
					ev[i].running);
		}
		buf[len - 1] = '\n';
		if (write(ans, buf, (size_t)len) != len)
			_exit(3);
	}
	for (i = 0; i < nev; i++)
		close_ev(&ev[i]);
	_exit(0);
}

static int spawn(struct proc *pr, const struct g_pmu *p, int nev,
		 const u64 *configs)
{
	int c[2], a[2];
	char buf[16];

	if (pipe(c) || pipe(a))
		g_die("pipe: %s", g_errname(errno));
	fflush(stdout);
	pr->pid = fork();
	if (pr->pid < 0)
		g_die("fork: %s", g_errname(errno));
	if (!pr->pid) {
		close(c[1]);
		close(a[0]);
		child_loop(c[0], a[1], p, nev, configs);
	}
	close(c[0]);
	close(a[1]);
	pr->cmd = c[1];
	pr->ans = a[0];
	if (read(pr->ans, buf, 6) != 6 || strncmp(buf, "READY\n", 6))
		return -1;
	return 0;
}

/* Each event's count, time enabled and time running: 3 * @nev numbers */
static int ask(struct proc *pr, u64 *v, int nev)
{
	char buf[256], *s = buf;
	ssize_t n;
	int i;

	if (write(pr->cmd, "r", 1) != 1)
		return -1;
	n = read(pr->ans, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	for (i = 0; i < 3 * nev; i++)
		v[i] = strtoull(s, &s, 10);
	return 0;
}

static int finish_proc(struct proc *pr)
{
	int st;

	if (write(pr->cmd, "q", 1) != 1)
		return -1;
	close(pr->cmd);
	close(pr->ans);
	if (waitpid(pr->pid, &st, 0) != pr->pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st))
		return -1;
	return 0;
}

static void expect_proc(const char *who, const u64 *got, const u64 *configs,
			const u64 *base, int nev, const char *when)
{
	u64 want;
	int i;

	char name[64];

	for (i = 0; i < nev; i++) {
		want = g_truth_of_config(tr[0], configs[i]) - base[i];
		snprintf(name, sizeof(name), "process %s event 0x%llx", who,
			 configs[i]);
		exact("exact", when, name, got[3 * i], want, got[3 * i + 1],
		      got[3 * i + 2]);
	}
}

static int cmd_twoproc(void)
{
	struct g_pmu p[G_MAX_MESHES];
	struct proc a, b, c;
	u64 cfg_a[1], cfg_b[2], base_a[1], base_b[2], base_c[1], v[6];
	int np = g_hnf_pmus(p, G_MAX_MESHES), busy;
	u32 node;

	if (!np)
		g_die("no %s<n> PMU: load the driver first", G_PREFIX);
	read_truths(1);
	/* A's and B's aggregated events take two counters per HN-F of an XP */
	busy = g_truth_xp_hnfs_max(tr[0]);
	if (2 * busy > G_DTM_COUNTERS) {
		skipped("exact",
			"%s: XP with %d HN-Fs: two all-HN-F events need %d DTM counters of %d",
			p[0].name, busy, 2 * busy, G_DTM_COUNTERS);
		skipped("close", "no two processes count at once (see exact)");
		return report();
	}
	if (node_with_room(tr[0], 2, 0, &node)) {
		skipped("exact",
			"%s: no XP with a single HN-F: two all-HN-F events and one on an HN-F need 5 DTM counters of %d",
			p[0].name, G_DTM_COUNTERS);
		skipped("close", "no two processes count at once (see exact)");
		return report();
	}
	cfg_a[0] = G_CFG(0x01, 0, 0, 0, G_TYPE_HNF);
	cfg_b[0] = cfg_a[0];
	cfg_b[1] = G_CFG(0x0d, 0, 1, node, G_TYPE_HNF);

	/* the clock is manual: nothing moves while A and B set up */
	if (spawn(&a, &p[0], 1, cfg_a) || spawn(&b, &p[0], 2, cfg_b)) {
		result("exact", false, "a child could not open its events");
		return report();
	}
	read_truths(1);
	base_a[0] = g_truth_of_config(tr[0], cfg_a[0]);
	base_b[0] = base_a[0];
	base_b[1] = g_truth_of_config(tr[0], cfg_b[1]);

	do_step();
	read_truths(1);
	if (ask(&a, v, 1))
		g_die("process A does not answer");
	expect_proc("A", v, cfg_a, base_a, 1, "both counting");
	if (ask(&b, v, 2))
		g_die("process B does not answer");
	expect_proc("B", v, cfg_b, base_b, 2, "both counting");

	result("close", !finish_proc(&b),
	       "process B did not close and exit cleanly");
	do_step();
	read_truths(1);
	if (ask(&a, v, 1))
		g_die("process A does not answer");
	expect_proc("A", v, cfg_a, base_a, 1, "after B closed");

	if (spawn(&c, &p[0], 1, cfg_a)) {
		result("exact", false, "process C could not open");
		return report();
	}
	read_truths(1);
	base_c[0] = g_truth_of_config(tr[0], cfg_a[0]);
	do_step();
	read_truths(1);
	if (ask(&a, v, 1))
		g_die("process A does not answer");
	expect_proc("A", v, cfg_a, base_a, 1, "with C");
	if (ask(&c, v, 1))
		g_die("process C does not answer");
	expect_proc("C", v, cfg_a, base_c, 1, "with C");
	result("close", !finish_proc(&a) && !finish_proc(&c),
	       "process A or C did not close and exit cleanly");
	return report();
}

static void print_usage(void)
{
	fprintf(stderr, "usage: cmn-stress load -k KO [-n CYCLES] [-N STEP]\n"
			"       cmn-stress hotplug [-n CYCLES] [-N STEP] [-F]\n"
			"       cmn-stress twoproc [-N STEP]\n"
			"       cmn-stress irqs\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *cmd, *ko = NULL;
	bool free_clock = false;
	int i, opt;

	g_prog = "cmn-stress";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		print_usage();
	cmd = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "k:n:N:F")) != -1) {
		switch (opt) {
		case 'k':
			ko = optarg;
			break;
		case 'n':
			cycles = atoi(optarg);
			break;
		case 'N':
			step = strtoull(optarg, NULL, 0);
			break;
		case 'F':
			free_clock = true;
			break;
		default:
			print_usage();
		}
	}
	if (optind != argc)
		print_usage();
	for (i = 0; i < G_MAX_MESHES; i++) {
		tr[i] = calloc(1, sizeof(*tr[i]));
		if (!tr[i])
			g_die("out of memory");
	}
	signal(SIGPIPE, SIG_IGN);
	g_kmsg_open(&km);
	if (!strcmp(cmd, "irqs")) {
		check_irqs("now");
		return report();
	}
	if (!g_model_present() || !g_model_meshes())
		g_die("the CMN-600 model is not loaded");
	if (!strcmp(cmd, "load"))
		return cmd_load(ko);
	if (!strcmp(cmd, "hotplug"))
		return cmd_hotplug(free_clock);
	if (!strcmp(cmd, "twoproc"))
		return cmd_twoproc();
	print_usage();
}
