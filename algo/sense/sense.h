/*
 * 3D sensing for a robot arm (the thesis's chapter 2, docs/sensing.md): from a
 * disparity map of a rectified pair, the table plane and the objects standing on it, in
 * millimetres in the rectified left camera's frame (x right, y down, z forward).
 *
 * Table: a plane in 3D is a plane in (x, y, d) for a rectified pinhole camera, so RANSAC
 * fits d = a x + b y + c on the map (deterministic sampling from a seed), then least squares
 * on its inliers; planes tilted more than max_table_tilt_deg from facing the camera (walls)
 * are not candidates. It is a table only with enough support (inliers at least min_table_share
 * of the ROI, residual within the tolerance, in front of the camera); otherwise the result
 * says why and, without the fixed threshold, there are no objects.
 * Objects: pixels more than min_height_mm above that plane (towards the camera), cleaned by
 * a 3x3 opening then closing, labelled 8-connected where neighbouring disparities agree
 * (objects that touch in the image but not in depth come apart), then grown into the pixels
 * above it by half as much (an object's lower rim; sense_planner.h); blobs smaller than
 * min_area_px, mostly without disparity, smaller where they stand than min_area_mm2, or
 * whose footprint is not inside the table's extent (walls and background surfaces behind the
 * table: a vertical surface's footprint is its base line, the table's edge) are dropped. Per
 * object: area, box, centroid in pixels, median disparity, 3D centroid (the mean of its
 * pixels' 3D points, the 2 % nearest and farthest left out), distance, height above the
 * table (a high percentile of its pixels' heights, robust to stray pixels), the footprint of
 * its box in mm, and for grasping the oriented footprint on the table (yaw, length, width
 * about its centre), the top face's centre, a quality score and whether the image border
 * cuts it. The thesis's fixed threshold (objects = d >
 * fixed_disp, no plane) is the fallback when asked for.
 * Memory: caller's workspace (jd_sense_mem_required), no allocation; libc and libm only.
 */
#ifndef JD_ALGO_SENSE_H
#define JD_ALGO_SENSE_H

#include <stddef.h>
#include <stdint.h>

#include "camera_model.h"
#include "jd_exec.h"
#include "jd_image.h"

struct jd_sense_params {
	int roi[4];	       /* x0, y0, x1, y1 (exclusive); all 0: the whole map */
	int ransac_iters;      /* plane hypotheses (default 200) */
	float plane_tol;       /* inlier distance to the plane, in disparity px (default 1.0) */
	float min_height_mm;   /* object pixels are at least this far above the table (15) */
	int min_area_px;       /* smaller blobs are dropped (default 100) */
	float min_area_mm2;    /* objects smaller where they stand are dropped (default 400) */
	float min_table_share; /* a table's inliers are at least this share of the ROI (0.1) */
	float
	    max_table_tilt_deg; /* planes tilted more from facing the camera are not tables (60) */
	int use_fixed;		/* the thesis's fixed threshold instead of a plane */
	float fixed_disp;	/* with use_fixed: object pixels have d > fixed_disp */
	uint32_t seed;		/* RANSAC's sampling */
};

void jd_sense_default(struct jd_sense_params *sp);

/* Why there is no table (JD_TABLE_FOUND when there is one). */
enum jd_table_verdict {
	JD_TABLE_FOUND,
	JD_TABLE_NOT_FITTED,   /* not asked for (fixed threshold), or too few valid pixels */
	JD_TABLE_LOW_SUPPORT,  /* the best plane holds too small a share of the ROI */
	JD_TABLE_ROUGH,	       /* its inliers scatter as far as the tolerance allows */
	JD_TABLE_NOT_IN_FRONT, /* the plane passes through or behind the camera */
};

/** A plane: d = a x + b y + c on the map, and n . P = k in mm (n unit, towards the table). */
struct jd_plane {
	int valid;
	enum jd_table_verdict verdict;
	float a, b, c;
	float n[3], k_mm;
	long inliers;
	float roi_share;    /* inliers / ROI pixels */
	float residual_px;  /* RMS distance of the inliers to the plane, in disparity */
	float tilt_deg;	    /* angle between the plane's normal and the camera's optical axis */
	float e1[3], e2[3]; /* the table's axes (e1: the camera's x seen on the table; unit) */
};

/** A short reason for a verdict, for logs and JSON ("low_support", ...). */
const char *jd_table_verdict_name(enum jd_table_verdict v);

#define JD_SENSE_MAX_OBJECTS 64

struct jd_object {
	int id;
	long area_px;
	int bbox[4]; /* x0, y0, x1, y1 (inclusive) */
	float centroid_px[2];
	float median_disp;
	float centroid_mm[3];
	float distance_mm;
	float height_mm;  /* above the table (0 without a plane) */
	float size_mm[2]; /* the box's width and height at the object's depth */
	/* With a table, for grasping (0 without one): */
	float footprint_mm[3];	   /* the footprint's centre on the table, camera frame */
	float yaw_deg;		   /* its long axis from the table's e1 towards e2, -90..90 */
	float length_mm, width_mm; /* its extent along and across that axis */
	float top_mm[3];	   /* the top face's centre (pixels within 10 % of the top) */
	float quality;		   /* 0..1: share of its pixels with depth, halved when cut */
	int cut;		   /* the image (or ROI) border cuts it: sizes are lower bounds */
};

struct jd_sense_result {
	struct jd_plane plane;
	int nobjects;
	int truncated; /* more blobs than JD_SENSE_MAX_OBJECTS: the largest were kept */
	struct jd_object objects[JD_SENSE_MAX_OBJECTS];
};

size_t jd_sense_mem_required(int width, int height);

/**
 * Sense the table and the objects on a disparity map (invalid pixels: non-finite or <= 0).
 * ex spreads the per-pixel passes and the plane hypotheses over workers (NULL: one thread);
 * the result does not depend on it.
 * @retval 0, -EINVAL (bad parameters or camera), -ENOMEM (workspace too small)
 */
int jd_sense_run(const struct jd_sense_params *sp, const struct jd_camera_model *cam,
		 const struct jd_disp *disp, void *ws, size_t ws_bytes, struct jd_sense_result *out,
		 const struct jd_exec *ex);

/** Height in mm of the 3D point seen at (x, y) with disparity d above the plane. */
float jd_plane_height_mm(const struct jd_plane *p, const struct jd_camera_model *cam, float x,
			 float y, float d);

#endif
