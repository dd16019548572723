/* SPDX-License-Identifier: MIT */
/*
 * The patch mechanism: find every system call instruction in the
 * program's executable mappings and rewrite each site so that it enters
 * sysgate through a per-site stub.
 *
 * The generic part groups the mappings /proc/self/maps lists (core/maps.c)
 * into objects, finds candidates with the arch's byte pre-filter, lets the
 * arch plan each site (patch.c), checks branch targets from the rest of
 * the object (sweep.c), places stub regions near the code (region.c) and
 * writes the patches (write.c); engine.h lists its parts.  The arch part
 * (patch-<arch>.c, one struct sg_patch_arch) knows instructions: which
 * candidates are real, which bytes a patch may take, and how stubs and
 * jumps are encoded.
 */
#ifndef SG_PATCH_H
#define SG_PATCH_H

#include "sg.h"
#include "maps.h"

enum sg_patch_kind {
	SG_PATCH_JMP,		/* jump over the syscall and neighbours */
	SG_PATCH_PAD,		/* short jump to a trampoline in padding */
	SG_PATCH_TRAP,		/* breakpoint, caught by a signal */
	SG_PATCH_LEFT,		/* number known, no hook wants it: untouched */
	SG_PATCH_NONE,		/* no safe way: untouched, reported */
	SG_PATCH_GATEWAY,	/* rv64: auipc+jalr far jump, ra saved */
	SG_PATCH_MIDDLE,	/* rv64: jal to a gateway, a7 saved */
	SG_PATCH_SMALL,		/* rv64: jal a7 to a gateway, number known */
	SG_PATCH_BRANCH,	/* aarch64: b to the site's stub, svc alone */
	SG_PATCH_ZERO,		/* x86-64 -m zeropage: call *%rax in place of
				   the syscall, page 0 finds the stub */
	SG_PATCH_LIVE,		/* x86-64: jump over one instruction before
				   the syscall (mostly `mov $nr,%eax`), the
				   syscall kept: written while threads run */
	SG_PATCH_KINDS
};

/* Kernel constants the patch files share (no libc headers here). */
#define MAP_PRIVATE_ANON 0x22
#define MAP_FIXED_NOREPLACE 0x100000
#define AT_FDCWD_ -100
#define O_CLOEXEC_ 02000000
#define PAGE 4096UL

#define SG_SITE_MAX_REGION SG_CODE_WRITE_MAX

/* (plans.c stores each field in a shared plan: add new ones there too) */
struct sg_site {
	unsigned long addr;	/* the system call instruction */
	unsigned long lo, hi;	/* bytes the patch overwrites */
	unsigned long pad;	/* PAD: trampoline address in padding */
	unsigned long stub;	/* stub address, once placed */
	int nr;			/* statically known number, or -1 */
	unsigned char kind;
	unsigned char insn_len;
	unsigned char interior;	/* SG_INTERIOR_*: instruction starts in
				   (lo, hi) that an outside branch could
				   target */
	unsigned char why;	/* SG_WHY_* for NONE/PAD choices */
	unsigned char planned;	/* kind chosen by planning (before selection) */
	unsigned char hoist;	/* rv64 gateway: bytes of `li a7` moved to
				   the front; relays enter after them */
	unsigned char relay_ok;	/* rv64 gateway: relays may use it */
	unsigned char kreg;	/* rv64 small: register the return jumps
				   through (killed by the next insn, or the
				   base of the `jr` that follows), or 0 */
	unsigned char tail;	/* rv64 small: the next insn is `jr kreg`
				   (ret...): the stub ends with it */
	unsigned char zwhy;	/* SG_ZWHY_*: may the site push a return
				   address below %rsp (-m zeropage)? */
	unsigned char orig[SG_SITE_MAX_REGION];
};

/*
 * A jump window's interior.  SYSCALL: the only instruction that starts
 * inside is the system call itself, past the jump, where the window's
 * filler bytes are breakpoints.  CAUGHT: such a window taken without a
 * read of the whole object (to rule out branches to the syscall), whose
 * breakpoint is therefore registered: a branch there traps, and the
 * trap resumes at the stub's call (write.c) with the registers the
 * branch brought.
 */
