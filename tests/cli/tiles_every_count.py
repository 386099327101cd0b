#!/usr/bin/env python3
"""--tiles N at every strip count a frame allows, for every matcher, through the command
line (boot plans the strips, the engine runs them), against the untiled map of the same pair:

- no run may fail or crash; every map has the frame's size;
- where boot matches the frame whole (a strip with its context would cover it), the map is
  the untiled one, bit for bit;
- SAD's strips carry its whole window: the stitched map is the untiled one too; SGM's and
  BP's differ only where a strip's context is shorter than a path or a pyramid level
  (docs/tiling.md): at most 2 % (SGM) and 10 % (BP) of the pixels.

Sizes: 96x40 and 160x120 at every count from 1 to the rows, 450x375 (the default frame) at
1 to 12 and a few counts up to 375.
usage: tiles_every_count.py JETDEPTH   (exit 77 without numpy)
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError as e:
    print(f"skip: numpy is not installed ({e})")
    sys.exit(77)

BIN = sys.argv[1]
BOUND = {"sad": 0.0, "sgm": 2.0, "bp": 10.0}


def read_pfm(path):
    with open(path, "rb") as f:
        assert f.readline().strip() == b"Pf"
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        data = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    return data.reshape(h, w)[::-1]


def match(tmp, l, r, algo, ndisp, tiles):
    out = os.path.join(tmp, f"{algo}_{tiles}.pfm")
    p = subprocess.run([BIN, "match", l, r, "-o", out, "--algo", algo, "--ndisp", str(ndisp),
                        "--threads", "2", "--tiles", str(tiles)],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        return None, f"exit {p.returncode}: {p.stderr.strip()[-300:]}"
    return out, p.stderr


def main():
    fails = runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        for w, h, nd, counts in ((96, 40, 16, range(1, 41)), (160, 120, 32, range(1, 121)),
                                 (450, 375, 64, list(range(1, 13)) + [50, 200, 375])):
            l, r = os.path.join(tmp, f"l{w}.pgm"), os.path.join(tmp, f"r{w}.pgm")
            subprocess.run([BIN, "synth", l, r, "--size", f"{w}x{h}", "--ndisp", str(nd)],
                           check=True)
            for algo in ("sad", "sgm", "bp"):
                if w == 450 and algo == "bp":
                    counts = [1, 2, 3, 8, 375]  # BP at 450x375 is the slow one on 2 cores
                base, _ = match(tmp, l, r, algo, nd, 0)
                ref = read_pfm(base)
                worst = 0.0
                for n in counts:
                    runs += 1
                    out, log = match(tmp, l, r, algo, nd, n)
                    if out is None:
                        print(f"FAIL: {w}x{h} {algo} --tiles {n}: {log}")
                        fails += 1
                        continue
                    got = read_pfm(out)
                    if got.shape != ref.shape:
                        print(f"FAIL: {w}x{h} {algo} --tiles {n}: {got.shape} != {ref.shape}")
                        fails += 1
                        continue
                    same = (got == ref) | (np.isinf(got) & np.isinf(ref))
                    share = 100.0 * (1 - same.mean())
                    whole = "strips of" not in log
                    bound = 0.0 if whole else BOUND[algo]
                    worst = max(worst, share)
                    if share > bound:
                        print(f"FAIL: {w}x{h} {algo} --tiles {n}: {share:.3f}% of the pixels "
                              f"differ from the untiled map (at most {bound}%{', matched whole' if whole else ''})")
                        fails += 1
                print(f"ok: {w}x{h} {algo}: --tiles {counts[0]}..{counts[-1]} "
                      f"({len(counts)} counts), at most {worst:.3f}% differ from untiled")
    print(f"{runs - fails} of {runs} runs passed")
    return 1 if fails else 0


sys.exit(main())
