# SPDX-License-Identifier: MIT
# libsysgate.so (core, mechanisms, built-in hooks), the sysgate CLI, the
# bench loop and the example hooks.

# Include paths by layer, so that a layer can only name what is below it:
# core/ and arch/ see themselves, include/ and the generated tables (the
# base paths); a mechanism sees the core and the mechanisms' headers; a
# hook sees include/ alone (and, as every quoted include does, its own
# directory); lib/ (the composition root), tools/ and the tests see
# everything.  `private`: an object built as another target's prerequisite
# keeps its own layer's paths.
MECH_INC := -Imechanisms/patch -Imechanisms/seccomp -Imechanisms/zeropage
WIDE_INC := -Ilib $(MECH_INC) -Ihooks/count -Ihooks/hot
$(BUILD)/mechanisms/%: private CPPFLAGS_COMMON += $(MECH_INC)
$(BUILD)/hooks/%.o: private CPPFLAGS_COMMON := -Iinclude -I$(BUILD)/gen \
	-D_GNU_SOURCE
$(BUILD)/lib/% $(BUILD)/tools/% $(BUILD)/tests/% $(BUILD)/bench/%: \
	private CPPFLAGS_COMMON += $(WIDE_INC)

# lib/ is the composition root: the registries of mechanisms and built-in
# hooks, and the library's constructor.
RUNTIME_SRCS := $(filter-out core/init.c,$(wildcard core/*.c)) lib/registry.c \
	$(wildcard hooks/lib/*.c) \
	$(wildcard hooks/trace/*.c) hooks/count/count.c hooks/count/summary.c \
	hooks/inject/inject.c $(wildcard hooks/fs/*.c) \
	hooks/bypass/bypass.c hooks/bypass/wlog.c hooks/hot/hot.c \
	mechanisms/patch/patch.c mechanisms/patch/lazy.c \
	mechanisms/patch/watch.c mechanisms/patch/lock.c mechanisms/patch/elfobj.c \
	mechanisms/patch/plans.c mechanisms/patch/sweep.c \
	mechanisms/patch/region.c mechanisms/patch/write.c mechanisms/patch/stats.c \
	mechanisms/preload/preload.c \
	mechanisms/seccomp/seccomp.c mechanisms/sud/sud.c mechanisms/int3/int3.c \
	mechanisms/ptrace/ptrace.c mechanisms/zeropage/zeropage.c \
	$(wildcard mechanisms/patch/patch-$(ARCH).c) \
	$(firstword $(wildcard mechanisms/zeropage/zeropage-$(ARCH).c) \
		mechanisms/zeropage/zeropage-none.c)
# Deferred (with $$ in prerequisites): later fragments add ARCH_OBJS,
# TABLE_OBJS and TRACE_OBJS.
RUNTIME_OBJS = $(RUNTIME_SRCS:%.c=$(BUILD)/%.o) $(ARCH_OBJS) $(TABLE_OBJS) \
	$(TRACE_OBJS)
INIT_OBJ := $(BUILD)/core/init.o $(BUILD)/lib/preload.o

# Everything linked into the preloaded library is freestanding hot-path
# code (see core/sg.h); init.c alone may call libc, and only at start-up.
$(RUNTIME_SRCS:%.c=$(BUILD)/%.o) $(INIT_OBJ): EXTRA_CFLAGS = $(CFLAGS_HOT)

$(BUILD)/libsysgate-core.a: $$(RUNTIME_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libsysgate.so: $(INIT_OBJ) $$(RUNTIME_OBJS) sysgate.map mk/hot.ld
	$(CC) -shared -o $@ $(INIT_OBJ) $(RUNTIME_OBJS) \
		-Wl,--version-script=sysgate.map -Wl,-Bsymbolic -Wl,-z,noexecstack \
		-Wl,-z,now -Wl,-soname,libsysgate.so.1 $(LDFLAGS_DATA) $(LDFLAGS_HOT) \
		$(LDLIBS)

CLI_SRCS := $(wildcard tools/sysgate/*.c)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)

# The sysgate command is the front (tools/front), which runs a plain
# command line itself and hands the rest to sysgate-dl, the whole CLI
# with libc.  The front has no libc (-nostdlib, static, at its link
# address): a libc's start cost it more than its own work (~0.5 ms, its
# CPUID probes, relocation and pages; doc/benchmarks.md).  Its work is
# run.c, which the whole CLI shares.  sysgate-dl is linked dynamically,
# exporting the API to the hooks it dlopens.
$(BUILD)/tools/sysgate/run.o: EXTRA_CFLAGS = $(CFLAGS_HOT)
FRONT_OBJS := $(BUILD)/arch/$(ARCH)/front_start.o $(BUILD)/tools/front/front.o \
	$(BUILD)/tools/sysgate/run.o
$(BUILD)/tools/front/front.o: EXTRA_CFLAGS = $(CFLAGS_HOT) -Itools/sysgate
$(BUILD)/arch/$(ARCH)/front_start.o: arch/$(ARCH)/loader_start.S $(GEN_HEADERS) | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_COMMON) -DSG_START_MAIN=sg_front_main -MMD -MP -c $< -o $@
$(BUILD)/sysgate: $(FRONT_OBJS) $(BUILD)/libsysgate-core.a
	$(CC) -static -nostdlib -no-pie -o $@ $(FRONT_OBJS) \
		$(BUILD)/libsysgate-core.a -lgcc -Wl,-z,noexecstack \
		-Wl,--gc-sections $(LDFLAGS_DATA)

$(BUILD)/sysgate-dl: $(CLI_OBJS) $(BUILD)/libsysgate-core.a
	$(CC) -rdynamic -o $@ $(CLI_OBJS) $(BUILD)/libsysgate-core.a -ldl $(LDLIBS)

$(BUILD)/sysgate-bench-loop: bench/micro/loop.c $(GEN_HEADERS) | $(BUILD)/.dir
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) -o $@ $<

$(BUILD)/hooks/%.so: hooks/examples/%.c include/sysgate.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(ARCH_HOOK_CFLAGS) -Iinclude -shared -o $@ $<

# null.c again, as a user would build it without SYSGATE_HOOK_NOFPU
$(BUILD)/hooks/null-fpu.so: hooks/examples/null.c include/sysgate.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -DNULL_FPU -Iinclude -shared -o $@ $<

# ... and with its enter() behind a pointer, which sysgate cannot show
# FPU-free (null-fpu.so it can): bench's row for the FPU save
$(BUILD)/hooks/null-save.so: tests/hooks/null-save.c hooks/examples/null.c include/sysgate.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Iinclude -shared -o $@ $<

EXAMPLE_HOOKS := $(patsubst hooks/examples/%.c,$(BUILD)/hooks/%.so,\
	$(wildcard hooks/examples/*.c)) $(BUILD)/hooks/null-fpu.so \
	$(BUILD)/hooks/null-save.so

# The preload mechanism's wrappers: ordinary libc code, loaded beside
# libsysgate.so only with -m preload.
$(BUILD)/libsysgate-preload.so: mechanisms/preload/wrappers.c | $(BUILD)/.dir
	$(CC) $(CFLAGS_COMMON) -D_GNU_SOURCE -shared -o $@ $< \
		-Wl,-z,noexecstack

# Cross builds (ARCH=riscv64, aarch64) make the preloaded library and the
# hooks: under qemu-user a program cannot exec another one (no binfmt),
# so the CLI, which starts programs, is built for the host only.
PROGS += $(BUILD)/libsysgate.so $(EXAMPLE_HOOKS)
ifeq ($(ARCH),x86_64)
PROGS += $(BUILD)/libsysgate-preload.so $(BUILD)/sysgate $(BUILD)/sysgate-dl \
	$(BUILD)/sysgate-bench-loop
endif

bench: everything
	$(BUILD)/sysgate bench

.PHONY: bench

# sysgate-loader: a static program with the runtime linked in, for
# programs LD_PRELOAD cannot reach (static ones) and for coverage from
# ld.so's first instruction (sysgate --loader).  It is linked at a fixed
# address so that its text, the only code -m seccomp's filter lets reach
# the kernel, is at the same place in every process of a tree, across
# execve: below 2 GiB (the static start files need 32-bit addresses),
# above where non-PIE programs sit; their heap starts after it.
# --eh-frame-hdr: trace -k finds the unwind tables by their header.
# No libc (-nostdlib): its start would cost more than the loader's work
# (tools/loader/loader.c); the entry is arch/$(ARCH)/loader_start.S.
SG_LOADER_BASE ?= 0x53470000
LOADER_OBJS := $(BUILD)/arch/$(ARCH)/loader_start.o \
	$(BUILD)/tools/loader/loader.o $(BUILD)/tools/loader/start.o \
	$(BUILD)/tools/loader/stub.o
$(LOADER_OBJS): EXTRA_CFLAGS = $(CFLAGS_HOT)
# (the stub runs before anything else of the loader is mapped)
$(BUILD)/tools/loader/stub.o: EXTRA_CFLAGS = $(CFLAGS_HOT) -fno-jump-tables
$(BUILD)/sysgate-loader.elf: $(LOADER_OBJS) $(BUILD)/core/init.o \
		$$(RUNTIME_OBJS) mk/hot.ld
	$(CC) -static -nostdlib -no-pie -Wl,-Ttext-segment=$(SG_LOADER_BASE) \
		-o $@ $(LOADER_OBJS) $(BUILD)/core/init.o $(RUNTIME_OBJS) \
		-lgcc -Wl,-z,noexecstack -Wl,--eh-frame-hdr -Wl,--build-id \
		$(LDFLAGS_DATA) $(LDFLAGS_HOT)

# The installed loader: the kernel maps only its stub (tools/loader/stub.c).
$(BUILD)/tools/loader/stubify: tools/loader/stubify.c tools/loader/stub.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -Wall -o $@ $<
$(BUILD)/sysgate-loader: $(BUILD)/sysgate-loader.elf $(BUILD)/tools/loader/stubify
	$(BUILD)/tools/loader/stubify $< $@.tmp
	chmod 755 $@.tmp
	mv -f $@.tmp $@

# The loader as linked, which the installed one's stub maps
# (tools/loader/stub.c): a new file each time, never rewritten in place
# under processes that map it.
$(BUILD)/sysgate-loader.text: $(BUILD)/sysgate-loader.elf
	cp -f $< $@.tmp
	mv -f $@.tmp $@

ifeq ($(ARCH),x86_64)
PROGS += $(BUILD)/sysgate-loader $(BUILD)/sysgate-loader.text
endif

# Small-file rates on tmpfs and on --fs (bench/fs/run.sh).
$(BUILD)/bench-fs-smallfiles: bench/fs/smallfiles.c | $(BUILD)/.dir
	$(CC) $(CFLAGS_COMMON) -o $@ $<

PROGS += $(BUILD)/bench-fs-smallfiles

# The same phases on libcephfs directly (bench/fs/ceph.sh's floor).
$(BUILD)/bench-fs-smallfiles-ceph: bench/fs/smallfiles-ceph.c bench/fs/cephdl.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_COMMON) -o $@ $< -ldl

PROGS += $(BUILD)/bench-fs-smallfiles-ceph

# A sequential write and read on libcephfs directly (the dd rows' floor).
$(BUILD)/bench-fs-seq-ceph: bench/fs/seq-ceph.c bench/fs/cephdl.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_COMMON) -o $@ $< -ldl

PROGS += $(BUILD)/bench-fs-seq-ceph

# `find` on libcephfs directly (the find rows' floor).
$(BUILD)/bench-fs-find-ceph: bench/fs/find-ceph.c bench/fs/cephdl.h | $(BUILD)/.dir
	$(CC) $(CFLAGS_COMMON) -o $@ $< -ldl

PROGS += $(BUILD)/bench-fs-find-ceph

bench-fs: everything
	BUILD=$(BUILD) bash bench/fs/run.sh

# --fs on CephFS against ceph-fuse and libcephfs (root; a cluster).
bench-fs-ceph: everything
	BUILD=$(BUILD) bash bench/fs/ceph.sh

.PHONY: bench-fs bench-fs-ceph
