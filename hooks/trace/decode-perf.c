/* SPDX-License-Identifier: MIT */
/*
 * perf_event_open and perf's ioctls as strace prints them: the event's
 * attributes (its type and config by name, sampling, the flag bits: only
 * those set unless -v; the fields after the flags, as many as the size
 * given holds, only under -v), the size the kernel wants back after
 * " => " when it refused the one given (E2BIG).  enter() keeps the size
 * given, which that error overwrites.  The ioctls whose argument is a
 * number or a descriptor are decode-ioctl.c's kinds.
 */
#include <errno.h>
#include <stddef.h>
#include <linux/ioctl.h>
#include <linux/perf_event.h>
#include "trace.h"

/* The one-bit flags of the word after read_format, in bit order; the
 * precise_ip field (2 bits) follows the first 15 of them */
static const char perf_bits_lo[] =
	"disabled inherit pinned exclusive exclude_user exclude_kernel "
	"exclude_hv exclude_idle mmap comm freq inherit_stat enable_on_exec "
	"task watermark";
static const char perf_bits_hi[] =
	"mmap_data sample_id_all exclude_host exclude_guest "
	"exclude_callchain_kernel exclude_callchain_user mmap2 comm_exec "
	"use_clockid context_switch write_backward namespaces ksymbol "
	"bpf_event aux_output cgroup text_poke build_id inherit_thread "
	"remove_on_exec sigtrap";

/* ", name=bit" for each of names' bits from bit `from` on, those not set
 * only when whole; the bit after the last */
static unsigned int p_bits(struct fmt *f, const char *names,
			   unsigned long long w, unsigned int from, int whole)
{
	while (*names) {
		const char *end = names;
		unsigned int v = w >> from & 1;

		while (*end && *end != ' ')
			end++;
		if (whole || v) {
			fmt_str(f, ", ");
			fmt_mem(f, names, (size_t)(end - names));
			f_udec(f, "=", v);
		}
		from++;
		names = *end ? end + 1 : end;
	}
	return from;
}

/* "0x1<<32|": the bits of config above `shift`, when any */
static void p_config_high(struct fmt *f, unsigned long long v,
			  unsigned int shift)
{
	if (!v)
		return;
	p_hex(f, v);
	f_udec(f, "<<", shift);
	fmt_chr(f, '|');
}

static void p_config(struct fmt *f, const struct perf_event_attr *a)
{
	unsigned long long c = a->config;

	fmt_str(f, ", config=");
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		p_config_high(f, c >> 32, 32);
		p_xlat(f, c & 0xffffffff, &xl_perf_hw_ids, "PERF_COUNT_HW_???");
		break;
	case PERF_TYPE_SOFTWARE:
		p_xlat(f, c, &xl_perf_sw_ids, "PERF_COUNT_SW_???");
		break;
	case PERF_TYPE_TRACEPOINT:
		fmt_udec(f, c);
		break;
	case PERF_TYPE_HW_CACHE:
		/* (the PMU in the high half, result, operation, cache) */
		p_config_high(f, c >> 32, 32);
		p_config_high(f, (c & 0xffffffff) >> 24, 24);
		p_xlat(f, c >> 16 & 0xff, &xl_perf_cache_results,
		       "PERF_COUNT_HW_CACHE_RESULT_???");
		fmt_str(f, "<<16|");
		p_xlat(f, c >> 8 & 0xff, &xl_perf_cache_ops,
		       "PERF_COUNT_HW_CACHE_OP_???");
		fmt_str(f, "<<8|");
		p_xlat(f, c & 0xff, &xl_perf_cache_ids, "PERF_COUNT_HW_CACHE_???");
		break;
	default:
		p_hex(f, c);
	}
}

#define OFF(field) offsetof(struct perf_event_attr, field)
#define SIZE(field) sizeof(((struct perf_event_attr *)0)->field)

/* The fields from branch_sample_type on, each as far as the size read
 * holds it (the rest are not shown), some only with a sample type or
 * flag: hex ('x'), decimal ('u'), branch sample flags ('b'), a clock
 * ('c'), reserved bytes in a comment when set ('r', name the bytes) */
