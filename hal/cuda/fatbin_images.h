/*
 * The images a CUDA fatbin holds, read from its headers (no driver, no toolkit): which
 * toolkit generation made each cubin (its ELF OS/ABI and ABI version) and which PTX ISA each
 * PTX is in, so that boot can say which driver (JetPack) the kernels need when the module
 * does not load, and a test can check the boards' images without a GPU.
 *
 * Layout (as the toolkit's fatbinary writes it; little-endian): a header {u32 magic
 * 0xBA55ED50, u16 version, u16 header size, u64 size of the entries}, then entries {u16 kind
 * (1 PTX, 2 ELF), u16, u32 header size, u64 payload size, ... u16 minor and u16 major at 24
 * (a PTX's ISA version), u32 sm at 28}, each followed by its payload. Several fatbins may
 * follow one another.
 */
#ifndef JD_HAL_FATBIN_IMAGES_H
#define JD_HAL_FATBIN_IMAGES_H

#include <stddef.h>

enum jd_fatbin_kind { JD_FATBIN_PTX = 1, JD_FATBIN_ELF = 2 };

struct jd_fatbin_image {
	enum jd_fatbin_kind kind;
	int sm;				/* 87 for sm_87 / compute_87 */
	int ptx_major, ptx_minor;	/* PTX: the ISA version (7.8 from CUDA 11.8) */
	int elf_osabi, elf_abi_version; /* ELF: 0x33/7 before CUDA 13, 0x41/8 from 13 */
};

/**
 * Up to max images of the fatbin at p (n bytes). @return the number found, or -EINVAL for
 * a blob that is not a fatbin or is cut short
 */
int jd_fatbin_images(const void *p, size_t n, struct jd_fatbin_image *out, int max);

/** The CUDA version (e.g. 11080) whose driver first takes a PTX ISA version, 0: unknown. */
int jd_fatbin_ptx_driver(int major, int minor);

/**
 * What the driver needs for a GPU of this sm, in words for boot's message ("a cubin of CUDA
 * 11.x: CUDA 11.4 or newer (JetPack 5.1+ on Orin)"), into buf. @return the CUDA driver
 * version needed (11040, 13000, ...), 0 when the fatbin has nothing for this sm
 */
int jd_fatbin_needs(const struct jd_fatbin_image *im, int n, int sm, char *buf, size_t len);

#endif
