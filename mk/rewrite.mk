# SPDX-License-Identifier: MIT
# The rewriter's golden test (tests/rewrite): the arch planner and
# emitters over hand-written cases, built for ARCH (run under qemu in a
# cross check) and linked with the core archive.
ifneq ($(wildcard tests/rewrite/$(ARCH)/cases.S),)
$(BUILD)/tests/rewrite/cases: tests/rewrite/driver.c tests/rewrite/case.h \
		tests/rewrite/$(ARCH)/cases.S $(BUILD)/libsysgate-core.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_COMMON) -std=gnu11 -O2 -g -Wall -no-pie \
		-Wl,--section-start=rewrite_code=0x10000000 -o $@ \
		tests/rewrite/$(ARCH)/cases.S tests/rewrite/driver.c \
		$(BUILD)/libsysgate-core.a $(LDLIBS)

CHECK_DEPS += $(BUILD)/tests/rewrite/cases
endif
