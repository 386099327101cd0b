#!/usr/bin/env python3
"""The calibration formats robot integrators have, read by `jetdepth calib check --maps` and
checked against OpenCV (python3-opencv) on the same files:

- OpenCV stereo YAML and XML (cv2.FileStorage), one file and split (intrinsics.yml +
  extrinsics.yml), with 4, 5, 8, 12 and 14 distortion coefficients: jetdepth's rectify maps
  against cv2.initUndistortRectifyMap with the file's R1 P1 R2 P2;
- ROS camera_info pairs, rational_polynomial (8) and equidistant (fisheye): against
  cv2.initUndistortRectifyMap and cv2.fisheye.initUndistortRectifyMap;
- Kalibr camchain.yaml (radtan and equidistant), which has no rectification of its own:
  jetdepth rectifies it, so the check is geometric: 3D points projected into both raw views
  by OpenCV land on one rectified row, at the disparity f B / Z.

Tolerance: maps within 0.01 px of OpenCV's wherever OpenCV's lands inside the raw image
(both compute in double and store floats); Kalibr rows within 0.05 px, disparity within 0.1.
usage: calib_formats.py JETDEPTH   (exit 77 when python3-opencv is missing)
"""
import os
import subprocess
import sys
import tempfile

try:
    import cv2
    import numpy as np
except ImportError as e:
    print(f"skip: python3-opencv is not installed ({e})")
    sys.exit(77)

BIN = sys.argv[1]
EMULATOR = os.environ.get("JETDEPTH_EMULATOR", "").split()
W, H = 320, 240
SIZE = (W, H)
fails = 0


def fail(msg):
    global fails
    fails += 1
    print("FAIL:", msg)


def read_pfm(path):
    with open(path, "rb") as f:
        assert f.readline().strip() == b"Pf"
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        data = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    return np.flipud(data.reshape(h, w))