enum { SG_INTERIOR_NONE, SG_INTERIOR_ANY, SG_INTERIOR_SYSCALL,
       SG_INTERIOR_CAUGHT };

enum sg_why {
	SG_WHY_OK,
	SG_WHY_BRANCH_IN,	/* a branch targets the bytes around it */
	SG_WHY_NO_ROOM,		/* neighbours cannot be relocated */
	SG_WHY_JUMP_TABLE,	/* function has indirect jumps/landing pads */
	SG_WHY_NO_PAD,		/* no free padding within reach */
	SG_WHY_SYSENTER,	/* 32-bit ABI instruction (sysenter,
				   int $0x80), left as is */
	SG_WHY_NO_GATEWAY,	/* rv64: no gateway within jal reach */
	SG_WHY_NO_REGION,	/* no stub region within branch reach */
	SG_WHY_BUSY,		/* -p: a stopped thread is inside its range */
	SG_WHY_COUNT
};

/* The red-zone proof for -m zeropage, decided at planning. */
enum sg_zwhy {
	SG_ZWHY_UNCHECKED,	/* no proof attempted (other arches) */
	SG_ZWHY_OK,		/* the function never reaches below %rsp */
	SG_ZWHY_RSP_COPY,	/* %rsp copied or changed: could reach it */
	SG_ZWHY_REDZONE,	/* memory below %rsp is used */
	SG_ZWHY_UNDECODED,	/* the function cannot be walked */
	SG_ZWHY_NO_BOUNDS,	/* no function bounds in unwind info */
	SG_ZWHY_COUNT
};

/* Bytes of an object's text a first-trap patch replaced, as they were. */
struct sg_wrote {
	unsigned long addr;
	unsigned char len;
	unsigned char orig[SG_SITE_MAX_REGION];
};

#define SG_MAX_TEXT 8
#define SG_MAX_READABLE 16

struct sg_obj {
	char path[256];
	unsigned long dev_ino[2];
	unsigned long lo, hi;	/* whole object as mapped */
	/* Its readable parts: ld.so leaves the gaps between segments
	 * PROT_NONE, and maps later segments only after the text. */
	struct {
		unsigned long lo, hi;
	} rd[SG_MAX_READABLE];
	int nrd;
	unsigned long bias;	/* load bias (address - vaddr) */
	struct {
		unsigned long lo, hi, off;
		int readable;	/* not execute-only (protection keys) */
		int fixed;	/* private, not writable: changes only by a
				   call the core sees */
	} text[SG_MAX_TEXT];
	int ntext;
	int fd;			/* file for reading code, or -1 */
	unsigned long file_size;	/* of that file */
	int is_vdso;
	int want_zwhy;		/* plan the red-zone proof (-m zeropage) */
	int lazy;		/* not planned: its sites trap, then get patched */
	int n_first[SG_PATCH_KINDS];	/* lazy: sites planned at their
					   first trap, by kind */
	unsigned long *near;	/* lazy: rel32 branch targets near a
				   syscall pair, found once (sorted) */
	long nnear;		/* their count; -1: too many to keep */
	unsigned long waited;	/* lazy: traps of sites waiting for near */
	unsigned long *tree_waited;	/* the same, counted by the tree's
					   processes (plans.c) */
	int tree_looked;	/* tree_waited looked for */
	unsigned long *firsts;	/* lazy: sites patched at their first
				   trap (FIRSTS_MAX, then -1 in nfirsts) */
	int nfirsts;
	struct sg_wrote *wrote;	/* lazy: what those patches overwrote in
				   its text (WROTE_MAX, then -1 in nwrote) */
	int nwrote;
	/* .eh_frame_hdr search table, read when first needed (its page,
	 * which a program touches only to unwind, costs a fault) */
	unsigned long ehf_hdr;
	const unsigned char *ehf;
	const unsigned char *ehf_table;
	unsigned long ehf_count;
	unsigned char ehf_table_enc;
	unsigned char build_id[32];
	int build_id_len;
	/* sites, planned */
	struct sg_site *sites;
	int nsites, cap;
	/* padding bytes already given to trampolines */
	unsigned long *pads;
	int npads, pads_cap;
	/* statistics */
	int n_kind[SG_PATCH_KINDS];
	int n_why[SG_WHY_COUNT];
	int n_data;		/* byte pairs that are not instructions */
	int n_unverified;	/* no unwind info to decode from */
};

