/* fp16 conversions against the compiler's IEEE _Float16 (every half, a sweep of floats). */
#include <stdio.h>
#include <string.h>

#include "jd_half.h"
#include "jd_test.h"

int main(void)
{
	long checked = 0;

#ifdef __FLT16_MAX__
	for (unsigned i = 0; i < 65536; i++) {
		uint16_t bits = (uint16_t)i;
		_Float16 h;
		float ref, got = jd_half_to_float(bits);

		memcpy(&h, &bits, 2);
		ref = (float)h;
		if (ref != ref) {
			JD_CHECK(got != got, "half %04x: NaN expected", i);
		} else {
			JD_CHECK(memcmp(&ref, &got, 4) == 0, "half %04x: %g expected, got %g", i,
				 (double)ref, (double)got);
		}
		/* Round trip: every non-NaN half survives float and back. */
		if (ref == ref) {
			JD_CHECK(jd_float_to_half(got) == bits, "half %04x does not round-trip", i);
		}
	}
	/* A prime stride visits every exponent and many mantissas, ties included below. */
	for (unsigned long u = 0; u < (1ul << 32); u += 4099) {
		uint32_t v = (uint32_t)u;
		float f;
		_Float16 h;
		uint16_t ref;

		memcpy(&f, &v, 4);
		if (f != f) {
			continue;
		}
		h = (_Float16)f;
		memcpy(&ref, &h, 2);
		JD_CHECK(jd_float_to_half(f) == ref, "float %08x: half %04x expected, got %04x", v,
			 ref, jd_float_to_half(f));
		checked++;
	}
	JD_CHECK(checked > 1000000, "sweep covered %ld floats", checked);
#else
	/* clang 14 on x86-64 (the fuzz preset) has no _Float16: the fixed cases below only. */
	printf("no _Float16 in this compiler: the sweeps against it are not run, the fixed cases "
	       "are\n");
	(void)checked;
#endif
	/* Exact ties round to even: 1 + 2^-11 -> 1.0, 1 + 3 * 2^-11 -> 1 + 2^-9. */
	JD_CHECK(jd_float_to_half(1.0f + 0x1p-11f) == 0x3c00, "tie to even (down)");
	JD_CHECK(jd_float_to_half(1.0f + 3 * 0x1p-11f) == 0x3c02, "tie to even (up)");
	JD_CHECK(jd_float_to_half(65520.0f) == 0x7c00, "65520 rounds to inf");
	JD_CHECK(jd_float_to_half(65504.0f) == 0x7bff, "65504 is the largest half");
	JD_CHECK(jd_float_to_half(0x1p-25f) == 0x0000, "2^-25 rounds to zero (tie to even)");
	JD_CHECK(jd_float_to_half(0x1p-24f) == 0x0001, "2^-24 is the smallest subnormal");
	return jd_test_done("unit.half");
}
