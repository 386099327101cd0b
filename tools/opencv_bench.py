#!/usr/bin/python3
"""Time OpenCV's StereoSGBM (MODE_HH, 8 paths) and StereoBM on the images jetdepth bench uses.

For measurement only (docs/perf.md); OpenCV is not a dependency of jetdepth.
Needs Debian's python3-opencv. Images come from `jetdepth synth` (the same scene, frame 0).
usage: tools/opencv_bench.py JETDEPTH [RUNS]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import cv2

CASES = [  # (matcher, width, height, ndisp)
    ("sgbm-hh", 450, 375, 64),
    ("sgbm-hh", 1242, 375, 128),
    ("bm", 640, 480, 64),
]


def main():
    jetdepth = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(f"OpenCV {cv2.__version__}, {cv2.getNumThreads()} thread(s)")
    print(f"{'matcher':<10} {'size':>10} {'ndisp':>6} {'median ms':>10} {'best ms':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, w, h, nd in CASES:
            left, right = os.path.join(tmp, "l.pgm"), os.path.join(tmp, "r.pgm")
            subprocess.run([jetdepth, "synth", left, right, "--size", f"{w}x{h}",
                            "--ndisp", str(nd)], check=True)
            l = cv2.imread(left, cv2.IMREAD_GRAYSCALE)
            r = cv2.imread(right, cv2.IMREAD_GRAYSCALE)
            if name == "bm":
                m = cv2.StereoBM_create(numDisparities=nd, blockSize=11)
            else:
                # blockSize 1 = pixelwise cost like jetdepth's census/AD SGM; 8 full paths.
                m = cv2.StereoSGBM_create(minDisparity=0, numDisparities=nd, blockSize=3,
                                          P1=8 * 9, P2=32 * 9, uniquenessRatio=5,
                                          disp12MaxDiff=1, mode=cv2.STEREO_SGBM_MODE_HH)
            m.compute(l, r)  # warm-up
            t = []
            for _ in range(runs):
                t0 = time.perf_counter()
                m.compute(l, r)
                t.append((time.perf_counter() - t0) * 1e3)
            print(f"{name:<10} {w:>5}x{h:<4} {nd:>6} {statistics.median(t):>10.2f} {min(t):>9.2f}")


if __name__ == "__main__":
    main()
