// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side helpers shared by the abuse tests; see guest.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

const char *g_prog = "cmn-abuse";

void g_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", g_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* Context lines: "# ..." on stdout, never taken for a result */
void g_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("# ", stdout);
	vfprintf(stdout, fmt, ap);
	fputc('\n', stdout);
	va_end(ap);
	fflush(stdout);
}

void g_strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int g_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	size_t tot = 0;
	int e;

	if (fd < 0)
		return -errno;
	while (tot < len - 1) {
		n = read(fd, buf + tot, len - 1 - tot);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		tot += (size_t)n;
	}
	buf[tot] = '\0';
	close(fd);
	return (int)tot;
}

int g_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(s);
	ssize_t n;
	int e = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		e = -errno;
	else if ((size_t)n != len)
		e = -EIO;
	if (close(fd) && !e)
		e = -errno;
	return e;
}

int g_read_int(const char *path, long long *v)
{
	char buf[64], *end;
	int n = g_read_file(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*v = strtoll(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

int g_write_int(const char *path, long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld\n", v);
	return g_write_file(path, buf);
}

const char *g_errname(int e)
{
	const char *n;

	if (!e)
		return "OK";
	n = strerrorname_np(e);
	return n ? n : "E?";
}

/* A whole number, decimal or 0x-hex, with at most a newline after it */
u64 g_num(const char *s)
{
	char *end;
	u64 v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || (*end && *end != '\n'))
		g_die("bad number '%s'", s);
	return v;
}

double g_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int g_perf_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
		unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd,
			    flags);
}

/* ---- PMUs ------------------------------------------------------------- */

int g_pmu_cpu(const char *name)
{
	char path[256], buf[256];

	snprintf(path, sizeof(path), G_PMUS "/%s/cpumask", name);
	if (g_read_file(path, buf, sizeof(buf)) <= 0 || !isdigit(buf[0]))
		return -1;
	return atoi(buf);
}

/* A number given as "<key><value>" on a mesh line, or @def */
static unsigned long long g_mesh_field(const char *line, const char *key,
				       unsigned long long def)
{
	size_t klen = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key))) {
		if (p == line || p[-1] == ' ' || p[-1] == '\t')
			return strtoull(p + klen, NULL, 0);
		p += klen;
	}
	return def;
}

/*
 * The model mesh that PMU instance arm_cmn_hnf_<inst> counts, by the naming
 * rule the harness's shell tests use (lc_pmu in tools/testing/e2e/
 * lib-counts.sh): over ACPI <inst> is the mesh's _UID, over DT it is the rank
 * of the mesh's base address. The meshes come from the harness's resolved
 * mesh file, which gives every mesh its uid= and base=. Without that file,
 * instance <n> is mesh <n>. -1: no mesh has that instance.
 */
static int g_instance_mesh(int inst)
{
	unsigned long long base[G_MAX_MESHES], uid[G_MAX_MESHES];
	const char *fw = getenv("CMN_FW");
	bool acpi = fw && !strcmp(fw, "acpi");
	FILE *f = fopen(G_MESH_FILE, "r");
	char line[512];
	int n = 0, i, j, rank;

	if (!f)
		return inst;
	while (n < G_MAX_MESHES && fgets(line, sizeof(line), f)) {
		const char *p = line + strspn(line, " \t");

		if (strncmp(p, "mesh", 4) || (p[4] != ' ' && p[4] != '\t'))
			continue;
		uid[n] = g_mesh_field(p, "uid=", (unsigned long long)n);
		base[n] = g_mesh_field(p, "base=", (unsigned long long)n);
		n++;
	}
	fclose(f);
	for (i = 0; i < n; i++) {
		if (acpi) {
			if (uid[i] == (unsigned long long)inst)
				return i;
			continue;
		}
		for (rank = 0, j = 0; j < n; j++)
			rank += base[j] < base[i];
		if (rank == inst)
			return i;
	}
	return -1;
}

int g_pmu_type(const char *name)
{
	char path[256];
	long long t;

	snprintf(path, sizeof(path), G_PMUS "/%s/type", name);
	if (g_read_int(path, &t) || t < 0 || t > INT_MAX)
		return -1;
	return (int)t;
}

static int g_pmu_fill(struct g_pmu *p, const char *name)
{
	g_strlcpy(p->name, name, sizeof(p->name));
	p->type = g_pmu_type(name);
	if (p->type < 0)
		return -1;
	p->cpu = g_pmu_cpu(name);
	p->mesh = -1;
	if (!strncmp(name, G_PREFIX, strlen(G_PREFIX)))
		p->mesh = g_instance_mesh(atoi(name + strlen(G_PREFIX)));
	return 0;
}

