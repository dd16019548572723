# SPDX-License-Identifier: MIT
#
# sysgate build.  GNU make, no configure step.
#
#   make                      build for this machine into build/
#   make check                build and run the whole test suite
#   make ARCH=riscv64         cross-build into build-riscv64/ (also aarch64)
#   make check ARCH=riscv64   run the portable tests under qemu-user
#   make check-real           CPython's own tests under each mode (long)
#
# Each area of the tree adds its objects, programs and tests through a
# fragment in mk/*.mk, so areas can grow without editing this file.

HOST_ARCH := $(shell uname -m)
ARCH ?= $(HOST_ARCH)

ifeq ($(ARCH),$(HOST_ARCH))
BUILD ?= build
CROSS_COMPILE ?=
RUN ?=
else
BUILD ?= build-$(ARCH)
CROSS_COMPILE ?= $(ARCH)-linux-gnu-
QEMU_SYSROOT ?= /usr/$(ARCH)-linux-gnu
RUN ?= qemu-$(ARCH) -L $(QEMU_SYSROOT)
endif

CC := $(CROSS_COMPILE)gcc
CXX := $(CROSS_COMPILE)g++
AR := $(CROSS_COMPILE)ar
OBJDUMP := $(CROSS_COMPILE)objdump
HOSTCC ?= gcc
AWK ?= awk

WERROR ?= -Werror
OPT ?= -O2
CPPFLAGS_COMMON := -Iinclude -Iarch/$(ARCH) -Iarch/generic -Icore -I$(BUILD)/gen \
	-D_GNU_SOURCE
CFLAGS_COMMON := -std=gnu11 $(OPT) -g -Wall -Wextra $(WERROR) -fPIC \
	-fno-strict-aliasing
# Each variable in a section of its own, and the runtime's links sort them
# by alignment: scalars and short strings (aligned to 8 or less) end up
# together on a few pages instead of between the large arrays, and a
# hooked process writes fewer pages of sysgate's data (doc/benchmarks.md).
CFLAGS_DATA := -fdata-sections
LDFLAGS_DATA := -Wl,--sort-section=alignment
# The hot path at a fixed place of its own in what processes run
# (mk/hot.ld).
LDFLAGS_HOT := -Wl,-T,mk/hot.ld
# Objects on the syscall hot path (and the built-in hooks): no libc calls,
# no stack protector, no vector registers, so entering a hook costs no
# FPU save.  Per-arch flags for "general registers only" come from
# arch/$(ARCH)/arch.mk.
CFLAGS_HOT := -ffreestanding -fno-builtin -fno-stack-protector \
	-fno-tree-loop-distribute-patterns \
	-fvisibility=hidden -fno-omit-frame-pointer $(CFLAGS_DATA)

-include arch/$(ARCH)/arch.mk

# Link rules name objects that later fragments add ($$(VAR) prerequisites).
.SECONDEXPANSION:

# Fragments append to these.
LIB_OBJS :=
ARCH_OBJS +=
CLI_OBJS :=
PROGS :=
CHECK_DEPS :=
GEN_HEADERS :=
CLEAN_FILES :=

all: everything

include $(sort $(wildcard mk/*.mk))

everything: $(PROGS)

$(BUILD)/.dir:
	@mkdir -p $(BUILD)/gen
	@touch $@

# Generic compile rules; fragments set per-object flags with target-specific
# variables (e.g. `$(BUILD)/core/%.o: EXTRA_CFLAGS = $(CFLAGS_HOT)`).
$(BUILD)/%.o: %.c $(GEN_HEADERS) | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) $(EXTRA_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.S $(GEN_HEADERS) | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_COMMON) $(EXTRA_CFLAGS) -MMD -MP -c $< -o $@

check: everything $(CHECK_DEPS)
	@BUILD=$(BUILD) ARCH=$(ARCH) RUN="$(RUN)" OBJDUMP=$(OBJDUMP) \
		bash tests/run.sh $(CHECK_ARGS)

# CPython's own regression tests natively and under each mode (minutes
# each, too long for `make check`); a mode still running after
# REAL_MINUTES is reported as a hang.
REAL_MINUTES ?= 8
check-real: everything $(CHECK_DEPS)
	@BUILD=$(BUILD) ARCH=$(ARCH) RUN="$(RUN)" TEST_TIMEOUT=$$(($(REAL_MINUTES) * 60)) \
		bash tests/run.sh --suite real/cpython

clean:
	rm -rf $(BUILD) $(CLEAN_FILES)

.PHONY: all everything check check-real clean

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
