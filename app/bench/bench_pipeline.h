/* jetdepth bench --pipeline: the whole frame loop, stage by stage (bench_pipeline.c). */
#ifndef JD_APP_BENCH_PIPELINE_H
#define JD_APP_BENCH_PIPELINE_H

#include "../../algo/match/jd_params.h"
#include "../../hal/camera/pixfmt.h"
#include "../loop/boot.h"

/**
 * Run the daemon on the synthetic camera, through an identity calibration (so rectification
 * runs as with real cameras) and sensing, for frames frames at each size (w 0: the standard
 * 640x480/64 and 1280x720/128) and print per-stage mean latency, end to end and fps.
 * ros2: also publish every frame (app/ros2/ros2.h, every topic composed as if subscribed)
 * and print the loop's copy, the composing and the writing per frame. fmt: the camera's
 * layout (GREY, or YUYV/UYVY: its luma taken on the CPU, or on the GPU where it rectifies).
 * choices: the backend, GPU memory and tuning file (jd_cli_boot_choices()), for every size.
 * @retval 0 or -1 (said why)
 */
int jd_bench_pipeline(const struct jd_match_params *p, int w, int h, int frames, int threads,
		      int ros2, enum jd_pixfmt fmt, const struct jd_boot_choices *choices);

#endif
