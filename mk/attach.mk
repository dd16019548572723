# SPDX-License-Identifier: MIT
# sysgate -p PID: the runtime as a self-contained position-independent
# image, no libc and no interpreter, which the CLI maps into a running
# process and relocates itself (tools/sysgate/attach.c, doc/attach.md).

ifeq ($(ARCH),x86_64)
ATTACH_OBJS := $(BUILD)/arch/x86_64/attach.o $(BUILD)/tools/attach/image.o
$(BUILD)/tools/attach/image.o: EXTRA_CFLAGS = $(CFLAGS_HOT)

$(BUILD)/sysgate-attach: $(ATTACH_OBJS) $$(RUNTIME_OBJS)
	$(CC) -static-pie -nostdlib -nostartfiles -Wl,-e,sg_attach_start \
		-Wl,-z,noexecstack -o $@ $(ATTACH_OBJS) $(RUNTIME_OBJS) -lgcc

PROGS += $(BUILD)/sysgate-attach
endif

# tests/attach: programs to attach to, dynamic and static.
ATTACH_TESTS := $(BUILD)/tests/attach/loop $(BUILD)/tests/attach/loop-static \
	$(BUILD)/tests/attach/block $(BUILD)/tests/attach/spin \
	$(BUILD)/tests/attach/jit $(BUILD)/tests/attach/forker

$(BUILD)/tests/attach/%: tests/attach/%.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

$(BUILD)/tests/attach/loop-static: tests/attach/loop.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -static -o $@ $< 2>&1 | \
		{ grep -v "statically linked applications requires at runtime" || true; }
	@test -x $@

# a hook library to link into an attached process (--hook with -p)
$(BUILD)/tests/attach/hook.so: tests/attach/hook.c include/sysgate.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -fPIC -shared -Iinclude -o $@ $<

ifeq ($(ARCH),x86_64)
CHECK_DEPS += $(ATTACH_TESTS) $(BUILD)/tests/attach/hook.so
endif

bench-attach: everything $(ATTACH_TESTS)
	BUILD=$(BUILD) bash bench/attach/run.sh

.PHONY: bench-attach
