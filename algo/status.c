#include "jd_status.h"

const char *jd_strerror(int status)
{
	switch (status) {
	case 0:
		return "success";
	case -EINVAL:
		return "invalid argument";
	case -ENOMEM:
		return "out of pool memory";
	case -ENOSYS:
		return "operation not supported";
	case -EAGAIN:
		return "timed out";
	case -EIO:
		return "input/output error";
	case -ENODEV:
		return "no such device";
	case -EPERM:
		return "not permitted after boot";
	case -ENOENT:
		return "no such file";
	default:
		return "error";
	}
}
