# SPDX-License-Identifier: MIT
# The trace decoders' constant tables: names from hooks/trace/xlat.list,
# values from the target's headers when the .c is compiled.
$(BUILD)/gen/xlat.h: scripts/gen-xlat.awk hooks/trace/xlat.list | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	LC_ALL=C $(AWK) -v out=h -f scripts/gen-xlat.awk hooks/trace/xlat.list >$@.tmp
	@mv $@.tmp $@

$(BUILD)/gen/xlat.c: scripts/gen-xlat.awk hooks/trace/xlat.list | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	LC_ALL=C $(AWK) -v out=c -f scripts/gen-xlat.awk hooks/trace/xlat.list >$@.tmp
	@mv $@.tmp $@

GEN_HEADERS += $(BUILD)/gen/xlat.h
TRACE_OBJS := $(BUILD)/gen/xlat.o

$(BUILD)/gen/xlat.o: EXTRA_CFLAGS = $(CFLAGS_HOT)
$(BUILD)/gen/xlat.o: $(BUILD)/gen/xlat.c $(BUILD)/gen/xlat.h
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) $(EXTRA_CFLAGS) -MMD -MP -c $< -o $@
