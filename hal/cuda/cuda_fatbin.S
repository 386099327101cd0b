/* The CUDA kernels (algo/cuda/ .cu files, built by nvcc into kernels.fatbin) inside the binary. */
	.section .rodata.jd_cuda_fatbin, "a", %progbits
	.balign 16
	.global jd_cuda_fatbin
jd_cuda_fatbin:
	.incbin JD_FATBIN /* the path, from CMake */
	.global jd_cuda_fatbin_end
jd_cuda_fatbin_end:
	.byte 0
	.section .note.GNU-stack, "", %progbits
