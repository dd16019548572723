# SPDX-License-Identifier: MIT
#
# GPU system calls (issue 5).  The host runtime and the CPU-lane tests build
# everywhere; the CUDA side builds only with nvcc:
#
#   make            runtime, CPU-lane tests (+ a ThreadSanitizer build of
#                   them when the compiler supports it), sysgate-gpu-bench
#   make gpu        CUDA device code, examples and their .ptx in $(BUILD)/gpu/
#                   (says so and does nothing else when there is no nvcc)
#   make check-gpu  the gpu test suite only
#   make check-gpu-device  build for the GPU present and run everything on
#                   it (tests/gpu/device.sh; exit 77 without a GPU)
# The GPU host runtime runs beside CUDA on the host: x86-64 only.
ifeq ($(ARCH),x86_64)

NVCC ?= $(shell command -v nvcc 2>/dev/null || \
	  { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
NVCC_ARCH ?= sm_90
NVCCFLAGS ?= -std=c++17 -O2 -arch=$(NVCC_ARCH) -Iinclude -Igpu

GPU_HAVE_URING := $(shell printf '\043include <liburing.h>\nint main(void){struct io_uring r; return io_uring_queue_init(1, &r, 0);}\n' | \
	$(CC) -x c - -o /dev/null -luring >/dev/null 2>&1 && echo 1)
GPU_HAVE_TSAN := $(shell echo 'int main(void){return 0;}' | \
	$(CXX) -fsanitize=thread -x c++ - -o /dev/null >/dev/null 2>&1 && echo 1)

GPU_DEFS := $(if $(GPU_HAVE_URING),-DSG_HAVE_URING)
GPU_LIBS := -pthread $(if $(GPU_HAVE_URING),-luring)
GPU_CXXFLAGS := -std=gnu++17 $(OPT) -g -Wall -Wextra $(WERROR) -Iinclude -Igpu \
	-D_GNU_SOURCE -pthread
GPU_RT_SRCS := gpu/server.c gpu/calls.c gpu/ranges.c gpu/sysclass.c
GPU_RT_OBJS := $(GPU_RT_SRCS:%.c=$(BUILD)/%.o)
GPU_HDRS := include/sysgate_gpu.h gpu/sysgate_gpu_int.h gpu/runtime.h gpu/cpu_lanes.h \
	gpu/examples.h

$(GPU_RT_OBJS): EXTRA_CFLAGS = -Igpu -pthread $(GPU_DEFS)
$(GPU_RT_OBJS): $(GPU_HDRS)

$(GPU_RT_OBJS): $(GEN_HEADERS)
$(BUILD)/libsysgate-gpu.a: $(GPU_RT_OBJS) $(BUILD)/gen/syscalls.o
	$(AR) rcs $@ $^

GPU_LANES_SRCS := tests/gpu/lanes.cc tests/gpu/lanes_ext.cc

$(BUILD)/tests/gpu/lanes: $(GPU_LANES_SRCS) tests/gpu/lanes.h \
		$(BUILD)/libsysgate-gpu.a $(GPU_HDRS)
	@mkdir -p $(dir $@)
	$(CXX) $(GPU_CXXFLAGS) $(GPU_LANES_SRCS) $(BUILD)/libsysgate-gpu.a \
		$(GPU_LIBS) -o $@

$(BUILD)/sysgate-gpu-bench: gpu/bench.cc $(BUILD)/libsysgate-gpu.a $(GPU_HDRS)
	$(CXX) $(GPU_CXXFLAGS) $< $(BUILD)/libsysgate-gpu.a $(GPU_LIBS) -o $@

PROGS += $(BUILD)/libsysgate-gpu.a $(BUILD)/tests/gpu/lanes \
	$(BUILD)/sysgate-gpu-bench

# The same runtime and tests under ThreadSanitizer (runtime and test code
# only; nothing here is preloaded into other programs).
ifeq ($(GPU_HAVE_TSAN),1)
TSAN_FLAGS := -fsanitize=thread -O1 -g
$(BUILD)/tests/gpu/lanes-tsan: $(GPU_LANES_SRCS) tests/gpu/lanes.h \
		$(GPU_RT_SRCS) $(GPU_HDRS) \
		$(BUILD)/gen/syscalls.o $(GEN_HEADERS)
	@mkdir -p $(dir $@)
	for f in $(GPU_RT_SRCS); do \
		$(CC) -std=gnu11 -Wall -Wextra $(WERROR) $(TSAN_FLAGS) -Iinclude \
			-Igpu -I$(BUILD)/gen -D_GNU_SOURCE $(GPU_DEFS) -c $$f \
			-o $@-$$(basename $$f .c).o || exit 1; \
	done
	$(CXX) $(filter-out $(OPT),$(GPU_CXXFLAGS)) $(TSAN_FLAGS) \
		$(GPU_LANES_SRCS) $(GPU_RT_SRCS:gpu/%.c=$@-%.o) $(BUILD)/gen/syscalls.o \
		$(GPU_LIBS) -o $@
PROGS += $(BUILD)/tests/gpu/lanes-tsan
endif

# ---- CUDA side ----
GPU_CU := gpu/examples.cu gpu/bench.cu
GPU_PTX := $(GPU_CU:gpu/%.cu=$(BUILD)/gpu/%.ptx)
GPU_BINS := $(BUILD)/gpu/sysgate-gpu-examples $(BUILD)/gpu/sysgate-gpu-bench

ifneq ($(NVCC),)
$(BUILD)/gpu/%.ptx: gpu/%.cu $(GPU_HDRS) gpu/cuda_host.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -ptx $< -o $@

$(BUILD)/gpu/sysgate-gpu-examples: gpu/examples.cu gpu/cuda_host.cu \
		$(BUILD)/libsysgate-gpu.a $(GPU_HDRS) gpu/cuda_host.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) gpu/examples.cu gpu/cuda_host.cu \
		$(BUILD)/libsysgate-gpu.a $(GPU_LIBS:-pthread=-Xcompiler -pthread) -o $@

$(BUILD)/gpu/sysgate-gpu-bench: gpu/bench.cu gpu/cuda_host.cu \
		$(BUILD)/libsysgate-gpu.a $(GPU_HDRS) gpu/cuda_host.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) gpu/bench.cu gpu/cuda_host.cu \
		$(BUILD)/libsysgate-gpu.a $(GPU_LIBS:-pthread=-Xcompiler -pthread) -o $@

gpu: $(GPU_PTX) $(GPU_BINS)
# The PTX assertions are part of `make check` wherever nvcc exists.
CHECK_DEPS += $(GPU_PTX)
else
gpu:
	@echo "make gpu: nvcc not found; CUDA build skipped (the CPU-lane tests still build and run)"
endif

check-gpu: everything $(if $(NVCC),gpu)
	@BUILD=$(BUILD) ARCH=$(ARCH) RUN="$(RUN)" bash tests/run.sh --suite gpu

# Everything that needs a GPU, with a JSON report; exit 77 without one.
check-gpu-device: everything
	tests/gpu/device.sh $(BUILD)

.PHONY: gpu check-gpu check-gpu-device
endif
