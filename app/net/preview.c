#include "preview.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <turbojpeg.h>
#include <unistd.h>

#include "../../algo/jd_carve.h"
#include "../../algo/preview_compose.h"
#include "../../hal/clock.h"

/* A connection that makes no progress for this long is closed (a client that stopped reading). */
#define IDLE_TIMEOUT_S 10u
/* Kernel send buffer of each connection, bytes (Linux doubles it for bookkeeping). */
#define SEND_BUFFER (64 * 1024)

static const char page[] =
    "<!doctype html><html><head><meta charset=utf-8><title>jetdepth</title>"
    "<style>body{background:#111;color:#ddd;font:14px monospace;margin:8px}"
    "img{max-width:100%;image-rendering:pixelated}</style></head><body>"
    "<div>jetdepth: rectified left | disparity, objects with their distance in mm</div>"
    "<img id=v src=/stream.mjpg alt=stream><pre id=s></pre><script>"
    "async function t(){try{const r=await fetch('/status');"
    "document.getElementById('s').textContent=JSON.stringify(await r.json(),null,1)}"
    "catch(e){}setTimeout(t,1000)}t()</script></body></html>";

/*
 * The composed frame (views pw x ph: the camera's at the picture's step) and two JPEG
 * buffers; the same layout sizes them (base NULL).
 */
static void layout(struct jd_carve *c, int pw, int ph, uint8_t **rgb, uint8_t *jpeg[2],
		   size_t *jcap)
{
	*jcap = tjBufSize(2 * pw, ph, TJSAMP_420);
	*rgb = jd_carve(c, (size_t)2 * pw * ph * 3);
	jpeg[0] = jd_carve(c, *jcap);
	jpeg[1] = jd_carve(c, *jcap);
}

size_t jd_preview_mem_required(int w, int h)
{
	struct jd_carve c;
	uint8_t *rgb, *jpeg[2];
	size_t jcap;

	jd_carve_init(&c, NULL, 0);
	int step = jd_preview_step(w);
	layout(&c, jd_preview_scaled(w, step), jd_preview_scaled(h, step), &rgb, jpeg, &jcap);
	return jd_carve_total(&c);
}

/* --- drawing: the frame the stream shows --- */

static void put(uint8_t *rgb, int W, int H, int x, int y, const uint8_t c[3])
{
	if (x >= 0 && x < W && y >= 0 && y < H) {
		memcpy(rgb + ((size_t)y * W + x) * 3, c, 3);
	}
}

/* 3x5 digits, a row of 3 bits each, top first. */
static const uint16_t digits[10] = {075557, 022222, 071747, 071717, 055711,
				    074717, 074757, 071111, 075757, 075717};

static void text(uint8_t *rgb, int W, int H, int x, int y, const char *s, const uint8_t c[3])
{
	for (; *s; s++, x += 8) {
		if (*s < '0' || *s > '9') {
			continue;
		}
		uint16_t g = digits[*s - '0'];
		for (int r = 0; r < 5; r++) {
			for (int k = 0; k < 3; k++) {
				if (g >> ((4 - r) * 3 + (2 - k)) & 1) {
					for (int dy = 0; dy < 2; dy++) {
						for (int dx = 0; dx < 2; dx++) {
							put(rgb, W, H, x + 2 * k + dx,
							    y + 2 * r + dy, c);
						}
					}
				}
			}
		}
	}
}

static void box(uint8_t *rgb, int W, int H, int x0, int y0, int x1, int y1, const uint8_t c[3])
{
	for (int t = 0; t < 2; t++) {
		for (int x = x0; x <= x1; x++) {
			put(rgb, W, H, x, y0 + t, c);
			put(rgb, W, H, x, y1 - t, c);
		}
		for (int y = y0; y <= y1; y++) {
			put(rgb, W, H, x0 + t, y, c);
			put(rgb, W, H, x1 - t, y, c);
		}
	}
}