static int g_pmu_cmp(const void *a, const void *b)
{
	const struct g_pmu *x = a, *y = b;

	if (x->mesh != y->mesh)
		return x->mesh < y->mesh ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int g_pmus_filtered(struct g_pmu *out, int max, bool hnf_only)
{
	DIR *d = opendir(G_PMUS);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] == '.')
			continue;
		if (hnf_only &&
		    strncmp(de->d_name, G_PREFIX, strlen(G_PREFIX)))
			continue;
		if (g_pmu_fill(&out[n], de->d_name))
			continue;
		if (hnf_only && out[n].mesh < 0)
			g_die("%s matches no mesh of %s (CMN_FW=%s)", de->d_name,
			      G_MESH_FILE, getenv("CMN_FW") ?: "unset");
		n++;
	}
	closedir(d);
	qsort(out, (size_t)n, sizeof(*out), g_pmu_cmp);
	return n;
}

int g_pmus(struct g_pmu *out, int max)
{
	return g_pmus_filtered(out, max, false);
}

int g_hnf_pmus(struct g_pmu *out, int max)
{
	return g_pmus_filtered(out, max, true);
}

/* ---- the model -------------------------------------------------------- */

bool g_model_present(void)
{
	return access(G_MODEL "/step", W_OK) == 0;
}

int g_model_meshes(void)
{
	char path[128];
	int i;

	for (i = 0; i < G_MAX_MESHES; i++) {
		snprintf(path, sizeof(path), G_MODEL "/mesh%d/truth", i);
		if (access(path, R_OK))
			break;
	}
	return i;
}

static char g_truthbuf[1 << 20];

int g_truth_read(int mesh, struct g_truth *t)
{
	char path[128], buf[256], *line, *save = NULL;
	int n, h;
	long long v;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), G_MODEL "/mesh%d/cycles", mesh);
	if (g_read_int(path, &v))
		return -1;
	t->cycles = (u64)v;
	snprintf(path, sizeof(path), G_MODEL "/mesh%d/info", mesh);
	if (g_read_file(path, buf, sizeof(buf)) > 0)
		sscanf(buf, "%d %d %15s", &t->x, &t->y, t->rev);
	snprintf(path, sizeof(path), G_MODEL "/mesh%d/truth", mesh);
	n = g_read_file(path, g_truthbuf, sizeof(g_truthbuf));
	if (n < 0)
		return -1;
	for (line = strtok_r(g_truthbuf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char fn[32], fe[32], fo[32], fc[32];
		unsigned long node, ev;
		int occ = 0;

		if (sscanf(line, "%31s %31s %31s %31s", fn, fe, fo, fc) != 4)
			continue;
		node = strtoul(fn, NULL, 16);
		ev = strtoul(fe, NULL, 16);
		if (ev == 0 || ev >= G_NEVENTS)
			continue;
		if (fo[0] != '-')
			occ = atoi(fo);
		if (occ < 0 || occ >= G_NOCC)
			continue;
		for (h = 0; h < t->nhnf; h++)
			if (t->node[h] == node)
				break;
		if (h == t->nhnf) {
			if (t->nhnf == G_MAX_HNFS)
				return -1;
			t->node[t->nhnf++] = (u32)node;
		}
		t->cnt[h][ev][occ] = strtoull(fc, NULL, 10);
	}
	return t->nhnf ? 0 : -1;
}

u64 g_truth_sum(const struct g_truth *t, unsigned int ev, int occ, int node)
{
	u64 s = 0;
	int h, c;

	if (ev == 0 || ev >= G_NEVENTS)
		return 0;
	for (h = 0; h < t->nhnf; h++) {
		if (node >= 0 && t->node[h] != (u32)node)
			continue;
		for (c = 0; c < G_NOCC; c++)
			if (occ < 0 || c == occ)
				s += t->cnt[h][ev][c];
	}
	return s;
}

int g_truth_has_node(const struct g_truth *t, unsigned int node)
{
	int h;

	for (h = 0; h < t->nhnf; h++)
		if (t->node[h] == node)
			return 1;
	return 0;
}

int g_truth_xp_hnfs(const struct g_truth *t, u32 node)
{
	int h, n = 0;

	for (h = 0; h < t->nhnf; h++)
		n += G_XP_OF(t->node[h]) == G_XP_OF(node);
	return n;
}

int g_truth_xp_hnfs_max(const struct g_truth *t)
{
	int h, n, max = 0;

	for (h = 0; h < t->nhnf; h++) {
		n = g_truth_xp_hnfs(t, t->node[h]);
		if (n > max)
			max = n;
	}
	return max;
}

/*
 * The model keeps one truth line per occupancy class for event 0x0f, and
 * class 0 ("all requests") is a class of its own. Any other event has its
 * count in class 0.
 */
u64 g_truth_of_config(const struct g_truth *t, u64 config)
{
	unsigned int ev = G_CFG_EVENTID(config);
	int node = G_CFG_BYNODEID(config) ? (int)G_CFG_NODEID(config) : -1;

	if (G_CFG_TYPE(config) == G_TYPE_CYCLES)
		return t->cycles;
	return g_truth_sum(t, ev, ev == G_EV_OCCUPANCY ?
			   (int)G_CFG_OCCUPID(config) : 0, node);
}

int g_model_step(u64 cycles)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu\n", cycles);
	return g_write_file(G_MODEL "/step", buf);
}

int g_model_clock(const char *mode)
{
	return g_write_file(G_MODEL "/clock", mode);
}

