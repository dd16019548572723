# SPDX-License-Identifier: MIT
# The trace decoders' constant tables: names from hooks/trace/xlat.list,
# values from the target's headers when each unit's .c is compiled.
XLAT_UNITS := $(shell sed -n 's/^unit //p' hooks/trace/xlat.list)
XLAT_GEN = LC_ALL=C $(AWK) -f scripts/gen-xlat.awk

$(BUILD)/gen/xlat.h: scripts/gen-xlat.awk hooks/trace/xlat.list | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(XLAT_GEN) -v out=h hooks/trace/xlat.list >$@.tmp
	@# Every object depends on it: replaced only when it changes.
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

XLAT_SRCS := $(XLAT_UNITS:%=$(BUILD)/gen/xlat-%.c)
TRACE_OBJS := $(XLAT_UNITS:%=$(BUILD)/gen/xlat-%.o)

# Static patterns: only these files, never the .d files make includes.
$(XLAT_SRCS): $(BUILD)/gen/xlat-%.c: scripts/gen-xlat.awk hooks/trace/xlat.list | $(BUILD)/.dir
	@mkdir -p $(dir $@)
	$(XLAT_GEN) -v out=c -v unit=$* hooks/trace/xlat.list >$@.tmp
	@mv $@.tmp $@

GEN_HEADERS += $(BUILD)/gen/xlat.h

$(TRACE_OBJS): EXTRA_CFLAGS = $(CFLAGS_HOT)
$(TRACE_OBJS): $(BUILD)/gen/xlat-%.o: $(BUILD)/gen/xlat-%.c $(BUILD)/gen/xlat.h
	$(CC) $(CPPFLAGS_COMMON) $(CFLAGS_COMMON) $(EXTRA_CFLAGS) -MMD -MP -c $< -o $@
