/*
 * The pixel layouts frames come in, as V4L2 names them: their spellings, depths, Bayer sites
 * and sizes. The cameras, the recorder, the board file and the GPU's raw upload read them.
 */
#ifndef JD_HAL_PIXFMT_H
#define JD_HAL_PIXFMT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The layouts frames come in. Deep mono and Bayer samples sit in 16-bit little-endian
 * containers, the depth's bits at the bottom (V4L2's Y10, Y12, Y16, RG10 ... BA12). Bayer
 * orders name the top-left 2x2 cell: RGGB, BGGR, GBRG, GRBG (V4L2 spells the 8-bit BGGR BA81
 * and the deep GRBG BA10 and BA12).
 */
enum jd_pixfmt {
	JD_PIX_GREY,
	JD_PIX_YUYV,
	JD_PIX_UYVY,
	JD_PIX_MJPEG,
	JD_PIX_Y10,
	JD_PIX_Y12,
	JD_PIX_Y16,
	JD_PIX_RGGB8,
	JD_PIX_BGGR8,
	JD_PIX_GBRG8,
	JD_PIX_GRBG8,
	JD_PIX_RGGB10,
	JD_PIX_BGGR10,
	JD_PIX_GBRG10,
	JD_PIX_GRBG10,
	JD_PIX_RGGB12,
	JD_PIX_BGGR12,
	JD_PIX_GBRG12,
	JD_PIX_GRBG12,
	JD_PIX_COUNT
};

/** V4L2's fourcc spelling: "GREY", "YUYV", "UYVY", "MJPG", "Y10", "RGGB", "BA81", "RG10" ... */
const char *jd_pixfmt_name(enum jd_pixfmt f);
/**
 * Parse a name as jd_pixfmt_name() spells it, or an alias: "MJPEG", "GRAY", and the Bayer
 * order with its depth, "RGGB8" ... "GRBG12" (so "BGGR8" for V4L2's BA81). @retval 0 or -EINVAL
 */
int jd_pixfmt_parse(const char *s, enum jd_pixfmt *out);
/** Every name jd_pixfmt_parse() takes, comma-separated, for messages and --help. */
const char *jd_pixfmt_names(void);
/** The V4L2 fourcc (v4l2_fourcc(a, b, c, d) of the name, padded with spaces). */
uint32_t jd_pixfmt_fourcc(enum jd_pixfmt f);
/** The layout of a V4L2 fourcc. @retval 0, or -ENOENT (not one jetdepth takes) */
int jd_pixfmt_of_fourcc(uint32_t fourcc, enum jd_pixfmt *out);
/** Bits a sample: 8, or 10, 12, 16 for the deep mono and Bayer formats. */
int jd_pixfmt_bits(enum jd_pixfmt f);
/** 1 for the raw Bayer formats. */
int jd_pixfmt_is_bayer(enum jd_pixfmt f);
/** Where a Bayer format's R sites are: their column parity and their row parity. */
void jd_pixfmt_bayer_red(enum jd_pixfmt f, int *col, int *row);
/**
 * Bytes a pixel takes in a packed row: 1 for GREY and 8-bit Bayer, 2 for YUYV and UYVY (so also
 * how far apart their luma bytes are), for the 16-bit containers, and for MJPEG (the raw YUYV
 * size, a safe bound).
 */
int jd_pixfmt_pixel_bytes(enum jd_pixfmt f);
/** Bytes a frame of this format takes at most: w * h * jd_pixfmt_pixel_bytes(f). */
size_t jd_pixfmt_frame_bytes(enum jd_pixfmt f, int w, int h);

#endif
