/* SPDX-License-Identifier: MIT */
/*
 * cuda_host.h - start the sysgate GPU runtime beside a CUDA context.
 * The control area is pinned, mapped host memory (cudaHostAllocMapped;
 * with UVA the device sees it at the same address); port locks are device
 * memory.  Ports default to the device's maximum resident warps, so every
 * warp that can run can get a port (no deadlock by port starvation).
 */
#ifndef SYSGATE_GPU_CUDA_HOST_H
#define SYSGATE_GPU_CUDA_HOST_H

#include "sysgate_gpu.h"

struct sysgate_gpu_cuda {
	struct sysgate_gpu_server *srv;
	struct sysgate_gpu_client client;	/* pass to kernels by value */
	void *area;
	char desc[512];			/* GPU, driver and runtime versions */
};

/* 0, or -ENODEV (message in desc) when no usable device, or -errno. */
int sysgate_gpu_cuda_start(struct sysgate_gpu_cuda *g, unsigned nports,
			   unsigned staging_per_lane,
			   const struct sysgate_gpu_opts *opts);
void sysgate_gpu_cuda_stop(struct sysgate_gpu_cuda *g);
/* Pinned mapped host memory, registered with the runtime. */
void *sysgate_gpu_cuda_alloc(struct sysgate_gpu_cuda *g, size_t len);
void sysgate_gpu_cuda_free(struct sysgate_gpu_cuda *g, void *p);
/*
 * Device memory (cudaMalloc) registered for the bulk path: read/pread/
 * write/pwrite on it move through pinned bounce buffers with
 * cudaMemcpyAsync on a per-worker host-side stream.
 */
void *sysgate_gpu_cuda_alloc_device(struct sysgate_gpu_cuda *g, size_t len);
void sysgate_gpu_cuda_free_device(struct sysgate_gpu_cuda *g, void *p);

#endif