/* The picture (the GPU's, or composed here by the same rule), then the objects on top. */
static uint8_t *compose(struct jd_preview *p, const struct jd_preview_frame *f)
{
	static const uint8_t green[3] = {0, 255, 0};
	int w = p->w, h = p->h, W = 2 * w, k = p->step;
	const struct jd_sense_result *s = f->sense;
	uint8_t *rgb = f->rgb ? f->rgb : p->rgb;

	if (!f->rgb && (!f->left || !f->disp)) {
		return NULL; /* this frame left its map or pair on the GPU: the next one shows */
	}
	if (!f->rgb) {
		jd_preview_compose_ref(f->left, f->disp, f->conf, f->min_conf, f->dmax, k, rgb);
	}
	for (int i = 0; s && i < s->nobjects; i++) {
		const struct jd_object *b = &s->objects[i];
		char label[2][16];
		snprintf(label[0], sizeof(label[0]), "%d", f->tracks ? f->tracks[i].id : b->id);
		snprintf(label[1], sizeof(label[1]), "%d", (int)lroundf(b->distance_mm));
		for (int side = 0; side < 2; side++) {
			int off = side * w;
			box(rgb, W, h, b->bbox[0] / k + off, b->bbox[1] / k, b->bbox[2] / k + off,
			    b->bbox[3] / k, green);
			text(rgb, W, h, b->bbox[0] / k + off + 3, b->bbox[1] / k + 4, label[side],
			     green);
		}
	}
	return rgb;
}

void jd_preview_set_status(struct jd_preview *p, const char *status_json)
{
	if (!p->mhd) {
		return;
	}
	pthread_mutex_lock(&p->lock);
	snprintf(p->status, sizeof(p->status), "%s", status_json);
	p->status_ns = jd_clock_ns();
	pthread_mutex_unlock(&p->lock);
}

int jd_preview_wants(struct jd_preview *p, uint64_t now_ns)
{
	if (!p->mhd) {
		return 0;
	}
	pthread_mutex_lock(&p->lock);
	int watched = p->watchers > 0;
	pthread_mutex_unlock(&p->lock);
	return watched && now_ns - p->last_ns >= 100000000ull;
}

void jd_preview_publish(struct jd_preview *p, const struct jd_preview_frame *f,
			const char *status_json, uint64_t now_ns)
{
	if (!p->mhd) {
		return;
	}
	jd_preview_set_status(p, status_json);
	if (!jd_preview_wants(p, now_ns)) {
		return;
	}
	uint8_t *rgb = compose(p, f);
	if (!rgb) {
		return;
	}
	p->last_ns = now_ns;
	int next = !p->cur;
	unsigned char *dst = p->jpeg[next];
	unsigned long len = (unsigned long)p->jpeg_cap;
	if (tjCompress2(p->tj, rgb, 2 * p->w, 0, p->h, TJPF_RGB, &dst, &len, TJSAMP_420, 80,
			TJFLAG_NOREALLOC | TJFLAG_FASTDCT)) {
		return; /* a frame the preview misses; the loop goes on */
	}
	pthread_mutex_lock(&p->lock);
	p->jpeg_len[next] = len;
	p->cur = next;
	p->seq++;
	pthread_cond_broadcast(&p->fresh);
	pthread_mutex_unlock(&p->lock);
}

/* --- serving --- */

struct stream {
	struct jd_preview *p;
	unsigned long seq;
	uint8_t *buf; /* this client's copy of a frame, with its part header */
	size_t len, off;
};

static ssize_t stream_read(void *cls, uint64_t pos, char *out, size_t max)
{
	struct stream *st = cls;
	struct jd_preview *p = st->p;

	(void)pos;
	if (st->off == st->len) {
		/* the next frame: wait for one newer than the last sent (or stop) */
		pthread_mutex_lock(&p->lock);
		while (p->seq == st->seq && !p->stopping) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 1;
			if (pthread_cond_timedwait(&p->fresh, &p->lock, &ts) == ETIMEDOUT) {
				break; /* resend the last frame: keeps the connection alive */
			}
		}
		if (p->stopping || p->jpeg_len[p->cur] == 0) {
			pthread_mutex_unlock(&p->lock);
			if (p->stopping) {
				return MHD_CONTENT_READER_END_OF_STREAM;
			}
			struct timespec ts = {0, 100000000};
			nanosleep(&ts, NULL);
			return 0;
		}
		size_t jl = p->jpeg_len[p->cur];
		int n = snprintf(
		    (char *)st->buf, 128,
		    "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %zu\r\n\r\n", jl);
		memcpy(st->buf + n, p->jpeg[p->cur], jl);
		memcpy(st->buf + n + jl, "\r\n", 2);
		st->len = (size_t)n + jl + 2;
		st->off = 0;
		st->seq = p->seq;
		pthread_mutex_unlock(&p->lock);
	}
	size_t k = st->len - st->off < max ? st->len - st->off : max;
	memcpy(out, st->buf + st->off, k);
	st->off += k;
	return (ssize_t)k;
}

