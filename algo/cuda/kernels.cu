/*
 * The one translation unit nvcc turns into kernels.fatbin (nvcc -fatbin takes one input):
 * each stage keeps its own file, included here.
 */
#include "sad_cuda.cu"
/* JD_SGM_PREV: an earlier commit's SGM file, to time both in one call (tools/gpu/sgm.sh) */
#ifdef JD_SGM_PREV
#include "sgm_cuda_prev.cu"
#else
#include "sgm_cuda.cu"
#endif
#include "bp_cuda.cu"
#include "bp_messages_cuda.cu"
#include "postfilter_cuda.cu"
#include "rectify_cuda.cu"
#include "convert_cuda.cu"
#include "prefilter_cuda.cu"
#include "confidence_cuda.cu"
#include "preview_cuda.cu"
#include "cloud_cuda.cu"
#include "sense_cuda.cu"
#include "sense_objects_cuda.cu"