/* lock.c: all signals blocked while held; 1 if taken (wait 0: try once) */
struct sg_patch_lock {
	int owner;		/* thread id, or 0 */
	unsigned long mask;	/* the owner's signal mask before */
};
int sg_patch_lock_take(struct sg_patch_lock *l, int wait) SG_HIDDEN;
void sg_patch_lock_drop(struct sg_patch_lock *l) SG_HIDDEN;

/*
 * Lazy patching (lazy.c): a site that no plan covered (JIT code, code
 * without unwind info) is patched after its first trap, in place, by
 * stores that never leave a half-written instruction.
 */
/* addr trapped (syscall user dispatch) and its call has been run. */
void sg_patch_lazy_trapped(unsigned long addr) SG_HIDDEN;
/* A site left to traps is planned at this trap of it (lazy.c); --stats
 * says "third". */
#define SG_TRAPS_BEFORE_PLAN 3
/* patch.c, under lazy.c's lock: a site of an object left to traps,
 * planned and patched as a planned object's site would be, where no
 * other thread can run its code meanwhile.  1 if patched, 0 if not (the
 * caller tries its in-place patch; flags below), -1 if a small object's
 * site is to wait for that read (sg_patch_first_trap_wait) first. */
int sg_patch_first_trap(unsigned long addr, int flags) SG_HIDDEN;
#define SG_FIRST_SCAN 1		/* the in-place patch failed: read a big
				   object whole if a jump window needs it */
#define SG_FIRST_TAIL 2		/* a SYSCALL-interior window without it */
/* A site waiting for that read takes a SYSCALL-interior window at this
 * trap (its breakpoint costs a page of the trap table). */
#define SG_TRAPS_BEFORE_TAIL (SG_TRAPS_BEFORE_PLAN + 1)
void sg_patch_first_trap_forked(void) SG_HIDDEN;
/* Under lazy.c's lock: 1 if the site at addr, whose jump window needs
 * its object read whole, is to trap again first (one trap counted). */
int sg_patch_first_trap_wait(unsigned long addr) SG_HIDDEN;
/* lazy.c: is a site patched in place at addr? */
int sg_patch_lazy_live(unsigned long addr) SG_HIDDEN;
/* buf holds code at [addr, addr + len): where it overlaps the n bytes
 * at a, they become orig's. */
void sg_patch_put_back(unsigned long a, const unsigned char *orig,
		       unsigned long n, unsigned long addr, unsigned char *buf,
		       unsigned long len) SG_HIDDEN;
/* lazy.c, under its lock: buf holds [addr, addr + len) of code; put back
 * the bytes its in-place patches replaced there. */
void sg_patch_lazy_originals(unsigned long addr, unsigned char *buf,
			     unsigned long len) SG_HIDDEN;
/* lazy.c, under its lock: does one of its in-place patches lie in
 * [addr, addr + len)? */
int sg_patch_lazy_wrote_in(unsigned long addr, unsigned long len) SG_HIDDEN;
/* A thread is about to start (made by the call at site): from now on
 * sites are patched while threads may run them, or, where they cannot
 * be, objects left to traps are planned whole while this one still runs
 * alone (site 0: calls keep coming, planned whole). */
void sg_patch_threads(unsigned long site) SG_HIDDEN;
/* What is known of the mapping that holds addr without reading
 * /proc/self/maps: 0 where it is the text of an object left to traps. */
