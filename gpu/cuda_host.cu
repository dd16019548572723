// SPDX-License-Identifier: MIT
/* cuda_host.cu - the CUDA glue for the sysgate GPU runtime (host code). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cuda_host.h"

/*
 * The bulk path's copier: one stream per worker thread, destroyed when the
 * worker exits.  Non-blocking: a copy on a stream that synchronised with
 * the legacy default stream would wait for the kernel that is waiting for
 * this very call.
 */
struct worker_stream_holder {
	cudaStream_t st = 0;
	~worker_stream_holder()
	{
		if (st)
			cudaStreamDestroy(st);
	}
};

static cudaStream_t worker_stream(void)
{
	static thread_local worker_stream_holder h;

	if (!h.st)
		cudaStreamCreateWithFlags(&h.st, cudaStreamNonBlocking);
	return h.st;
}

static int cp_copy(void *ctx, void *dst, const void *src, size_t len,
		   int to_device)
{
	(void)ctx;
	return cudaMemcpyAsync(dst, src, len, to_device ?
			       cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost,
			       worker_stream()) == cudaSuccess ? 0 : -EIO;
}

static int cp_wait(void *ctx)
{
	(void)ctx;
	return cudaStreamSynchronize(worker_stream()) == cudaSuccess ? 0 : -EIO;
}

static void *cp_alloc(void *ctx, size_t len)
{
	void *p = 0;

	(void)ctx;
	return cudaHostAlloc(&p, len, cudaHostAllocPortable) == cudaSuccess ?
		p : 0;
}

static void cp_free(void *ctx, void *p)
{
	(void)ctx;
	cudaFreeHost(p);
}

int sysgate_gpu_cuda_start(struct sysgate_gpu_cuda *g, unsigned nports,
			   unsigned staging_per_lane,
			   const struct sysgate_gpu_opts *opts)
{
	int n = 0, drv = 0, rt = 0, dev = 0;
	cudaError_t e = cudaGetDeviceCount(&n);

	memset(g, 0, sizeof(*g));
	if (e != cudaSuccess || n == 0) {
		snprintf(g->desc, sizeof(g->desc),
			 "no CUDA device (cudaGetDeviceCount: %s)",
			 e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
		return -ENODEV;
	}
	cudaDeviceProp p;
	cudaGetDevice(&dev);
	cudaGetDeviceProperties(&p, dev);
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	int hna = 0, cma = 0, pma = 0;
	cudaDeviceGetAttribute(&hna, cudaDevAttrHostNativeAtomicSupported, dev);
	cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, dev);
	cudaDeviceGetAttribute(&pma, cudaDevAttrPageableMemoryAccess, dev);
	snprintf(g->desc, sizeof(g->desc),
		 "\"gpu\":\"%s\",\"sm\":\"%d.%d\",\"sms\":%d,\"driver\":%d,"
		 "\"runtime\":%d,\"hostNativeAtomic\":%d,"
		 "\"concurrentManagedAccess\":%d,\"pageableMemoryAccess\":%d",
		 p.name, p.major, p.minor, p.multiProcessorCount, drv, rt, hna,
		 cma, pma);
	if (!nports)
		nports = p.multiProcessorCount *
			(p.maxThreadsPerMultiProcessor / 32);
	size_t sz = sysgate_gpu_area_size(nports, staging_per_lane);
	if (cudaHostAlloc(&g->area, sz, cudaHostAllocMapped |
			  cudaHostAllocPortable) != cudaSuccess)
		return -ENOMEM;
	int r = sysgate_gpu_server_start(&g->srv, g->area, nports,
					 staging_per_lane, opts, &g->client);
	if (r) {
		cudaFreeHost(g->area);
		return r;
	}
	void *dptr;
	cudaHostGetDevicePointer(&dptr, g->area, 0);
	if (dptr != g->area) {	/* the runtime checks pointers by address */
		sysgate_gpu_server_stop(g->srv);
		cudaFreeHost(g->area);
		snprintf(g->desc, sizeof(g->desc), "no unified addressing");
		return -ENOTSUP;
	}
	size_t lb = (nports + 31) / 32 * sizeof(uint32_t);
	if (cudaMalloc(&g->client.locks, lb) != cudaSuccess) {
		sysgate_gpu_server_stop(g->srv);
		cudaFreeHost(g->area);
		return -ENOMEM;
	}
	cudaMemset(g->client.locks, 0, lb);
	cudaDeviceSynchronize();
	struct sysgate_gpu_copier cp = { cp_copy, cp_wait, cp_alloc, cp_free,
					 0, 4u << 20 };
	sysgate_gpu_set_copier(g->srv, &cp);
	g->client.timeout_ns = 10ull * 1000000000;
	return 0;
}

void sysgate_gpu_cuda_stop(struct sysgate_gpu_cuda *g)
{
	sysgate_gpu_drain(g->srv, 10000);
	sysgate_gpu_server_stop(g->srv);
	cudaFree(g->client.locks);
	cudaFreeHost(g->area);
}

void *sysgate_gpu_cuda_alloc(struct sysgate_gpu_cuda *g, size_t len)
{
	void *p = 0;

	if (cudaHostAlloc(&p, len, cudaHostAllocMapped |
			  cudaHostAllocPortable) != cudaSuccess)
		return 0;
	memset(p, 0, len);
	sysgate_gpu_register(g->srv, p, len);
	return p;
}

void sysgate_gpu_cuda_free(struct sysgate_gpu_cuda *g, void *p)
{
	sysgate_gpu_unregister(g->srv, p);
	cudaFreeHost(p);
}

void *sysgate_gpu_cuda_alloc_device(struct sysgate_gpu_cuda *g, size_t len)
{
	void *p = 0;

	if (cudaMalloc(&p, len) != cudaSuccess)
		return 0;
	sysgate_gpu_register_device(g->srv, p, len);
	return p;
}

void sysgate_gpu_cuda_free_device(struct sysgate_gpu_cuda *g, void *p)
{
	sysgate_gpu_unregister(g->srv, p);
	cudaFree(p);
}