static void p_attr_last(struct fmt *f, const struct perf_event_attr *a,
			unsigned long size)
{
	static const struct {
		unsigned char off, size;
		char kind;
		unsigned long long need;	/* sample_type bits, if any */
		const char *name;
	} last[] = {
		{ OFF(branch_sample_type), SIZE(branch_sample_type), 'b',
		  PERF_SAMPLE_BRANCH_STACK, ", branch_sample_type=" },
		{ OFF(sample_regs_user), SIZE(sample_regs_user), 'x', 0,
		  ", sample_regs_user=" },
		{ OFF(sample_stack_user), SIZE(sample_stack_user), 'x',
		  PERF_SAMPLE_STACK_USER, ", sample_stack_user=" },
		{ OFF(clockid), SIZE(clockid), 'c', 0, ", clockid=" },
		{ OFF(sample_regs_intr), SIZE(sample_regs_intr), 'x', 0,
		  ", sample_regs_intr=" },
		{ OFF(aux_watermark), SIZE(aux_watermark), 'u', 0,
		  ", aux_watermark=" },
		{ OFF(sample_max_stack), SIZE(sample_max_stack), 'u', 0,
		  ", sample_max_stack=" },
		{ OFF(__reserved_2), SIZE(__reserved_2), 'r', 0, "110..111" },
		{ OFF(aux_sample_size), SIZE(aux_sample_size), 'u', 0,
		  ", aux_sample_size=" },
		{ OFF(__reserved_3), SIZE(__reserved_3), 'r', 0, "116..119" },
		{ OFF(sig_data), SIZE(sig_data), 'x', 0, ", sig_data=" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(last) / sizeof(last[0]); i++) {
		unsigned long long v = 0;
		char k = last[i].kind;

		if (last[i].off >= size)
			return;
		hk_memcpy(&v, (const char *)a + last[i].off, last[i].size);
		if ((last[i].need && !(a->sample_type & last[i].need)) ||
		    (k == 'c' && !a->use_clockid) || (k == 'r' && !v))
			continue;
		if (k == 'r') {
			fmt_str(f, " /* bytes ");
			fmt_str(f, last[i].name);
			fmt_str(f, ": ");
			p_hex(f, v);
			fmt_str(f, " */");
			continue;
		}
		fmt_str(f, last[i].name);
		if (k == 'b')
			p_flags_unknown(f, v, &xl_perf_branch_types,
					"PERF_SAMPLE_BRANCH_???");
		else if (k == 'c')
			p_xlat(f, (unsigned int)v, &xl_clocks, "CLOCK_???");
		else if (k == 'x')
			p_hex(f, v);
		else
			fmt_udec(f, v);
	}
}

/* Whether the size read holds field off: strace stops before one that
 * it does not */
#define HOLDS(field) (offsetof(struct perf_event_attr, field) < size)

/* The fields after the flags (-v), as far as the size read goes */
static void p_attr_tail(struct fmt *f, const struct perf_event_attr *a,
			unsigned long size)
{
	int bp = a->type == PERF_TYPE_BREAKPOINT;

	f_udec(f, a->watermark ? ", wakeup_watermark=" : ", wakeup_events=",
	       a->wakeup_events);
	if (bp) {
		fmt_str(f, ", bp_type=");
		p_xlat(f, a->bp_type, &xl_hw_breakpoint_types,
		       a->bp_type <= 7 ? "HW_BREAKPOINT_INVALID" :
		       "HW_BREAKPOINT_???");
	}
	fmt_str(f, bp ? ", bp_addr=" : ", config1=");
	p_hex(f, a->config1);
	if (!HOLDS(bp_len))
		return;
	if (bp) {
		f_udec(f, ", bp_len=", a->bp_len);
	} else {
		fmt_str(f, ", config2=");
		p_hex(f, a->config2);
	}
	p_attr_last(f, a, size);
}

static const char *const precise_ip[] = {
	"arbitrary skid", "constant skid", "requested to have 0 skid",
	"must have 0 skid",
};

/* The attributes at p, whose size field was given at entry (unread:
 * their address); perf_event_open refused with E2BIG (resized) wrote
 * the size it wants */
static void p_perf_attr(struct call *c, unsigned long p, int has_given,
			unsigned int given, int resized)
{
	struct perf_event_attr a;
	struct fmt *f = c->f;
	unsigned long size = given;
	unsigned int now, bit;
	unsigned long long w;
	int whole = trace_whole(c->s);

	if (size > sizeof(a))
		size = sizeof(a);
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	/* (the kernel refuses a size under the first format's) */
	if (!has_given || size < PERF_ATTR_SIZE_VER0) {
		p_ptr(f, p);
		return;
	}
	if (!whole)
		size = offsetof(struct perf_event_attr, wakeup_events);
	hk_memset(&a, 0, sizeof(a));
	if (fetch(f, c->s, &a, p, size))
		return;
	a.size = given;
	fmt_str(f, "{type=");
	p_xlat(f, a.type, &xl_perf_types, "PERF_TYPE_???");
	fmt_str(f, ", size=");
	p_xlat(f, a.size, &xl_perf_attr_sizes, "PERF_ATTR_SIZE_???");
	if (resized && c->s->ret == -E2BIG) {
		fmt_str(f, " => ");
		if (trace_read(c->s, &now, (void *)(p + 4), 4) == 4)
			p_xlat(f, now, &xl_perf_attr_sizes,
			       "PERF_ATTR_SIZE_???");
		else
			fmt_str(f, "???");
	}
	p_config(f, &a);
	f_udec(f, a.freq ? ", sample_freq=" : ", sample_period=",
	       a.sample_period);
	fmt_str(f, ", sample_type=");
	p_flags_unknown(f, a.sample_type, &xl_perf_sample_format,
			"PERF_SAMPLE_???");
	fmt_str(f, ", read_format=");
	p_flags_unknown(f, a.read_format, &xl_perf_read_format,
			"PERF_FORMAT_???");
	/* (the flag bits: the word after read_format) */
	hk_memcpy(&w, (const char *)&a + offsetof(struct perf_event_attr,
						  read_format) + 8, sizeof(w));
	bit = p_bits(f, perf_bits_lo, w, 0, whole);
	f_udec(f, ", precise_ip=", w >> bit & 3);
	fmt_str(f, " /* ");
	fmt_str(f, precise_ip[w >> bit & 3]);
	fmt_str(f, " */");
	bit = p_bits(f, perf_bits_hi, w, bit + 2, whole);
	if (w >> bit) {
		fmt_str(f, ", __reserved_1=");
		p_hex(f, w >> bit);
		f_udec(f, " /* Bits 63..", bit);
		fmt_str(f, " */");
	}
	if (whole)
		p_attr_tail(f, &a, size);
	if ((a.size && a.size > size) ||
	    (!a.size && size < PERF_ATTR_SIZE_VER0))
		fmt_str(f, ", ...");
	fmt_chr(f, '}');
}

/* At entry: the size field given (saved[0]: read, saved[1]) */
static void e_perf_size(struct call *c, unsigned long p)
{
	unsigned int size;

	trace_saved(c)[0] = p && trace_read(c->s, &size, (void *)(p + 4),
					    sizeof(size)) == sizeof(size);
	trace_saved(c)[1] = trace_saved(c)[0] ? size : 0;
}

static void e_perf_event_open(struct call *c)
{
	e_perf_size(c, c->s->args[0]);
}

static void d_perf_event_open(struct call *c)
{
	a_sep(c);
	if (!c->s->args[0])
		p_ptr(c->f, 0);
	else
		p_perf_attr(c, c->s->args[0], (int)trace_saved(c)[0],
			    (unsigned int)trace_saved(c)[1], 1);
	a_int(c, 1);
	a_int(c, 2);
	a_fd(c, 3);
	a_sep(c);
	p_flags_unknown(c->f, c->s->args[4], &xl_perf_open_flags,
			"PERF_FLAG_???");
}

static void r_perf_event_open(struct call *c)
{
	fmt_dec(c->f, c->s->ret);
	p_fdpath_now(c->f, c->s, (int)c->s->ret);
}

/* PERF_EVENT_IOC_QUERY_BPF: the room given; the programs attached */
static void k_query_bpf(struct call *c, unsigned long arg)
{
	unsigned int v[2];

	a_sep(c);
	if (fetch(c->f, c->s, v, arg, 4))
		return;
	f_udec(c->f, "{ids_len=", v[0]);
	fmt_str(c->f, ", ");
	if (!c_ok(c) || trace_read(c->s, v, (void *)arg, 8) != 8) {
		fmt_str(c->f, "...}");
		return;
	}
	f_udec(c->f, "prog_cnt=", v[1]);
	fmt_str(c->f, ", ids=");
	p_array_ctx(c->f, c->s, arg + 8, v[1], 4, 0, p_u32_elem, 0);
	fmt_chr(c->f, '}');
}

/* PERF_EVENT_IOC_MODIFY_ATTRIBUTES: attributes the kernel does not
 * change (read now) */
static void k_modify(struct call *c, unsigned long arg)
{
	unsigned int size = 0;
	int ok = arg && trace_read(c->s, &size, (void *)(arg + 4), 4) == 4;

	a_sep(c);
	p_perf_attr(c, arg, ok, size, 0);
}

int ioctl_perf(struct call *c, unsigned int req, unsigned long arg)
{
	if (!ioctl_name(c, req, '$', &xl_ioctl_perf))
		return 0;
	if (req == PERF_EVENT_IOC_QUERY_BPF) {
		k_query_bpf(c, arg);
	} else if (req == PERF_EVENT_IOC_MODIFY_ATTRIBUTES) {
		k_modify(c, arg);
	} else {	/* (SET_FILTER's string) */
		a_sep(c);
		p_str_max(c->f, c->s, arg, 4096);
	}
	return 1;
}

const struct decoder dec_perf[] = {
	{ "perf_event_open", d_perf_event_open, r_perf_event_open,
	  e_perf_event_open },
	{ 0, 0, 0, 0 },
};