int sg_patch_known_text(unsigned long addr, struct sg_mapping_info *m) SG_HIDDEN;
/* [lo, hi) is about to change (mprotect, munmap, mremap, mmap over it,
 * madvise that drops pages): put its lazily patched sites back (those
 * the call drops along with their memory need not be), and keep new
 * ones out until the call is done. */
int sg_patch_lazy_begin(unsigned long lo, unsigned long hi,
			int drops) SG_HIDDEN;
/* After that call, with what sg_patch_lazy_begin returned. */
void sg_patch_lazy_end(int token) SG_HIDDEN;
/* SUD on if anything is left for it to catch, else off where trapped
 * sites get patched (elsewhere each call is meant to trap). */
void sg_patch_lazy_settle(void) SG_HIDDEN;
/* A fork child: the calls other threads had in flight are not in it. */
void sg_patch_lazy_forked(void) SG_HIDDEN;
/* Turn it on (patch and zeropage modes, once SUD may trap). */
void sg_patch_lazy_enable(void) SG_HIDDEN;
void sg_patch_lazy_stats(void) SG_HIDDEN;

/*
 * What syscall user dispatch still has to catch (watch.c): exact sites
 * and ranges of code that may change unseen.  Empty: SUD can be off.
 */
void sg_watch_site(unsigned long addr) SG_HIDDEN;
void sg_watch_range(unsigned long lo, unsigned long hi) SG_HIDDEN;
/* The site at addr was patched: it enters sysgate through its stub. */
void sg_watch_patched(unsigned long addr) SG_HIDDEN;
/* [lo, hi) is about to be unmapped, re-protected or mapped over: stop
 * watching what is there; 1 if something was (the caller looks at the
 * range again if the call fails). */
int sg_watch_forget(unsigned long lo, unsigned long hi) SG_HIDDEN;
/* New executable memory without an ELF object: watch what in it may enter
 * the kernel (buf: size bytes of scratch).  How many things, 0 if none. */
int sg_watch_code(unsigned long lo, unsigned long hi, unsigned char *buf,
		  unsigned long size) SG_HIDDEN;
/* SUD on if anything is watched; else off, if may_disable. */
void sg_watch_settle(int may_disable) SG_HIDDEN;

/*
 * The rewriting engine is shared by a family of mechanisms (patch here,
 * mechanisms/{sud,int3,seccomp,zeropage}/): each starts it in a mode and
 * takes the same operations for the rest.
 */
struct sg_patch_mode {
	const char *name;	/* for --stats */
	unsigned char all_traps;	/* every site a breakpoint (int3) */
	unsigned char sud;	/* calls are caught by a signal: only sites of
				   calls that must run at the program's own
				   stack are patched (sud, seccomp) */
	unsigned char sud_on;	/* turn syscall user dispatch on after */
	unsigned char zero;	/* proven sites become call *%rax */
};
int sg_patch_start(const struct sg_options *o,
		   const struct sg_patch_mode *m) SG_HIDDEN;
void sg_patch_stats(void) SG_HIDDEN;
void sg_patch_release(void) SG_HIDDEN;
void sg_patch_new_code(unsigned long lo, unsigned long hi, int file) SG_HIDDEN;
void sg_patch_pending(unsigned long addr) SG_HIDDEN;
int sg_patch_code_begin(const struct sysgate_sys *s, unsigned long lo,
			unsigned long hi) SG_HIDDEN;
void sg_patch_code_end(int token, const struct sysgate_sys *s,
		       unsigned long lo, unsigned long hi) SG_HIDDEN;
void sg_patch_exit_stats(void) SG_HIDDEN;
void sg_patch_lazy_trapped(unsigned long addr) SG_HIDDEN;
void sg_patch_lazy_forked(void) SG_HIDDEN;
void sg_patch_psud(void) SG_HIDDEN;
/* Whether pc lies in a stub of a lazily patched site's (lazy.c). */
int sg_patch_lazy_has(unsigned long pc) SG_HIDDEN;
#define SG_PATCH_FAMILY_OPS						\
	.stats = sg_patch_stats, .release = sg_patch_release,		\
	.new_code = sg_patch_new_code,					\
	.trapped = sg_patch_lazy_trapped,				\
	.code_begin = sg_patch_code_begin,				\
	.code_end = sg_patch_code_end,					\
	.exit_stats = sg_patch_exit_stats,				\
	.forked = sg_patch_lazy_forked,					\
	.threads = sg_patch_threads,					\
	.psud = sg_patch_psud