int g_model_rate(int mesh, const char *line)
{
	char path[128];

	snprintf(path, sizeof(path), G_MODEL "/mesh%d/rate", mesh);
	return g_write_file(path, line);
}

u64 g_model_irqs(int mesh)
{
	char path[128], buf[512], *p;
	u64 s = 0;

	snprintf(path, sizeof(path), G_MODEL "/mesh%d/irqs", mesh);
	if (g_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (p = buf; (p = strchr(p, ' ')); p++)
		s += strtoull(p + 1, NULL, 10);
	return s;
}

/* ---- interrupts ------------------------------------------------------- */

static char g_irqbuf[1 << 16];

int g_irqs_of(const char *name, int *irqs, int max)
{
	char *line, *save = NULL, *last, *p;
	int n = 0;

	if (g_read_file("/proc/interrupts", g_irqbuf, sizeof(g_irqbuf)) <= 0)
		return 0;
	for (line = strtok_r(g_irqbuf, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		p = line + strlen(line);
		while (p > line && isspace((unsigned char)p[-1]))
			*--p = '\0';
		last = strrchr(line, ' ');
		if (!last || strcmp(last + 1, name))
			continue;
		while (isspace((unsigned char)*line))
			line++;
		if (isdigit((unsigned char)*line))
			irqs[n++] = atoi(line);
	}
	return n;
}

/* The single CPU of effective_affinity_list, -1 if it is not one CPU */
int g_irq_effective_cpu(int irq)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity_list",
		 irq);
	if (g_read_file(path, buf, sizeof(buf)) <= 0 || !isdigit(buf[0]))
		return -1;
	if (strpbrk(buf, ",-"))
		return -1;
	return atoi(buf);
}

/* ---- CPU hotplug ------------------------------------------------------ */

int g_ncpus(void)
{
	char buf[64], *dash;

	if (g_read_file(G_CPUS "/present", buf, sizeof(buf)) <= 0)
		return 1;
	dash = strrchr(buf, '-');
	return (dash ? atoi(dash + 1) : atoi(buf)) + 1;
}

int g_cpu_online(int cpu)
{
	char path[128];
	long long v;

	snprintf(path, sizeof(path), G_CPUS "/cpu%d/online", cpu);
	if (g_read_int(path, &v))
		return cpu == 0 ? 1 : -1;	/* no online file: cannot go */
	return (int)v;
}

int g_cpu_set_online(int cpu, bool on)
{
	char path[128];

	snprintf(path, sizeof(path), G_CPUS "/cpu%d/online", cpu);
	return g_write_int(path, on);
}

int g_nonline(void)
{
	int c, n = 0;

	for (c = 0; c < g_ncpus(); c++)
		n += g_cpu_online(c) == 1;
	return n;
}

/* ---- the kernel log --------------------------------------------------- */

static const char *const g_report_pats[] = {
	"BUG:", "WARNING:", "Oops", "KASAN", "kernel BUG", "Kernel panic",
	"Call trace:", "possible recursive locking", "inconsistent lock state",
	"circular locking", "lockdep", "UBSAN", "general protection",
	"Unable to handle kernel", "blocked for more than", "list_add corruption",
	"list_del corruption", "refcount_t:", "kmemleak", "double free",
	"use-after-free", "Bad page",
};

int g_kmsg_open(struct g_kmsg *k)
{
	memset(k, 0, sizeof(*k));
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	lseek(k->fd, 0, SEEK_END);
	return 0;
}

int g_kmsg_scan(struct g_kmsg *k, const char *also)
{
	char rec[2048], *msg;
	unsigned int i;
	int found = 0;
	ssize_t n;

	if (k->fd < 0)
		return 0;
	for (;;) {
		n = read(k->fd, rec, sizeof(rec) - 1);
		if (n < 0) {
			if (errno == EPIPE)	/* overwritten: go on */
				continue;
			break;
		}
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		msg[strcspn(msg, "\n")] = '\0';
		for (i = 0; i < G_ARRAY_SIZE(g_report_pats); i++)
			if (strstr(msg, g_report_pats[i]))
				break;
		if (i < G_ARRAY_SIZE(g_report_pats)) {
			if (!k->reports)
				g_strlcpy(k->first, msg, sizeof(k->first));
			k->reports++;
			found++;
			g_note("kernel report: %s", msg);
		} else if (also && strstr(msg, also)) {
			g_note("kernel: %s", msg);
		}
	}
	return found;
}

void g_kmsg_close(struct g_kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

/* ---- PRNG ------------------------------------------------------------- */

void g_rng_seed(struct g_rng *r, u64 seed)
{
	/* splitmix64 of the seed, never zero */
	u64 z = seed + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	r->s = (z ^ (z >> 31)) | 1;
}

u64 g_rng_next(struct g_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

u64 g_rng_below(struct g_rng *r, u64 n)
{
	return n ? g_rng_next(r) % n : 0;
}

bool g_rng_chance(struct g_rng *r, unsigned int permille)
{
	return g_rng_below(r, 1000) < permille;
}
