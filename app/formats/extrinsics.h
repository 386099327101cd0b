/*
 * The camera's pose in the robot's base frame, as a hand-eye calibration gives it, so that
 * positions can be reported where the arm plans. Read from a text file holding either
 *  - a 4x4 matrix, 16 numbers row by row (OpenCV's YAML "data: [...]" works: its rows, cols
 *    and dt are skipped), or
 *  - a translation and a unit quaternion, 7 numbers "x y z qx qy qz qw" in ROS tf's order
 *    (easy_handeye's YAML, `ros2 run tf2_ros tf2_echo` output pasted, or a bare line).
 * Translations are in metres as ROS writes them; a line "units: mm" says millimetres.
 * The transform maps points in the rectified left camera's frame (the one sensing reports)
 * into the base frame.
 */
#ifndef JD_APP_EXTRINSICS_H
#define JD_APP_EXTRINSICS_H

#include <stddef.h>

/**
 * Load path into m (4x4 row-major, translation in mm).
 * @retval 0, or -EINVAL / -ENOENT with err naming the file and what is wrong
 */
int jd_extrinsics_load(const char *path, double m[16], char *err, size_t errlen);

/** Parse text (the file's contents) the same way; name is used in messages. */
int jd_extrinsics_parse(const char *name, const char *text, double m[16], char *err, size_t errlen);

/** out = m * (p, 1): a point. */
void jd_extrinsics_point(const double m[16], const float p[3], float out[3]);

/** out = m * (v, 0): a direction. */
void jd_extrinsics_dir(const double m[16], const float v[3], float out[3]);

#endif