/* Plan o's sites from its code: candidates, each planned by the arch,
 * regions an outside branch may enter re-planned (patch.c); with: the
 * options to plan for, 0 for those the mechanism started with. */
void sg_patch_plan(struct sg_obj *o, const struct sg_options *with) SG_HIDDEN;

/* --stats lines: append to a 4096-byte buffer. */
void sg_patch_put(char *buf, size_t *n, const char *s) SG_HIDDEN;
void sg_patch_put_num(char *buf, size_t *n, unsigned long v) SG_HIDDEN;

/* ELF and unwind-table helpers (elfobj.c) */
int sg_obj_parse(struct sg_obj *o, unsigned long ehdr_addr) SG_HIDDEN;
/* Without .eh_frame_hdr (static binaries): index .eh_frame itself. */
/* The search table of PT_GNU_EH_FRAME, read once: its entries (0 if
 * none) */
unsigned long sg_obj_eh_frame_hdr(struct sg_obj *o) SG_HIDDEN;
void sg_obj_index_eh_frame(struct sg_obj *o) SG_HIDDEN;
/* Executable sections (from the file's section headers): [lo, hi) pairs
 * at run-time addresses; their count, 0 if unknown. */
int sg_obj_code_ranges(struct sg_obj *o, unsigned long r[][2], int max) SG_HIDDEN;
/* Function containing addr from .eh_frame: [start, end), LSDA present? */
int sg_obj_function(struct sg_obj *o, unsigned long addr, unsigned long *start,
		    unsigned long *end, int *has_lsda) SG_HIDDEN;
/* Start of the next / end of the previous function around addr. */
unsigned long sg_obj_next_function(struct sg_obj *o, unsigned long addr) SG_HIDDEN;
unsigned long sg_obj_prev_function_end(struct sg_obj *o,
				       unsigned long addr) SG_HIDDEN;
int sg_obj_readable(const struct sg_obj *o, unsigned long addr,
		    unsigned long len) SG_HIDDEN;

/* Padding bookkeeping for PAD trampolines */
int sg_obj_pad_taken(struct sg_obj *o, unsigned long lo, unsigned long hi) SG_HIDDEN;
void sg_obj_pad_take(struct sg_obj *o, unsigned long addr) SG_HIDDEN;

/* Which branch targets matter to the arch's targets(): those in a
 * 2^shift-byte block of [base, base + nblocks << shift) whose bit is set
 * in blocks (most branches land nowhere near a site: no call for them). */
struct sg_target_filter {
	unsigned long base, nblocks;
	const unsigned char *blocks;
	int shift;
};

static inline int sg_target_wanted(const struct sg_target_filter *f,
				   unsigned long target)
{
	unsigned long b = (target - f->base) >> f->shift;

	return b < f->nblocks && ((f->blocks[b >> 3] >> (b & 7)) & 1);
}

#define SG_CANDIDATE_LEN SG_SYSCALL_INSN_LEN

/*
 * The arch part (patch-<arch>.c, chosen by the build): one descriptor,
 * what the engine knows of the ISA's instructions.  Planning and writing
 * are not the system call path: an indirect call costs nothing there.
 */