/* A stream the handler counted is given back (it ended, or was never made). */
static void stream_give_back(struct jd_preview *p)
{
	pthread_mutex_lock(&p->lock);
	p->watchers--;
	pthread_mutex_unlock(&p->lock);
}

static void stream_free(void *cls)
{
	struct stream *st = cls;

	stream_give_back(st->p);
	free(st->buf);
	free(st);
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned code, const char *type,
			     const char *body, int copy)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
	    strlen(body), (void *)body, copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);

	if (!r) {
		return MHD_NO;
	}
	MHD_add_response_header(r, "Content-Type", type);
	MHD_add_response_header(r, "Cache-Control", "no-store");
	enum MHD_Result ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

/* The /status body: the loop's last text with how old it is, read now (a loop that stopped
 * shows a growing age). Called by the server's threads and the front door's. */
static size_t status_text(void *cls, char *out, size_t cap)
{
	struct jd_preview *p = cls;

	pthread_mutex_lock(&p->lock);
	snprintf(out, cap, "%s", p->status);
	uint64_t at = p->status_ns;
	pthread_mutex_unlock(&p->lock);
	size_t n = strlen(out);
	if (n > 1 && out[n - 1] == '}') {
		snprintf(out + n - 1, cap - (n - 1), ",\"age_ms\":%llu}",
			 (unsigned long long)((jd_clock_ns() - at) / 1000000u));
	}
	return strlen(out);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	struct jd_preview *p = cls;

	(void)version;
	(void)upload;
	if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			     "read-only: GET and HEAD only\n", 0);
	}
	if (*upload_size) {
		return MHD_NO; /* a body with GET: refuse the connection */
	}
	if (!*state) {
		*state = p; /* the first call only reads the headers */
		return MHD_YES;
	}
	if (!strcmp(url, "/")) {
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", page, 0);
	}
	if (!strcmp(url, "/status")) { /* the front door answers plain ones; the rest come here */
		char copy[sizeof(p->status) + 48];
		status_text(p, copy, sizeof(copy));
		return reply(c, MHD_HTTP_OK, "application/json", copy, 1);
	}
	if (!strcmp(url, "/stream.mjpg")) {
		/* counted here, under the same lock as the check: two clients cannot both take
		 * the last stream; stream_free() (or a failure below) gives it back */
		pthread_mutex_lock(&p->lock);
		int full = p->watchers >= p->max_streams;
		p->watchers += !full;
		pthread_mutex_unlock(&p->lock);
		if (full) { /* the streams' share is taken: the reserved connections stay free */
			return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain",
				     "the preview's streams are all taken; /status still answers\n",
				     0);
		}
		struct stream *st = calloc(1, sizeof(*st));
		struct MHD_Response *r = NULL;
		if (st && (st->buf = malloc(p->jpeg_cap + 256))) {
			st->p = p;
			r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 32 * 1024,
							      stream_read, st, stream_free);
		}
		if (!r) {
			stream_give_back(p);
			if (st) {
				free(st->buf);
			}
			free(st);
			return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain", "busy\n", 0);
		}
		MHD_add_response_header(r, "Content-Type",
					"multipart/x-mixed-replace; boundary=frame");
		MHD_add_response_header(r, "Cache-Control", "no-store");
		enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
		MHD_destroy_response(r);
		return ret;
	}
	return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", "not found: /, /stream.mjpg, /status\n",
		     0);
}

/*
 * libmicrohttpd's own messages, through the log with the program's prefix. A client that
 * leaves mid-stream ("Failed to send ...") is normal for a preview: said once, not per client.
 * Others (bad requests, refused connections) at most one line a 10 s: a client cannot flood
 * the journal.
 */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	static int client_left_said;
	char msg[300];

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	msg[strcspn(msg, "\n")] = '\0';
	if (strncmp(msg, "Failed to send", 14) == 0) {
		if (__atomic_exchange_n(&client_left_said, 1, __ATOMIC_RELAXED)) {
			return;
		}
		fprintf(stderr,
			"jetdepth: preview: a client left mid-stream (%s); later ones are "
			"not said\n",
			msg);
		return;
	}
	/* a bad or slow client a line: at most one line a 10 s, the ones held back counted */
	static uint64_t last_ns;
	static unsigned held;
	uint64_t now = jd_clock_ns(), last = __atomic_load_n(&last_ns, __ATOMIC_RELAXED);
	if (last && now - last < 10000000000ull) { /* the server's threads call this at once */
		__atomic_add_fetch(&held, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&last_ns, now, __ATOMIC_RELAXED);
	unsigned n = __atomic_exchange_n(&held, 0, __ATOMIC_RELAXED);
	if (n) {
		fprintf(stderr,
			"jetdepth: preview: %s (and %u more client messages in the last "
			"10 s, not said)\n",
			msg, n);
	} else {
		fprintf(stderr, "jetdepth: preview: %s\n", msg);
	}
}

