/*
 * The preview's picture on the GPU: the twin of jd_preview_compose_ref()
 * (algo/preview_compose.c), the same bytes. One thread a picture pixel (at the picture's step)
 * writes its left-view RGB and its disparity's colour. The float steps are spelled out (__fmul_rn,
 * __fsub_rn, __fdiv_rn) so that nvcc fuses none of them: the reference builds without fused
 * multiply-add.
 */
#include <stdint.h>

__device__ static float jd_preview_ramp(float t, float c)
{
	const float x = 1.5f - fabsf(__fsub_rn(__fmul_rn(4.0f, t), c));
	return fminf(fmaxf(x, 0.0f), 1.0f);
}

extern "C" __global__ void jd_preview_cuda(const uint8_t *__restrict__ left,
					   const float *__restrict__ disp,
					   const uint8_t *__restrict__ conf, int min_conf,
					   float dmax, int w, int step, int pw,
					   uint8_t *__restrict__ rgb)
{
	const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y;

	if (px >= pw) {
		return;
	}
	const size_t i = (size_t)py * step * w + (size_t)px * step;
	const uint8_t l = left[i];
	const int distrusted = conf && conf[i] < min_conf;
	uint8_t *o = rgb + (size_t)py * pw * 6;
	const float d = disp[i];

	o[3 * px] = l;
	o[3 * px + 1] = o[3 * px + 2] = (uint8_t)(distrusted ? l / 2 : l);
	uint8_t *c = o + 3 * (pw + px);
	if (distrusted || !(d >= 0) || !isfinite(d) || dmax <= 0) {
		c[0] = c[1] = c[2] = 0;
		return;
	}
	float t = __fdiv_rn(d, dmax);
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	c[0] = (uint8_t)__fmul_rn(255.0f, jd_preview_ramp(t, 3.0f));
	c[1] = (uint8_t)__fmul_rn(255.0f, jd_preview_ramp(t, 2.0f));
	c[2] = (uint8_t)__fmul_rn(255.0f, jd_preview_ramp(t, 1.0f));
}
