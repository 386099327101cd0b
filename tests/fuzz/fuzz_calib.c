/*
 * The calibration loader (app/formats/calib_yaml.c) in every format: an input with a
 * "\n---8<---\n" line is two files (ROS camera_info left and right, or OpenCV's intrinsics
 * and extrinsics), else one (OpenCV stereo YAML or XML, or a Kalibr camchain). A loaded
 * calibration is also rectified and mapped, as boot does.
 */
#include "calib.h"
#include "calib_yaml.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct jd_stereo_calib c;
	static float mx[16 * 12], my[16 * 12];
	size_t n1, n2;
	const uint8_t *second = fuzz_split(data, size, "\n---8<---\n", &n1, &n2);
	const char *files[2] = {fuzz_file(0, ".yaml", data, n1), NULL};
	int nfiles = 1;
	char err[512];

	if (second != data + size) {
		files[1] = fuzz_file(1, ".yaml", second, n2);
		nfiles = 2;
	}
	if (jd_calib_load(files, nfiles, &c, err, sizeof(err)) == 0) {
		jd_calib_map(&c, 0, 16, 12, mx, my);
		jd_calib_map(&c, 1, 16, 12, mx, my);
	}
	return 0;
}
