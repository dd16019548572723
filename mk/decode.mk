# SPDX-License-Identifier: MIT
# The instruction decoders' tests (tests/decode/<arch>/).  Each decoder is
# portable C, so its tests are host programs built with HOSTCC: plain
# `make check` runs all three, `make check ARCH=<isa>` that arch's again.

DECODE_ARCHES := $(if $(filter x86_64,$(ARCH)),x86_64 riscv64 aarch64,$(ARCH))
DECODE_PROGS_x86_64 := table objdump-check fuzz redzone
DECODE_PROGS_riscv64 := table objdump-check
DECODE_PROGS_aarch64 := table
DECODE_FLAGS_riscv64 := -Wextra $(WERROR)

define decode_rules
$(BUILD)/tests/decode/$(1)/%: tests/decode/$(1)/%.c arch/$(1)/decode.c arch/$(1)/decode.h
	@mkdir -p $$(dir $$@)
	$$(HOSTCC) -std=gnu11 -O2 -g -Wall $$(DECODE_FLAGS_$(1)) -Iarch/$(1) \
		-o $$@ $$< arch/$(1)/decode.c
CHECK_DEPS += $$(addprefix $(BUILD)/tests/decode/$(1)/,$$(DECODE_PROGS_$(1)))
endef
$(foreach a,$(DECODE_ARCHES),$(eval $(call decode_rules,$(a))))

# The zero-page red-zone proof: hand-written functions with known answers.
$(BUILD)/tests/decode/x86_64/redzone: tests/decode/x86_64/redzone.c \
		tests/decode/x86_64/redzone-cases.S arch/x86_64/decode.c arch/x86_64/decode.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=gnu11 -O2 -g -Wall -Iarch/x86_64 -o $@ $< \
		tests/decode/x86_64/redzone-cases.S arch/x86_64/decode.c
