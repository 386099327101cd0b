/*
 * The fatbin a build embeds, read without a GPU (hal/cuda/fatbin_images.c), and the message
 * boot gives when a driver cannot load it:
 * - a hand-made fatbin: each image's kind, sm, ELF ABI and PTX version are read back, a cut
 *   or foreign blob is refused, and jd_fatbin_needs() names the driver and JetPack;
 * - the build's own kernels.fatbin (argv[1]), when its boards' images come from a toolkit
 *   before CUDA 13 (JD_TEST_LEGACY_ARCHS): each such sm has a pre-13 cubin (ELF ABI below
 *   8) and PTX whose ISA JetPack 6.0's driver (CUDA 12.2, PTX 8.2) compiles, and every other
 *   board's sm (Thor's sm_110) is there too. Built without one: that part skips, saying so.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../hal/cuda/fatbin_images.h"
#include "jd_test.h"

static size_t put(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++) {
		p[i] = (unsigned char)(v >> (8 * i));
	}
	return (size_t)bytes;
}

/* an entry: kind, sm, a PTX's version or an ELF's ABI bytes, and a 16-byte payload */
static size_t entry(unsigned char *p, int kind, int sm, int major, int minor, int abi)
{
	memset(p, 0, 64 + 16);
	put(p, (uint64_t)kind, 2);
	put(p + 4, 64, 4);
	put(p + 8, 16, 8);
	put(p + 24, (uint64_t)minor, 2);
	put(p + 26, (uint64_t)major, 2);
	put(p + 28, (uint64_t)sm, 4);
	if (kind == JD_FATBIN_ELF) {
		memcpy(p + 64,
		       "\x7f"
		       "ELF\x02\x01\x01",
		       7);
		p[64 + 7] = abi == 8 ? 0x41 : 0x33;
		p[64 + 8] = (unsigned char)abi;
	}
	return 64 + 16;
}

static void hand_made(void)
{
	unsigned char b[16 + 4 * 80];
	size_t n = 16;
	struct jd_fatbin_image im[8];
	char msg[300];

	n += entry(b + n, JD_FATBIN_ELF, 87, 0, 0, 7);
	n += entry(b + n, JD_FATBIN_PTX, 87, 7, 8, 0);
	n += entry(b + n, JD_FATBIN_ELF, 90, 0, 0, 8);
	n += entry(b + n, JD_FATBIN_PTX, 110, 9, 0, 0);
	put(b, 0xBA55ED50u, 4);
	put(b + 4, 1, 2);
	put(b + 6, 16, 2);
	put(b + 8, n - 16, 8);
	JD_CHECK(jd_fatbin_images(b, n, im, 8) == 4, "four images read back");
	JD_CHECK(im[0].kind == JD_FATBIN_ELF && im[0].sm == 87 && im[0].elf_osabi == 0x33 &&
		     im[0].elf_abi_version == 7,
		 "sm_87 cubin: OS/ABI 0x%x, ABI %d", im[0].elf_osabi, im[0].elf_abi_version);
	JD_CHECK(im[1].kind == JD_FATBIN_PTX && im[1].ptx_major == 7 && im[1].ptx_minor == 8,
		 "compute_87 PTX 7.8: %d.%d", im[1].ptx_major, im[1].ptx_minor);
	JD_CHECK(jd_fatbin_images(b, n - 1, im, 8) < 0, "a cut fatbin is refused");
	JD_CHECK(jd_fatbin_images("\x7f"
				  "ELF0000000000000",
				  16, im, 8) < 0,
		 "not a fatbin");
	int k = jd_fatbin_images(b, n, im, 8);
	JD_CHECK(jd_fatbin_needs(im, k, 87, msg, sizeof(msg)) == 11040 &&
		     strstr(msg, "CUDA 11.4 driver or newer (JetPack 5.1+ on Orin)"),
		 "sm_87: %s", msg);
	JD_CHECK(jd_fatbin_needs(im, k, 90, msg, sizeof(msg)) == 11080 && strstr(msg, "PTX"),
		 "sm_90: the 7.8 PTX is older than the CUDA 13 cubin: %s", msg);
	JD_CHECK(jd_fatbin_needs(im, k, 110, msg, sizeof(msg)) == 11080,
		 "sm_110: compute_87's PTX JITs there: %s", msg);
	JD_CHECK(jd_fatbin_needs(im, k, 75, msg, sizeof(msg)) == 0 && strstr(msg, "no kernels"),
		 "sm_75: %s", msg);
	JD_CHECK(jd_fatbin_ptx_driver(8, 2) == 12020 && jd_fatbin_ptx_driver(9, 0) == 13000,
		 "PTX ISA to driver");
}

/* sm in a comma-separated list of numbers */
static int in_list(const char *list, int sm)
{
	for (const char *s = list; *s; s += *s == ',') {
		if (atoi(s) == sm) {
			return 1;
		}
		while (*s && *s != ',') {
			s++;
		}
	}
	return 0;
}

static int built(const char *path)
{
#ifndef JD_TEST_LEGACY_ARCHS
	(void)path;
	(void)in_list;
	printf("skip: the build's fatbin: built without a toolkit before CUDA 13 "
	       "(JD_NVCC_LEGACY): its sm_87 image would load on JetPack 7.2 only\n");
	return 77;
#else
	FILE *f = fopen(path, "rb");
	static unsigned char buf[64 << 20];
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	struct jd_fatbin_image im[32];
	const char *legacy = JD_TEST_LEGACY_ARCHS, *all = JD_TEST_ARCHS;

	if (f) {
		fclose(f);
	}
	int k = jd_fatbin_images(buf, n, im, 32);
	JD_CHECK(k > 0 && k <= 32, "%s: %d images", path, k);
	for (int i = 0; i < k && i < 32; i++) {
		printf("  %s sm %d: %s %d.%d, ELF OS/ABI 0x%x ABI %d\n", path, im[i].sm,
		       im[i].kind == JD_FATBIN_PTX ? "PTX" : "cubin", im[i].ptx_major,
		       im[i].ptx_minor, im[i].elf_osabi, im[i].elf_abi_version);
	}
	for (const char *s = all; *s;) {
		int sm = atoi(s), cubin = 0, ptx = 0, old = in_list(legacy, sm);
		for (int i = 0; i < k && i < 32; i++) {
			if (im[i].sm != sm) {
				continue;
			}
			if (im[i].kind == JD_FATBIN_ELF) {
				cubin =
				    old ? im[i].elf_abi_version < 8 && im[i].elf_osabi != 0x41 : 1;
			} else if (old) {
				int need = jd_fatbin_ptx_driver(im[i].ptx_major, im[i].ptx_minor);
				ptx = need > 0 && need <= 12020;
			}
		}
		JD_CHECK(cubin, "sm_%d: a cubin%s", sm, old ? " of a toolkit before CUDA 13" : "");
		JD_CHECK(!old || ptx, "compute_%d: PTX that JetPack 6.0 (CUDA 12.2) compiles", sm);
		if (cubin && (!old || ptx)) {
			printf("ok: sm_%d: %s\n", sm,
			       old ? "a pre-13 cubin and PTX JetPack 6 compiles" : "a cubin");
		}
		while (*s && *s != ',') {
			s++;
		}
		s += *s == ',';
	}
	return 0;
#endif
}

int main(int argc, char **argv)
{
	hand_made();
	int rc = argc > 1 ? built(argv[1]) : 0;
	return jd_test_failures ? jd_test_done("fatbin_images")
	       : rc		? rc
				: jd_test_done("fatbin_images");
}
