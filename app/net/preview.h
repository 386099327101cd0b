/*
 * The read-only browser preview (libmicrohttpd): `/` a page, `/stream.mjpg` an MJPEG stream
 * of the rectified left image beside the colour-mapped disparity with the objects' boxes and
 * distances drawn in (each view at most JD_PREVIEW_MAX_WIDTH wide, algo/preview_compose.h),
 * `/status` a JSON snapshot (frames, fps, drops, camera state, memory).
 * Nothing else is served (no files); GET and HEAD only. Bound to 127.0.0.1 unless configured,
 * at most max_clients streams, and JD_PREVIEW_RESERVED connections beyond them kept for
 * the page (more are answered 503), idle ones time out. Every connection comes in through
 * the front door (front_door.h), which answers `/status` itself and cuts clients whose
 * request does not come whole in time: no number of slow clients keeps the health check out.
 *
 * The frame loop hands each frame to jd_preview_publish(), which composes and JPEG-encodes it
 * into one of two buffers taken at boot (only while someone watches, at most 10 times a
 * second) and swaps them under a mutex; the server's own threads copy the newest frame out
 * for each client. Those threads (libmicrohttpd's, one a connection) allocate their own
 * connection state; the frame loop does not. Built when libmicrohttpd is found
 * (app/net/preview_none.c otherwise: --preview then says so).
 */
#ifndef JD_APP_PREVIEW_H
#define JD_APP_PREVIEW_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* Connections beyond the streams' max_clients, kept for /status and the page. */
#define JD_PREVIEW_RESERVED 4

#include "../../algo/jd_image.h"
#include "front_door.h"
#include "../../algo/sense/sense.h"
#include "../../algo/sense/track.h"

/* /status: the loop's figures and the last frame's report (64 objects fit) */
#define JD_PREVIEW_STATUS_MAX 65536
_Static_assert(JD_PREVIEW_STATUS_MAX + 48 <= JD_DOOR_REPLY_MAX, "the door answers a whole /status");

struct jd_preview_config {
	char bind[64]; /* address to listen on (default 127.0.0.1) */
	int port;
	int max_clients; /* default 4 */
};

/** Parse "[ADDR:]PORT" (e.g. 8080, 0.0.0.0:8080). @retval 0 or -EINVAL */
int jd_preview_parse(const char *spec, struct jd_preview_config *c);

struct jd_preview {
	void *mhd;	    /* struct MHD_Daemon */
	uint64_t status_ns; /* when status was last set (CLOCK_MONOTONIC): /status says its age */
	void *tj;	    /* the JPEG compressor, made at start */
	int w, h;	    /* one view as shown; the stream is 2w x h */
	int step;	    /* the camera's pixels one shown pixel steps over (jd_preview_step()) */
	uint8_t *rgb;
	uint8_t *jpeg[2];
	size_t jpeg_cap, jpeg_len[2];
	int cur;	       /* the buffer clients read */
	unsigned long seq;     /* frames published to clients */
	uint64_t last_ns;      /* when the last one was encoded */
	volatile int watchers; /* open streams */
	int max_streams;       /* max_clients: more streams are answered 503 */
	volatile int stopping;
	unsigned long refused;
	char status[JD_PREVIEW_STATUS_MAX];
	pthread_mutex_t lock;
	pthread_cond_t fresh;
	char err[256];
	struct jd_door door; /* accepts every connection (front_door.h) */
};

/** Bytes jd_preview_start() takes for w x h camera views. */
size_t jd_preview_mem_required(int w, int h);

/** Start the server (boot). @retval 0, or -errno with p->err saying why */
int jd_preview_start(struct jd_preview *p, const struct jd_preview_config *c, int w, int h,
		     void *mem, size_t bytes);

/** Does someone watch, with a frame due (at most 10 a second)? The loop asks the GPU then. */
int jd_preview_wants(struct jd_preview *p, uint64_t now_ns);

/** Only /status's text (when no frame comes: the cameras are awaited). */
void jd_preview_set_status(struct jd_preview *p, const char *status_json);

/* What one frame shows: the left view tinted red where the depth is not trusted, beside the
 * colour-mapped disparity; each object boxed on both, its track id on the left, its
 * distance in mm on the right. */
struct jd_preview_frame {
	const struct jd_image *left; /* NULL (or disp NULL): the frame is not shown */
	const struct jd_disp *disp;
	float dmax;			     /* the colour map's far end (0 .. dmax) */
	const struct jd_sense_result *sense; /* NULL: not sensed */
	const struct jd_track_info *tracks;  /* per object, or NULL */
	const uint8_t *conf;		     /* the confidence map (w bytes a row), or NULL */
	int min_conf;			     /* below it: tinted */
	uint8_t *rgb; /* the picture composed already (the GPU's, at the same step; the boxes
			 are drawn into it), or NULL: composed here */
};

/**
 * Offer a frame. Encodes only when someone watches and 100 ms have passed. status_json: the
 * /status text. Never blocks on a client.
 */
void jd_preview_publish(struct jd_preview *p, const struct jd_preview_frame *f,
			const char *status_json, uint64_t now_ns);

void jd_preview_stop(struct jd_preview *p);

#endif