def jetdepth_maps(files, tmp, extra=()):
    prefix = os.path.join(tmp, "maps")
    r = subprocess.run([*EMULATOR, BIN, "calib", "check", *files, "--size", f"{W}x{H}", "--maps", prefix,
                        *extra], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stdout + r.stderr
    return [(read_pfm(f"{prefix}_{s}_x.pfm"), read_pfm(f"{prefix}_{s}_y.pfm"))
            for s in ("left", "right")], r.stdout


def rig(ndist):
    K1 = np.array([[300.0, 0, 158.3], [0, 301.5, 121.1], [0, 0, 1]])
    K2 = np.array([[298.0, 0, 161.2], [0, 297.9, 118.4], [0, 0, 1]])
    base = [-0.21, 0.05, 0.0011, -0.0007, -0.004, 0.02, -0.01, 0.003, 0.0012, -0.0004,
            0.0008, 0.0002, 0.01, -0.008]
    D1 = np.array(base[:ndist]).reshape(1, -1)
    D2 = (np.array(base[:ndist]) * 0.9).reshape(1, -1)
    R, _ = cv2.Rodrigues(np.array([0.004, -0.012, 0.003]))
    T = np.array([[-62.0], [0.4], [-0.9]])
    return K1, D1, K2, D2, R, T


def compare(name, got, want, out):
    if got is None:
        fail(f"{name}: jetdepth refused it: {out.strip()}")
        return
    worst = 0.0
    for i in range(2):
        wx, wy = want[i]
        gx, gy = got[i]
        inside = (wx >= 0) & (wx <= W - 1) & (wy >= 0) & (wy <= H - 1)
        if inside.sum() < W * H // 2:
            fail(f"{name}: OpenCV's map {i} lands inside the image for only {inside.sum()} px")
            return
        d = np.maximum(np.abs(gx - wx), np.abs(gy - wy))[inside]
        worst = max(worst, float(np.nanmax(np.where(np.isfinite(d), d, 1e9))))
    if worst > 0.01:
        fail(f"{name}: maps differ from OpenCV's by up to {worst:.4f} px")
    else:
        print(f"ok: {name}: maps within {worst:.5f} px of OpenCV's")


def opencv_stereo(tmp, ndist, ext, split):
    K1, D1, K2, D2, R, T = rig(ndist)
    R1, R2, P1, P2, *_ = cv2.stereoRectify(K1, D1, K2, D2, SIZE, R, T, alpha=0)
    names = [os.path.join(tmp, f"intrinsics{ext}"), os.path.join(tmp, f"extrinsics{ext}")]
    fs = cv2.FileStorage(names[0], cv2.FILE_STORAGE_WRITE)
    for k, v in (("M1", K1), ("D1", D1), ("M2", K2), ("D2", D2)):
        fs.write(k, v)
    if split:
        fs.release()
        fs = cv2.FileStorage(names[1], cv2.FILE_STORAGE_WRITE)
    for k, v in (("R", R), ("T", T), ("R1", R1), ("R2", R2), ("P1", P1), ("P2", P2)):
        fs.write(k, v)
    fs.write("units", "mm")
    if ndist == 4:  # 4 could be the fisheye model's too: the file says which
        fs.write("distortion_model", "plumb_bob")
    fs.release()
    want = [cv2.initUndistortRectifyMap(K1, D1, R1, P1, SIZE, cv2.CV_32FC1),
            cv2.initUndistortRectifyMap(K2, D2, R2, P2, SIZE, cv2.CV_32FC1)]
    got, out = jetdepth_maps(names if split else names[:1], tmp)
    what = f"OpenCV {'split ' if split else ''}{ext[1:].upper()}, {ndist} coefficients"
    compare(what, got, want, out)


def ros_yaml(path, name, K, model, D, R, P):
    def mat(rows, cols, m):
        data = ", ".join(repr(float(v)) for v in np.asarray(m).ravel())
        return f"  rows: {rows}\n  cols: {cols}\n  data: [{data}]\n"
    with open(path, "w") as f:
        f.write(f"image_width: {W}\nimage_height: {H}\ncamera_name: {name}\nunits: mm\n")
        f.write("camera_matrix:\n" + mat(3, 3, K))
        f.write(f"distortion_model: {model}\n")
        f.write("distortion_coefficients:\n" + mat(1, np.asarray(D).size, D))
        f.write("rectification_matrix:\n" + mat(3, 3, R))
        f.write("projection_matrix:\n" + mat(3, 4, P))


def ros_pair(tmp, model):
    if model == "equidistant":
        K1, _, K2, _, R, T = rig(4)
        D1 = np.array([[-0.02], [0.004], [-0.001], [0.0002]])
        D2 = D1 * 0.9
        R1, R2, P1, P2, _ = cv2.fisheye.stereoRectify(K1, D1, K2, D2, SIZE, R, T,
                                                       flags=cv2.CALIB_ZERO_DISPARITY,
                                                       balance=0.0)
        want = [cv2.fisheye.initUndistortRectifyMap(K1, D1, R1, P1, SIZE, cv2.CV_32FC1),
                cv2.fisheye.initUndistortRectifyMap(K2, D2, R2, P2, SIZE, cv2.CV_32FC1)]
    else:
        K1, D1, K2, D2, R, T = rig(8)
        R1, R2, P1, P2, *_ = cv2.stereoRectify(K1, D1, K2, D2, SIZE, R, T, alpha=0)
        want = [cv2.initUndistortRectifyMap(K1, D1, R1, P1, SIZE, cv2.CV_32FC1),
                cv2.initUndistortRectifyMap(K2, D2, R2, P2, SIZE, cv2.CV_32FC1)]
    names = [os.path.join(tmp, "left.yaml"), os.path.join(tmp, "right.yaml")]
    ros_yaml(names[0], "left", K1, model, D1, R1, P1)
    ros_yaml(names[1], "right", K2, model, D2, R2, P2)
    got, out = jetdepth_maps(names, tmp)
    compare(f"ROS camera_info {model}", got, want, out)


def kalibr(tmp, model):
    K1, D1, K2, D2, R, T = rig(4)
    if model == "equidistant":
        D1 = np.array([-0.02, 0.004, -0.001, 0.0002]).reshape(1, -1)
        D2 = D1 * 0.9
    Tm = T / 1000.0  # Kalibr is in metres
    path = os.path.join(tmp, "camchain.yaml")

    def cam(K, D):
        return (f"  camera_model: pinhole\n  intrinsics: [{K[0, 0]}, {K[1, 1]}, {K[0, 2]}, "
                f"{K[1, 2]}]\n  distortion_model: {model}\n  distortion_coeffs: "
                f"[{', '.join(repr(float(v)) for v in D.ravel())}]\n  resolution: [{W}, {H}]\n"
                f"  rostopic: /cam/image_raw\n")
    with open(path, "w") as f:
        f.write("cam0:\n" + cam(K1, D1) + "  cam_overlaps: [1]\n")
        f.write("cam1:\n  T_cn_cnm1:\n")
        for i in range(3):
            f.write(f"  - [{R[i, 0]!r}, {R[i, 1]!r}, {R[i, 2]!r}, {float(Tm[i, 0])!r}]\n")
        f.write("  - [0.0, 0.0, 0.0, 1.0]\n" + cam(K2, D2))
    got, out = jetdepth_maps([path], tmp)
    geometric(f"Kalibr {model}", got, out, K1, D1, K2, D2, R, T, model == "equidistant")


def geometric(name, got, out, K1, D1, K2, D2, R, T, fisheye):
    """3D points projected into both raw views by OpenCV land, through jetdepth's maps, on
    one rectified row at the disparity f B / Z (f and B as calib check prints them)."""
    if got is None:
        fail(f"{name}: jetdepth refused it: {out.strip()}")
        return
    f_px = float(out.split("rectified: f ")[1].split(" ")[0])
    base_mm = float(out.split("baseline ")[1].split(" ")[0])
    rng = np.random.default_rng(3)
    worst_row = worst_disp = 0.0
    tested = 0
    for _ in range(60):
        Z = rng.uniform(400, 3000)
        X = np.array([[rng.uniform(-0.3, 0.3) * Z, rng.uniform(-0.25, 0.25) * Z, Z]])
        px = []
        for i, (K, D, rv, tv) in enumerate(((K1, D1, np.zeros(3), np.zeros(3)),
                                             (K2, D2, cv2.Rodrigues(R)[0].ravel(), T.ravel()))):
            if fisheye:
                p, _ = cv2.fisheye.projectPoints(X.reshape(1, 1, 3), rv, tv, K, D)
            else:
                p, _ = cv2.projectPoints(X, rv, tv, K, D)
            gx, gy = got[i]
            d = (gx - p.ravel()[0]) ** 2 + (gy - p.ravel()[1]) ** 2
            d = np.where(np.isfinite(d), d, 1e18)
            v, u = np.unravel_index(np.argmin(d), d.shape)
            if d[v, u] > 2.0 or u in (0, W - 1) or v in (0, H - 1):
                break
            # sub-pixel: the map is smooth, solve the 2x2 Jacobian step once
            J = np.array([[gx[v, u + 1] - gx[v, u], gx[v + 1, u] - gx[v, u]],
                          [gy[v, u + 1] - gy[v, u], gy[v + 1, u] - gy[v, u]]])
            r = np.array([p.ravel()[0] - gx[v, u], p.ravel()[1] - gy[v, u]])
            du, dv = np.linalg.solve(J, r)
            px.append((u + du, v + dv))
        if len(px) < 2:
            continue
        tested += 1
        worst_row = max(worst_row, abs(px[0][1] - px[1][1]))
        worst_disp = max(worst_disp, abs((px[0][0] - px[1][0]) - f_px * base_mm / Z))
    if tested < 20:
        fail(f"{name}: only {tested} points seen by both")
    elif worst_row > 0.05 or worst_disp > 0.1:
        fail(f"{name}: rows differ by {worst_row:.3f} px, disparity off by "
             f"{worst_disp:.3f} px")
    else:
        print(f"ok: {name}: {tested} points, rows within {worst_row:.4f} px, "
              f"disparity within {worst_disp:.4f} px of f B / Z")



def opencv_file(tmp, name, K1, D1, K2, D2, R, T, R1, R2, P1, P2, model=None):
    """One OpenCV stereo file (cv2.FileStorage), in mm, saying its distortion model if given."""
    path = os.path.join(tmp, name)
    fs = cv2.FileStorage(path, cv2.FILE_STORAGE_WRITE)
    for k, v in (("M1", K1), ("D1", D1), ("M2", K2), ("D2", D2), ("R", R), ("T", T),
                 ("R1", R1), ("R2", R2), ("P1", P1), ("P2", P2)):
        fs.write(k, v)
    fs.write("units", "mm")
    if model:
        fs.write("distortion_model", model)
    fs.release()
    return path


def opencv_offset(tmp):
    """stereoRectify without CALIB_ZERO_DISPARITY: the right view's principal point differs
    from the left's (cx' != cx). jetdepth rectifies the right view onto the left's principal
    point: its right map is OpenCV's shifted by cx - cx', and disparity is f B / Z."""
    K1, D1, K2, D2, R, T = rig(5)
    R1, R2, P1, P2, *_ = cv2.stereoRectify(K1, D1, K2, D2, SIZE, R, T, flags=0, alpha=0)
    if abs(P1[0, 2] - P2[0, 2]) < 1.0:
        fail(f"stereoRectify(flags=0) gave cx {P1[0, 2]:.2f} and cx' {P2[0, 2]:.2f}: no offset to test")
        return
    path = opencv_file(tmp, "offset.yml", K1, D1, K2, D2, R, T, R1, R2, P1, P2)
    got, out = jetdepth_maps([path], tmp)
    P2c = P2.copy()
    P2c[0, 2], P2c[1, 2] = P1[0, 2], P1[1, 2]
    want = [cv2.initUndistortRectifyMap(K1, D1, R1, P1, SIZE, cv2.CV_32FC1),
            cv2.initUndistortRectifyMap(K2, D2, R2, P2c, SIZE, cv2.CV_32FC1)]
    what = f"OpenCV stereoRectify flags=0 (cx {P1[0, 2]:.1f}, cx' {P2[0, 2]:.1f})"
    compare(what + ", right map on the left's principal point", got, want, out)
    if got is not None and f"{P1[0, 2] - P2[0, 2]:.2f} px" not in out:
        fail(f"{what}: calib check does not say the offset: {out}")
    geometric(what, got, out, K1, D1, K2, D2, R, T, False)


def opencv_fisheye(tmp):
    """cv2.fisheye.stereoRectify's output in an OpenCV file: 4 coefficients, which the
    standard model could read too. Saying distortion_model: fisheye gives cv2.fisheye's maps;
    not saying is refused, naming both readings."""
    K1, _, K2, _, R, T = rig(4)
    D1 = np.array([-0.02, 0.004, -0.001, 0.0002]).reshape(-1, 1)
    D2 = D1 * 0.9
    R1, R2, P1, P2, _ = cv2.fisheye.stereoRectify(K1, D1, K2, D2, SIZE, R, T,
                                                   flags=cv2.CALIB_ZERO_DISPARITY,
                                                   newImageSize=SIZE, balance=0.0)
    for said in (True, False):
        path = opencv_file(tmp, f"fisheye_{said}.yml", K1, D1, K2, D2, R, T, R1, R2, P1, P2,
                           "fisheye" if said else None)
        got, out = jetdepth_maps([path], tmp)
        if said:
            want = [cv2.fisheye.initUndistortRectifyMap(K1, D1, R1, P1, SIZE, cv2.CV_32FC1),
                    cv2.fisheye.initUndistortRectifyMap(K2, D2, R2, P2, SIZE, cv2.CV_32FC1)]
            compare("OpenCV fisheye file (distortion_model: fisheye)", got, want, out)
        elif got is not None or "could be OpenCV's standard model (k1 k2 p1 p2) or its fisheye model" not in out:
            fail(f"OpenCV fisheye file without distortion_model: not refused as unclear: {out}")
        else:
            print("ok: OpenCV 4-coefficient file without distortion_model: refused, both readings named")


def opencv_skew(tmp):
    """A camera matrix with skew (K[0][1] != 0: MATLAB, fisheye.calibrate without
    CALIB_FIX_SKEW): OpenCV's maps leave the skew out, and so do jetdepth's."""
    K1, D1, K2, D2, R, T = rig(5)
    K1[0, 1], K2[0, 1] = 0.8, -0.6
    R1, R2, P1, P2, *_ = cv2.stereoRectify(K1, D1, K2, D2, SIZE, R, T, alpha=0)
    path = opencv_file(tmp, "skew.yml", K1, D1, K2, D2, R, T, R1, R2, P1, P2)
    want = [cv2.initUndistortRectifyMap(K1, D1, R1, P1, SIZE, cv2.CV_32FC1),
            cv2.initUndistortRectifyMap(K2, D2, R2, P2, SIZE, cv2.CV_32FC1)]
    got, out = jetdepth_maps([path], tmp)
    compare("OpenCV with skew in K", got, want, out)
    if got is not None and "skew" not in out:
        fail(f"OpenCV with skew in K: calib check does not say the skew is left out: {out}")


with tempfile.TemporaryDirectory() as tmp:
    for ndist in (4, 5, 8, 12, 14):
        opencv_stereo(tmp, ndist, ".yml", split=False)
    opencv_stereo(tmp, 5, ".xml", split=False)
    opencv_stereo(tmp, 8, ".yml", split=True)
    opencv_stereo(tmp, 14, ".xml", split=True)
    ros_pair(tmp, "rational_polynomial")
    ros_pair(tmp, "equidistant")
    kalibr(tmp, "radtan")
    kalibr(tmp, "equidistant")
    opencv_offset(tmp)
    opencv_skew(tmp)
    opencv_fisheye(tmp)
print(f"{fails} failed")
sys.exit(1 if fails else 0)