struct sg_patch_arch {
	/* Offset of the next candidate in buf[0..len), or -1. */
	long (*scan)(const unsigned char *buf, unsigned long len);
	/* 1: real site, planned; 0: not an instruction; -1: cannot tell. */
	int (*plan)(struct sg_obj *o, unsigned long addr, struct sg_site *s);
	/* Report every direct branch target that bytes at addr could
	 * encode and f wants. */
	void (*targets)(const unsigned char *buf, unsigned long len,
			unsigned long addr, const struct sg_target_filter *f,
			void (*cb)(unsigned long target, void *arg), void *arg);
	/* Re-plan a site whose region an outside branch may enter. */
	void (*fallback)(struct sg_obj *o, struct sg_site *s);
	/* Just after plan() said 1 for s: make it a patch that can be
	 * written while other threads run the code (no instruction starts
	 * inside the bytes that change, and a thread that runs the old
	 * bytes up to the syscall still finds it there); 1 if it could.
	 * 0 where the arch has none: threads then stop first-trap
	 * planning, and a first thread plans objects whole. */
	int (*live)(struct sg_obj *o, struct sg_site *s);
	/* After selection: link sites that depend on others (rv64 relays
	 * to their gateways), demoting what cannot be served. */
	void (*finish)(struct sg_obj *o);
	/* Free the planning buffers. */
	void (*release)(void);

	unsigned long (*stub_size)(const struct sg_site *s);
	/* Write the stub for s into buf, which will live at addr. */
	void (*emit)(const struct sg_site *s, unsigned char *buf,
		     unsigned long addr, unsigned long entry_ptr,
		     unsigned long after_ptr);
	/* The bytes that replace [s->lo, s->hi), and for PAD the
	 * trampoline. */
	void (*site_bytes)(const struct sg_site *s, unsigned char *out);
	int (*pad_bytes)(const struct sg_site *s, unsigned char *out);
	/* A trap: the bytes written at s->addr (the signal's pc lies
	 * SG_TRAP_PC_BACK past them, see signal_arch.h). */
	int (*trap_bytes)(const struct sg_site *s, unsigned char *out);
	/* Where a trap site's stub ends in a second trap, which resumes
	 * after the site's instruction: its offset in the stub (0: the
	 * stub jumps back by itself). */
	unsigned long trap_back;
	/* Offset in s's stub of the call itself, where a breakpoint at a
	 * SYSCALL-interior window's syscall resumes (0 where none is). */
	unsigned long (*call_at)(const struct sg_site *s);
	/* Trap stubs return through a second trap, so they may be placed
	 * out of branch reach (then a site with no region in reach traps). */
	int trap_far;
	/* The words at the start of each stub region: where stubs enter
	 * sysgate, where raw calls return, and rv64's relay. */
	unsigned long entry, after, relay;

	/* Offset in buf[0..len) of the next bytes of any instruction that
	 * enters the kernel (x86-64: syscall, sysenter, int $0x80), or -1
	 * (where a candidate is the only way in: scan). */
	long (*next_trap)(const unsigned char *buf, unsigned long len);
	/* Lazy patching (lazy.c), where lazy_look is not 0: with
	 * code[0..lazy_look) the bytes at a trapped site, where its stub
	 * must start (0: no lazy patch for it), and the bytes that patch
	 * the site (written first to last, each store leaving valid code:
	 * x86 needs one).  Their count, or 0. */
	unsigned long lazy_look;
	unsigned long (*lazy_stub)(unsigned long addr,
				   const unsigned char *code);
	int (*lazy_bytes)(unsigned long addr, unsigned long stub,
			  unsigned char *out);
};
extern const struct sg_patch_arch sg_patch_arch SG_HIDDEN;
/* The functions every patch-<arch>.c defines, named alike. */
#define SG_PATCH_ARCH_FUNCS						\
	.scan = arch_scan, .plan = arch_plan, .targets = arch_targets,	\
	.fallback = arch_fallback, .finish = arch_finish,		\
	.release = arch_release, .stub_size = arch_stub_size,		\
	.emit = arch_emit, .site_bytes = arch_site_bytes,		\
	.pad_bytes = arch_pad_bytes, .trap_bytes = arch_trap_bytes

/* Is call nr (-1: not known) selected?  A planner leaves a site of a
 * known, unselected call as SG_PATCH_LEFT without choosing its patch:
 * most of planning's cost where few calls are selected. */
