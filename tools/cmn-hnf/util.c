// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers: paths under a configurable sysfs/procfs root, file
 * reading, number parsing and JSON string output.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmn-hnf.h"

const char *cmn_sysfs_root = "/sys";
const char *cmn_proc_root = "/proc";
const char *cmn_prog = "cmn-hnf";

void cmn_set_roots_from_env(void)
{
	const char *s;

	s = getenv("CMN_HNF_SYSFS_ROOT");
	if (s && *s)
		cmn_sysfs_root = s;
	s = getenv("CMN_HNF_PROC_ROOT");
	if (s && *s)
		cmn_proc_root = s;
}

static void root_path(char *buf, size_t len, const char *root,
		      const char *fmt, va_list ap)
{
	int n = snprintf(buf, len, "%s/", root);

	if (n < 0 || (size_t)n >= len) {
		buf[0] = '\0';
		return;
	}
	vsnprintf(buf + n, len - n, fmt, ap);
}

void cmn_sys_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	root_path(buf, len, cmn_sysfs_root, fmt, ap);
	va_end(ap);
}

void cmn_proc_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	root_path(buf, len, cmn_proc_root, fmt, ap);
	va_end(ap);
}

int cmn_read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return n;
		}
		if (!n)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	while (got && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
		buf[--got] = '\0';
	return (int)got;
}

int cmn_parse_u64(const char *s, uint64_t *val)
{
	unsigned long long v;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*val = v;
	return 0;
}

int cmn_read_long(const char *path, long *val)
{
	char buf[64];
	char *end;
	long v;
	int ret;

	ret = cmn_read_file(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || end == buf || *end)
		return -EINVAL;
	*val = v;
	return 0;
}

int cmn_cpulist_first(const char *s)
{
	char *end;
	long v;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtol(s, &end, 10);
	if (v < 0 || v > 65535)
		return -1;
	return (int)v;
}

bool cmn_isatty(FILE *f)
{
	return isatty(fileno(f));
}

void cmn_link_base(const char *path, char *buf, size_t len)
{
	char link[CMN_PATH_LEN], *slash;
	ssize_t n;

	buf[0] = '\0';
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	slash = strrchr(link, '/');
	snprintf(buf, len, "%s", slash ? slash + 1 : link);
}

bool cmn_is_cmn600_modalias(const char *modalias)
{
	return strstr(modalias, "ARMHC600") || strstr(modalias, "arm,cmn-600");
}

double cmn_nice_ceil(double v)
{
	static const double m[] = { 1, 2, 2.5, 5, 10 };
	double p = pow(10, floor(log10(v)));
	size_t i;

	if (!(v > 0) || isinf(v))
		return 1;
	for (i = 0; i < ARRAY_SIZE(m); i++)
		if (m[i] * p >= v * 0.999999999999)
			return m[i] * p;
	return 10 * p;
}

const char *cmn_hex(unsigned int v, char *buf)
{
	snprintf(buf, 16, "0x%x", v);
	return buf;
}

double cmn_epoch_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define CMN_FIX_PERFMON \
	"run as root (sudo), give CAP_PERFMON, or lower the level to 0 " \
	"(sysctl kernel.perf_event_paranoid=0)"
#define CMN_FIX_SYSADMIN \
	"run as root (sudo): at this level only CAP_SYS_ADMIN may count, " \
	"CAP_PERFMON is not enough; or lower the level to 2 " \
	"(sysctl kernel.perf_event_paranoid=2, a file in /etc/sysctl.d/ " \
	"for good) so that CAP_PERFMON suffices"

enum cmn_perm cmn_perm_needed(long paranoid)
{
	if (paranoid <= 0)
		return CMN_PERM_ANYONE;
	return paranoid <= 2 ? CMN_PERM_PERFMON : CMN_PERM_SYSADMIN;
}

int cmn_read_paranoid(long *paranoid)
{
	char path[CMN_PATH_LEN];

	cmn_proc_path(path, sizeof(path), "sys/kernel/perf_event_paranoid");
	return cmn_read_long(path, paranoid);
}

bool cmn_has_cap(int cap)
{
	char path[CMN_PATH_LEN], *buf, *line;
	bool ret = false;

	buf = malloc(8192);
	if (!buf)
		return false;
	cmn_proc_path(path, sizeof(path), "self/status");
	if (cmn_read_file(path, buf, 8192) >= 0) {
		line = strstr(buf, "\nCapEff:");
		if (line)
			ret = (strtoull(line + 8, NULL, 16) >> cap) & 1;
	}
	free(buf);
	return ret;
}

bool cmn_perm_allows(long paranoid, bool perfmon, bool sysadmin)
{
	switch (cmn_perm_needed(paranoid)) {
	case CMN_PERM_ANYONE:
		return true;
	case CMN_PERM_PERFMON:
		return perfmon || sysadmin;
	default:
		return sysadmin;
	}
}

const char *cmn_perm_fix(long paranoid)
{
	switch (cmn_perm_needed(paranoid)) {
	case CMN_PERM_ANYONE:
		return "any user may count";
	case CMN_PERM_PERFMON:
		return CMN_FIX_PERFMON;
	default:
		return CMN_FIX_SYSADMIN;
	}
}