int jd_preview_start(struct jd_preview *p, const struct jd_preview_config *c, int w, int h,
		     void *mem, size_t bytes)
{
	struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)c->port)};
	struct jd_carve mc;

	memset(p, 0, sizeof(*p));
	jd_carve_init(&mc, mem, bytes);
	p->step = jd_preview_step(w);
	p->max_streams = c->max_clients > 0 ? c->max_clients : 4;
	p->w = jd_preview_scaled(w, p->step);
	p->h = jd_preview_scaled(h, p->step);
	layout(&mc, p->w, p->h, &p->rgb, p->jpeg, &p->jpeg_cap);
	if (mc.overflow) {
		snprintf(p->err, sizeof(p->err), "preview: boot memory too small");
		return -ENOMEM;
	}
	p->tj = tjInitCompress();
	if (!p->tj) {
		snprintf(p->err, sizeof(p->err), "preview: cannot start the JPEG encoder");
		return -ENOMEM;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->fresh, NULL);
	snprintf(p->status, sizeof(p->status), "{\"state\":\"booting\"}");
	p->status_ns = jd_clock_ns();
	inet_pton(AF_INET, c->bind, &addr.sin_addr);
	/*
	 * Our own listening socket, for its small send buffer (connections inherit it): a client
	 * that stops reading fills at most SEND_BUFFER of kernel memory, after which its stream
	 * makes no progress and the idle timeout drops it, within seconds, not after megabytes.
	 */
	int one = 1, sndbuf = SEND_BUFFER;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf)) ||
	    /* a backlog for bursts: a client past it waits for its SYN to be resent, a second */
	    bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, 128)) {
		snprintf(p->err, sizeof(p->err), "preview: cannot listen on %s:%d: %s", c->bind,
			 c->port, strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		tjDestroy(p->tj);
		p->tj = NULL;
		return -EADDRINUSE;
	}
	/*
	 * The server takes connections only from the front door, which owns the socket and
	 * answers 503 past `limit` itself. The server's own limit stays above what the door can
	 * hand over before the server has counted them (at most JD_DOOR_WAITING a round):
	 * libmicrohttpd 0.9.75 deadlocks when a connection added from another thread meets it.
	 */
	unsigned limit = (unsigned)(p->max_streams + JD_PREVIEW_RESERVED);
	p->mhd = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
				      MHD_USE_ERROR_LOG | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC,
				  0, NULL, NULL, handle, p, MHD_OPTION_EXTERNAL_LOGGER, mhd_log,
				  NULL, MHD_OPTION_CONNECTION_LIMIT, limit + 4 * JD_DOOR_WAITING,
				  MHD_OPTION_CONNECTION_TIMEOUT, IDLE_TIMEOUT_S, MHD_OPTION_END);
	if (p->mhd && jd_door_start(&p->door, fd, p->mhd, limit, status_text, p)) {
		MHD_stop_daemon(p->mhd);
		p->mhd = NULL;
	}
	if (!p->mhd) {
		close(fd);
		snprintf(p->err, sizeof(p->err),
			 "preview: cannot listen on %s:%d (in use, or not this machine's address)",
			 c->bind, c->port);
		tjDestroy(p->tj);
		p->tj = NULL;
		return -EADDRINUSE;
	}
	return 0;
}

void jd_preview_stop(struct jd_preview *p)
{
	if (!p || !p->mhd) {
		return;
	}
	pthread_mutex_lock(&p->lock);
	p->stopping = 1;
	pthread_cond_broadcast(&p->fresh);
	pthread_mutex_unlock(&p->lock);
	jd_door_stop(&p->door); /* no connection is handed over past here */
	MHD_stop_daemon(p->mhd);
	p->mhd = NULL;
	tjDestroy(p->tj);
	p->tj = NULL;
}