int sg_patch_wanted(int nr) SG_HIDDEN;
/* The selection plans are made for (a plan serves only the same one). */
void sg_patch_selection(unsigned long sel[SG_SEL_WORDS]) SG_HIDDEN;

/*
 * A linear sweep of one text mapping (sweep.c), for arches whose
 * instructions can be walked from the mapping's start (rv64, aarch64):
 * the code, and per SG_INSN_ALIGN unit a bit for "an instruction starts
 * here" and one for "a direct branch lands here".  Only the bytes of code
 * sections are decoded (a text mapping also holds read-only data).  The
 * arch's step decodes one instruction: its length, 0 if none starts
 * there, and *target the offset of a direct branch or SG_NO_TARGET.
 */
#define SG_NO_TARGET (-0x7fffffffffffffffL - 1)
struct sg_text_sweep {
	struct sg_obj *obj;
	unsigned long start, end;
	unsigned long len;	/* bytes read: the file may end first */
	int ok;
	unsigned char *code;
	unsigned char *starts;
	unsigned char *targets;
};
typedef int (*sg_sweep_step)(const unsigned char *p, unsigned long avail,
			     long *target);
/* Sweep the text mapping holding addr, unless it is the one swept last;
 * 0 if it cannot be read. */
int sg_text_sweep(struct sg_text_sweep *f, struct sg_obj *o,
		  unsigned long addr, sg_sweep_step step) SG_HIDDEN;
/* The code at addr if an instruction starts there, else NULL. */
const unsigned char *sg_text_sweep_insn(const struct sg_text_sweep *f,
					unsigned long addr) SG_HIDDEN;
int sg_text_sweep_is_target(const struct sg_text_sweep *f,
			    unsigned long addr) SG_HIDDEN;
void sg_text_sweep_release(struct sg_text_sweep *f) SG_HIDDEN;
/* A kept buffer's used bytes past its first page back to the kernel
 * (patch.c). */
void sg_patch_drop_tail(void *b, unsigned long used) SG_HIDDEN;

/* Plans shared by the processes of a tree (plans.c): 0 if o's sites
 * were found and still match memory; alloc makes room for n sites. */
/* patch.c: is every site planned, selected or not (a whole planning at
 * a first thread)?  Part of a shared plan's key. */
int sg_patch_wants_all(void) SG_HIDDEN;
int sg_plans_find(struct sg_obj *o,
		  struct sg_site *(*alloc)(struct sg_obj *o, unsigned long n))
	SG_HIDDEN;
void sg_plans_add(const struct sg_obj *o) SG_HIDDEN;
/* A site of an object left to traps, planned at its first trap, for the
 * tree; and those the tree has for o (all, or the one at addr), each
 * given to use (which returns 1 if it wrote it): how many it wrote. */
void sg_plans_add_site(const struct sg_obj *o,
		       const struct sg_site *s) SG_HIDDEN;
int sg_plans_take_sites(struct sg_obj *o, unsigned long addr,
			int (*use)(struct sg_obj *o, struct sg_site *s)) SG_HIDDEN;
/* The count of o's waited traps the tree shares, or 0. */
unsigned long *sg_plans_waited(const struct sg_obj *o) SG_HIDDEN;
/* o's rel32 branch targets near syscall pairs (patch.c, near_targets)
 * as a process of the tree found them: 0 and *n (max + 1: too many),
 * or -1 if none did; and those found here, for the tree. */
int sg_plans_near_find(const struct sg_obj *o, unsigned long *near, long *n,
		       long max) SG_HIDDEN;
void sg_plans_near_add(const struct sg_obj *o, const unsigned long *near,
		       long n, long max) SG_HIDDEN;

/* How the code bytes of an object are read during planning. */
long sg_obj_read(struct sg_obj *o, unsigned long addr, void *buf,
		 unsigned long len) SG_HIDDEN;
/* How many bytes of code from addr on (at most len) can be read where
 * they are mapped without a fault: 0 if none. */
unsigned long sg_obj_view(const struct sg_obj *o, unsigned long addr,
			  unsigned long len) SG_HIDDEN;

#endif
