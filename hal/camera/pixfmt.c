#include "pixfmt.h"

#include <errno.h>
#include <string.h>

/* Each layout: its V4L2 fourcc spelling, an alias, its depth, Bayer or not. */
static const struct {
	const char *name, *alias;
	int bits, bayer;
} formats[JD_PIX_COUNT] = {
    [JD_PIX_GREY] = {"GREY", "GRAY", 8, 0},	 [JD_PIX_YUYV] = {"YUYV", NULL, 8, 0},
    [JD_PIX_UYVY] = {"UYVY", NULL, 8, 0},	 [JD_PIX_MJPEG] = {"MJPG", "MJPEG", 8, 0},
    [JD_PIX_Y10] = {"Y10", NULL, 10, 0},	 [JD_PIX_Y12] = {"Y12", NULL, 12, 0},
    [JD_PIX_Y16] = {"Y16", NULL, 16, 0},	 [JD_PIX_RGGB8] = {"RGGB", "RGGB8", 8, 1},
    [JD_PIX_BGGR8] = {"BA81", "BGGR8", 8, 1},	 [JD_PIX_GBRG8] = {"GBRG", "GBRG8", 8, 1},
    [JD_PIX_GRBG8] = {"GRBG", "GRBG8", 8, 1},	 [JD_PIX_RGGB10] = {"RG10", "RGGB10", 10, 1},
    [JD_PIX_BGGR10] = {"BG10", "BGGR10", 10, 1}, [JD_PIX_GBRG10] = {"GB10", "GBRG10", 10, 1},
    [JD_PIX_GRBG10] = {"BA10", "GRBG10", 10, 1}, [JD_PIX_RGGB12] = {"RG12", "RGGB12", 12, 1},
    [JD_PIX_BGGR12] = {"BG12", "BGGR12", 12, 1}, [JD_PIX_GBRG12] = {"GB12", "GBRG12", 12, 1},
    [JD_PIX_GRBG12] = {"BA12", "GRBG12", 12, 1},
};

const char *jd_pixfmt_name(enum jd_pixfmt f)
{
	return (unsigned)f < JD_PIX_COUNT ? formats[f].name : "?";
}

int jd_pixfmt_parse(const char *s, enum jd_pixfmt *out)
{
	for (int i = 0; i < JD_PIX_COUNT; i++) {
		if (strcmp(s, formats[i].name) == 0 ||
		    (formats[i].alias && strcmp(s, formats[i].alias) == 0)) {
			*out = (enum jd_pixfmt)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *jd_pixfmt_names(void)
{
	return "GREY, YUYV, UYVY, MJPG (MJPEG), Y10, Y12, Y16, RGGB, BA81 (BGGR8), GBRG, GRBG, "
	       "RG10, BG10, GB10, BA10 (GRBG10), RG12, BG12, GB12, BA12 (GRBG12)";
}

uint32_t jd_pixfmt_fourcc(enum jd_pixfmt f)
{
	const char *n = jd_pixfmt_name(f);
	char c[4] = {' ', ' ', ' ', ' '};

	for (int i = 0; i < 4 && n[i]; i++) {
		c[i] = n[i];
	}
	return (uint32_t)(uint8_t)c[0] | (uint32_t)(uint8_t)c[1] << 8 |
	       (uint32_t)(uint8_t)c[2] << 16 | (uint32_t)(uint8_t)c[3] << 24;
}

int jd_pixfmt_of_fourcc(uint32_t fourcc, enum jd_pixfmt *out)
{
	for (int i = 0; i < JD_PIX_COUNT; i++) {
		if (jd_pixfmt_fourcc((enum jd_pixfmt)i) == fourcc) {
			*out = (enum jd_pixfmt)i;
			return 0;
		}
	}
	return -ENOENT;
}

int jd_pixfmt_bits(enum jd_pixfmt f)
{
	return (unsigned)f < JD_PIX_COUNT ? formats[f].bits : 8;
}

int jd_pixfmt_is_bayer(enum jd_pixfmt f)
{
	return (unsigned)f < JD_PIX_COUNT && formats[f].bayer;
}

void jd_pixfmt_bayer_red(enum jd_pixfmt f, int *col, int *row)
{
	/* the orders repeat from RGGB8: RGGB (R at 0,0), BGGR (1,1), GBRG (0,1), GRBG (1,0) */
	static const int at[4][2] = {{0, 0}, {1, 1}, {0, 1}, {1, 0}};
	int k = jd_pixfmt_is_bayer(f) ? (f - JD_PIX_RGGB8) % 4 : 0;

	*col = at[k][0];
	*row = at[k][1];
}

int jd_pixfmt_pixel_bytes(enum jd_pixfmt f)
{
	return f == JD_PIX_GREY || (jd_pixfmt_is_bayer(f) && jd_pixfmt_bits(f) == 8) ? 1 : 2;
}

size_t jd_pixfmt_frame_bytes(enum jd_pixfmt f, int w, int h)
{
	return (size_t)w * h * (size_t)jd_pixfmt_pixel_bytes(f);
}
