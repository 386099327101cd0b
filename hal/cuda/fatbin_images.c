#include "fatbin_images.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define FATBIN_MAGIC 0xBA55ED50u

static uint64_t get(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--) {
		v = v << 8 | p[i];
	}
	return v;
}

int jd_fatbin_images(const void *blob, size_t n, struct jd_fatbin_image *out, int max)
{
	const unsigned char *p = blob;
	size_t at = 0;
	int found = 0;

	while (at + 16 <= n && get(p + at, 4) == FATBIN_MAGIC) {
		size_t hs = (size_t)get(p + at + 6, 2), size = (size_t)get(p + at + 8, 8);
		size_t e = at + hs, end = at + hs + size;
		if (hs < 16 || size > n || end > n) {
			return -EINVAL;
		}
		while (e + 32 <= end) {
			size_t ehs = (size_t)get(p + e + 4, 4), psize = (size_t)get(p + e + 8, 8);
			if (ehs < 32 || psize > end || e + ehs + psize > end) {
				return -EINVAL;
			}
			struct jd_fatbin_image im = {(enum jd_fatbin_kind)get(p + e, 2),
						     (int)get(p + e + 28, 4),
						     0,
						     0,
						     -1,
						     -1};
			if (im.kind == JD_FATBIN_PTX) {
				im.ptx_minor = (int)get(p + e + 24, 2);
				im.ptx_major = (int)get(p + e + 26, 2);
			} else if (im.kind == JD_FATBIN_ELF && psize >= 16 &&
				   !memcmp(p + e + ehs,
					   "\x7f"
					   "ELF",
					   4)) {
				im.elf_osabi = p[e + ehs + 7];
				im.elf_abi_version = p[e + ehs + 8];
			}
			if (found < max) {
				out[found] = im;
			}
			found++;
			e += ehs + psize;
		}
		at = end;
	}
	return at == 0 ? -EINVAL : found; /* not even one fatbin header */
}

int jd_fatbin_ptx_driver(int major, int minor)
{
	/* PTX ISA -> the CUDA release that introduced it (its driver is the oldest to JIT it) */
	static const int table[][3] = {{7, 4, 11040}, {7, 5, 11050}, {7, 6, 11060}, {7, 7, 11070},
				       {7, 8, 11080}, {8, 0, 12000}, {8, 1, 12010}, {8, 2, 12020},
				       {8, 3, 12030}, {8, 4, 12040}, {8, 5, 12050}, {8, 6, 12070},
				       {8, 7, 12080}, {8, 8, 12090}, {9, 0, 13000}, {9, 1, 13010},
				       {9, 2, 13020}};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (table[i][0] == major && table[i][1] == minor) {
			return table[i][2];
		}
	}
	return major < 7 || (major == 7 && minor < 4) ? 11000 : 0;
}

/* JetPack on Orin by the CUDA driver it brings */
static const char *jetpack(int cuda)
{
	return cuda <= 11040   ? "JetPack 5.1+ on Orin"
	       : cuda <= 12060 ? "JetPack 6 on Orin"
			       : "JetPack 7.2 on Orin, 7.x on Thor";
}

int jd_fatbin_needs(const struct jd_fatbin_image *im, int n, int sm, char *buf, size_t len)
{
	int cubin = 0, ptx = 0;

	for (int i = 0; i < n; i++) {
		if (im[i].kind == JD_FATBIN_ELF && im[i].sm == sm) {
			/* CUDA 13's cubins (ABI 8) need a CUDA 13 driver; older ones an 11.x or
			 * newer */
			int v = im[i].elf_abi_version >= 8 ? 13000 : 11040;
			cubin = cubin && cubin < v ? cubin : v;
		}
		if (im[i].kind == JD_FATBIN_PTX && im[i].sm <= sm) {
			int v = jd_fatbin_ptx_driver(im[i].ptx_major, im[i].ptx_minor);
			v = v ? v : 99000;
			ptx = ptx && ptx < v ? ptx : v;
		}
	}
	int need = cubin && (!ptx || cubin <= ptx) ? cubin : ptx;
	if (!need) {
		snprintf(buf, len,
			 "this build has no kernels for sm_%d (no cubin, no PTX it can JIT)", sm);
		return 0;
	}
	snprintf(buf, len,
		 "this build's kernels for sm_%d (%s) need a CUDA %d.%d driver or newer (%s)", sm,
		 need == cubin ? "a cubin" : "PTX, compiled at load", need / 1000, need % 1000 / 10,
		 jetpack(need));
	return need;
}
