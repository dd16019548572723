# SPDX-License-Identifier: MIT
# Test programs live under $(BUILD)/tests/.  Behaviour tests are plain C
# (with inline asm) built for the target; `make check` builds them first.

BEHAVE_SRCS := $(wildcard tests/behave/*.c)
BEHAVE_PROGS := $(BEHAVE_SRCS:tests/behave/%.c=$(BUILD)/tests/behave/%)

$(BUILD)/tests/behave/%: tests/behave/%.c tests/lib/util.h tests/lib/nocfi.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

ifeq ($(ARCH),x86_64)
CHECK_DEPS += $(BEHAVE_PROGS)
endif

# The same programs against musl, dynamic and static, where musl-gcc is
# installed: LD_PRELOAD cannot bring the glibc-built libsysgate.so into
# them.  (clone3, clone-bad-stack and own-seccomp* need Linux headers musl's
# wrapper lacks.)
MUSL_CC := $(shell command -v musl-gcc 2>/dev/null)
MUSL_BEHAVE := $(filter-out clone3 clone-bad-stack own-seccomp%,$(BEHAVE_SRCS:tests/behave/%.c=%))
MUSL_PROGS := $(MUSL_BEHAVE:%=$(BUILD)/tests/behave/musl/%) \
	$(MUSL_BEHAVE:%=$(BUILD)/tests/behave/musl-static/%)

$(BUILD)/tests/behave/musl/%: tests/behave/%.c tests/lib/util.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(MUSL_CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

$(BUILD)/tests/behave/musl-static/%: tests/behave/%.c tests/lib/util.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(MUSL_CC) -std=gnu11 -O2 -g -Wall -pthread -static -o $@ $<

ifeq ($(ARCH)$(if $(MUSL_CC),y),x86_64y)
CHECK_DEPS += $(MUSL_PROGS)
endif

# CLI tests: a program with known system calls and a user hook.
$(BUILD)/tests/cli/prog: tests/cli/prog.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $< -ldl

# The same program linked statically: LD_PRELOAD cannot reach it.
$(BUILD)/tests/cli/prog-static: tests/cli/prog.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -static -o $@ $< 2>&1 | \
		{ grep -v "statically linked applications requires at runtime" || true; }
	@test -x $@

# No libc, no unwind info: raw calls from _start.
# 32-bit system calls: a 32-bit program (as --32 and ld -m elf_i386:
# gcc-multilib conflicts with the cross compilers) and int $0x80 in a
# 64-bit one.
$(BUILD)/tests/cli/hello32: tests/cli/hello32.s | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(AS) --32 -o $@.o $<
	$(LD) -m elf_i386 -o $@ $@.o

# A function for a uretprobe (cases.sh t_uretprobe).
$(BUILD)/tests/cli/uret-prog: tests/cli/uret-prog.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -o $@ $<

$(BUILD)/tests/cli/int80: tests/cli/int80.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -o $@ $<

$(BUILD)/tests/cli/nolibc: tests/cli/nolibc.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -static -nostdlib -fno-stack-protector \
		-fno-asynchronous-unwind-tables -fno-pie -no-pie -o $@ $<

# The same linked where sysgate-loader is: the loader cannot map it
# without wiping itself (as a program over its randomly placed heap).
$(BUILD)/tests/cli/nolibc-at-loader: tests/cli/nolibc.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -static -nostdlib -fno-stack-protector \
		-fno-asynchronous-unwind-tables -fno-pie -no-pie \
		-Wl,-Ttext-segment=$(SG_LOADER_BASE) -o $@ $<

$(BUILD)/tests/cli/rawlib.so: tests/cli/rawlib.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -fPIC -shared -o $@ $<

# The same with 9 MiB more text: not read, left to traps.
$(BUILD)/tests/cli/biglib.so: tests/cli/rawlib.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -fPIC -shared '-DBIG_TEXT="9<<20"' -o $@ $<

# The same with 1 MiB (64 KiB) more text and a site that needs it read
# whole.
$(BUILD)/tests/cli/waitlib.so: tests/cli/rawlib.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -fPIC -shared -DWAIT_SITE \
		'-DWAIT_TEXT="1<<20"' -o $@ $<

# Two sites that only padding jumps patch, one padding gap between them.
$(BUILD)/tests/cli/padlib.so: tests/cli/rawlib.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -fPIC -shared -mno-red-zone -DPAD_SITES \
		-o $@ $<

$(BUILD)/tests/cli/waitsmall.so: tests/cli/rawlib.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -fPIC -shared -DWAIT_SITE \
		'-DWAIT_TEXT="64<<10"' -o $@ $<

# The same with gaps between its segments, which ld.so leaves PROT_NONE
# (64 KiB alignment, as librtmp has): the patcher must not read them.
$(BUILD)/tests/cli/rawlib-gap.so: tests/cli/rawlib.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -fPIC -shared -Wl,-z,separate-code \
		-Wl,-z,max-page-size=0x10000 -o $@ $<

$(BUILD)/tests/hooks/%.so: tests/hooks/%.c include/sysgate.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -Iinclude -shared -o $@ $<

# (SYSGATE_HOOK_NOFPU hooks, built as such)
$(BUILD)/tests/hooks/renumber.so $(BUILD)/tests/hooks/fastpath.so: \
		$(BUILD)/tests/hooks/%.so: tests/hooks/%.c include/sysgate.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(ARCH_HOOK_CFLAGS) -Iinclude -shared -o $@ $<

# getppid from an exported function, for a hook that unwinds into it.
$(BUILD)/tests/cli/unwind-prog: tests/cli/unwind-prog.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -rdynamic -fasynchronous-unwind-tables -o $@ $<

# calls waited in while other lines are written (lines in time order)
$(BUILD)/tests/cli/order: tests/cli/order.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

ifeq ($(ARCH),x86_64)
CHECK_DEPS += $(BUILD)/tests/cli/unwind-prog $(BUILD)/tests/hooks/unwind.so
CHECK_DEPS += $(BUILD)/tests/cli/order
CHECK_DEPS += $(BUILD)/tests/cli/prog $(BUILD)/tests/cli/rawlib.so \
	$(BUILD)/tests/cli/biglib.so $(BUILD)/tests/cli/rawlib-gap.so \
	$(BUILD)/tests/cli/waitlib.so $(BUILD)/tests/cli/waitsmall.so \
	$(BUILD)/tests/cli/padlib.so \
	$(BUILD)/tests/cli/prog-static $(BUILD)/tests/cli/nolibc \
	$(BUILD)/tests/cli/hello32 $(BUILD)/tests/cli/int80 \
	$(BUILD)/tests/cli/nolibc-at-loader $(BUILD)/tests/cli/uret-prog \
	$(BUILD)/tests/hooks/counter.so $(BUILD)/tests/hooks/exitret.so \
	$(BUILD)/tests/hooks/clobber.so $(BUILD)/tests/hooks/renumber.so \
	$(BUILD)/tests/hooks/clobber-enter.so $(BUILD)/tests/hooks/fastpath.so \
	$(BUILD)/tests/hooks/clobber-libc.so $(BUILD)/tests/hooks/null-save.so \
	$(BUILD)/tests/hooks/blockall.so $(BUILD)/tests/hooks/samerec.so
# A hook's callback calling from unpatched code, and cloning there.
CHECK_DEPS += $(BUILD)/tests/cli/window-prog $(BUILD)/tests/hooks/window.so
# Threads running the sites that get patched (and a hook's own thread).
CHECK_DEPS += $(BUILD)/tests/cli/live-prog $(BUILD)/tests/hooks/ownthreads.so
# A hook's callback forking the program.
CHECK_DEPS += $(BUILD)/tests/cli/forkcb-prog $(BUILD)/tests/hooks/forkcb.so
# ... and setting a signal action.
CHECK_DEPS += $(BUILD)/tests/cli/sigcb-prog $(BUILD)/tests/hooks/sigcb.so
endif

$(BUILD)/tests/cli/sigcb-prog: tests/cli/sigcb-prog.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -o $@ $<

$(BUILD)/tests/cli/forkcb-prog: tests/cli/forkcb-prog.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

$(BUILD)/tests/cli/window-prog: tests/cli/window-prog.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

$(BUILD)/tests/cli/live-prog: tests/cli/live-prog.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

# The option parser, table-driven, linked with the core archive.
$(BUILD)/tests/options/table: tests/options/table.c $(BUILD)/libsysgate-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_COMMON) -std=gnu11 -O2 -g -Wall -o $@ $< \
		$(BUILD)/libsysgate-core.a $(LDLIBS)

ifeq ($(ARCH),x86_64)
CHECK_DEPS += $(BUILD)/tests/options/table
endif


# The --fs tests: one program per behaviour, run on a real directory and
# under --fs.
FS_TEST_SRCS := $(wildcard tests/fs/*.c)
FS_TEST_PROGS := $(FS_TEST_SRCS:tests/fs/%.c=$(BUILD)/tests/fs/%)

$(BUILD)/tests/fs/%: tests/fs/%.c tests/fs/fstest.h | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Werror -pthread -o $@ $<

ifeq ($(ARCH),x86_64)
CHECK_DEPS += $(FS_TEST_PROGS)
endif

# The bypass's byte-for-byte comparisons (tests/bypass).
$(BUILD)/tests/bypass/files: tests/bypass/files.c | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -pthread -o $@ $<

ifeq ($(ARCH),x86_64)
CHECK_DEPS += $(BUILD)/tests/bypass/files
endif
