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
