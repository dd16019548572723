/* SPDX-License-Identifier: MIT */
/*
 * The register frame that entry.S builds on the program's stack, below its
 * red zone, when a patched site enters sysgate.  C sees it as struct
 * sg_frame; the offsets are shared with entry.S through the SGF_* macros.
 *
 * Register contract (same as the kernel's): after a hooked system call,
 * rax holds the result, rcx the address of the instruction after the
 * original `syscall`, r11 the rflags at entry; every other general register
 * and rflags keep their values.
 */
#ifndef SG_CONTEXT_H
#define SG_CONTEXT_H

#define SGF_RBX		0
#define SGF_CHILD_SP	8	/* RAW: new stack of a clone child, or 0 */
#define SGF_R11		16	/* out: r11 (rflags) / RAW: info word */
#define SGF_RCX		24	/* out: rcx (next rip) / RAW: jump target */
#define SGF_R9		32
#define SGF_R8		40
#define SGF_R10		48
#define SGF_RDX		56
#define SGF_RSI		64
#define SGF_RDI		72
#define SGF_RAX		80	/* in: syscall number; out: result */
#define SGF_RFLAGS	88
#define SGF_RET		96	/* return address into the stub */
#define SGF_SIZE	104
#define SG_REDZONE	128
/* Distance from the frame to the program's stack pointer at the site. */
#define SGF_APP_SP	(SGF_SIZE + SG_REDZONE)
/* A RAW call leaves one info word this far below the stack pointer the
 * system call runs with (the program's, or a clone child's new stack), just
 * below where the after-raw frame will be built. */
#define SG_RAWINFO_OFF	(SGF_APP_SP + 8)
/* A call sent to sg_x86_trap_raw keeps its way back right below that. */
#define SG_RAWNEXT_OFF	(SG_RAWINFO_OFF + 8)

/* The length of a stub's call into entry.S (see struct sg_site_desc). */
#define SG_X86_CALL_LEN 6

#ifndef __ASSEMBLER__
struct sg_frame {
	unsigned long rbx;
	unsigned long child_sp;
	unsigned long r11;
	unsigned long rcx;
	unsigned long r9, r8, r10, rdx, rsi, rdi;
	unsigned long rax;
	unsigned long rflags;
	unsigned long ret;
};

/* What a stub's `call *entry(%rip)` (6 bytes) is preceded by: the site's
 * descriptor (a `jmp` leads over it).  Had it followed the call, every
 * return would go elsewhere than the call pushed, and the return
 * predictor would miss on each one (~4 ns here). */
struct sg_site_desc {
	unsigned long next;	/* address after the original syscall insn */
	unsigned long raw;	/* the stub's raw-syscall entry */
};

_Static_assert(sizeof(struct sg_frame) == SGF_SIZE, "frame layout");

static inline long sg_frame_nr(const struct sg_frame *f) { return f->rax; }
static inline void sg_frame_set_nr(struct sg_frame *f, long nr) { f->rax = nr; }
static inline long sg_frame_result(const struct sg_frame *f) { return f->rax; }
static inline void sg_frame_set_result(struct sg_frame *f, long r) { f->rax = r; }
static inline long sg_frame_result2(const struct sg_frame *f) { return f->rdx; }

/*
 * The site a stub entered from: its descriptor precedes the stub's call.
 * Sets the frame up with rcx and r11 as the kernel
 * leaves them (next rip, rflags).
 */
static inline const struct sg_site_desc *sg_frame_site(struct sg_frame *f)
{
	const struct sg_site_desc *d = (const struct sg_site_desc *)
		(f->ret - SG_X86_CALL_LEN - sizeof(*d));

	f->rcx = d->next;
	f->r11 = f->rflags;
	return d;
}

/* After sg_x86_trap_raw: the frame returns to next, with rcx and r11 as
 * the kernel leaves them. */
static inline void sg_frame_resume_at(struct sg_frame *f, unsigned long next)
{
	f->rcx = next;
	f->r11 = f->rflags;
}

/* The system call instruction (2 bytes) of a site. */
static inline const void *sg_site_pc(const struct sg_site_desc *d)
{
	return (const void *)(d->next - 2);
}

/* A RAW call: entry.S jumps to target with the program's registers, the
 * info word goes below the stack(s) (see SG_RAWINFO_OFF). */
static inline void sg_frame_set_raw(struct sg_frame *f, unsigned long target,
				    unsigned long info, unsigned long child_sp)
{
	f->rcx = target;
	f->r11 = info;
	f->child_sp = child_sp;
}

static inline void sg_frame_args(const struct sg_frame *f, long a[6])
{
	a[0] = f->rdi; a[1] = f->rsi; a[2] = f->rdx;
	a[3] = f->r10; a[4] = f->r8; a[5] = f->r9;
}

static inline void sg_frame_set_args(struct sg_frame *f, const long a[6])
{
	f->rdi = a[0]; f->rsi = a[1]; f->rdx = a[2];
	f->r10 = a[3]; f->r8 = a[4]; f->r9 = a[5];
}

static inline unsigned long sg_frame_app_sp(const struct sg_frame *f)
{
	return (unsigned long)f + SGF_APP_SP;
}
#endif
#endif
