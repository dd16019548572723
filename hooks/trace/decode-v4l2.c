/* SPDX-License-Identifier: MIT */
/*
 * ioctl on Video4Linux2 devices (linux/videodev2.h): what each request
 * gives the kernel as strace 6.1 prints it: formats of each buffer type
 * with their four-character codes, buffers, stream parameters, controls
 * (ids by name or by class and offset), tuners, crops, frame sizes.
 * What the kernel returns follows when the call succeeds: after what
 * was given, or " => {...}" where the kernel rewrote it (S_FMT, S_PARM,
 * S_TUNER), as strace.  REQBUFS' count, S_CTRL's value and a queried
 * control's id are kept at entry for "in => out".
 */
#include <linux/videodev2.h>
#include "trace.h"

#define CID_FLAGS (V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND)

/* v4l2_fourcc('Y', 'U', 'Y', 'V') / * V4L2_PIX_FMT_YUYV * /, hex raw */
static void p_fourcc(struct fmt *f, unsigned int v)
{
	const char *nm;
	int i;

	if (trace_xstyle == XS_RAW) {
		p_hex(f, v);
		return;
	}
	fmt_str(f, "v4l2_fourcc(");
	for (i = 0; i < 4; i++) {
		if (i)
			fmt_str(f, ", ");
		p_char_as(f, (v >> (8 * i)) & 0xff, 0);
	}
	fmt_chr(f, ')');
	nm = xlat_name(&xl_v4l2_fourccs, v);
	if (nm) {
		fmt_str(f, " /* ");
		fmt_str(f, nm);
		fmt_str(f, " */");
	}
}

static void p_buf_type(struct fmt *f, unsigned int v)
{
	p_xlat(f, v, &xl_v4l2_buf_types, "V4L2_BUF_TYPE_???");
}

/* A control id: its name, else its class and offset
 * (V4L2_CTRL_CLASS_USER+0x1) unless in an extended control, else hex;
 * query flags before it */
static void p_cid(struct fmt *f, unsigned int id, int flags, int cls_off)
{
	const char *cls;
	size_t start;

	if (flags && (id & CID_FLAGS)) {
		if (trace_xstyle == XS_RAW) {
			p_hex(f, id);
			return;
		}
		p_flags(f, id & CID_FLAGS, &xl_v4l2_ctrl_id_flags, 0);
		fmt_chr(f, '|');
		id &= ~CID_FLAGS;
	}
	if (xlat_name(&xl_v4l2_cids, id)) {
		p_xlat(f, id, &xl_v4l2_cids, 0);
		return;
	}
	cls = cls_off ? xlat_name(&xl_v4l2_ctrl_classes, id & 0xffff0000) : 0;
	start = x_begin(f);
	if (cls) {
		fmt_str(f, cls);
		fmt_chr(f, '+');
		p_hex(f, id & 0xffff);
	} else {
		p_hex(f, id);
		fmt_str(f, " /* V4L2_CID_??? */");
	}
	x_end(f, start, id, 'x');
}

static void p_rect(struct fmt *f, const char *name, const struct v4l2_rect *r)
{
	fmt_str(f, name);
	f_dec(f, "={left=", r->left);
	f_dec(f, ", top=", r->top);
	f_udec(f, ", width=", r->width);
	f_udec(f, ", height=", r->height);
	fmt_chr(f, '}');
}

static void e_clip(struct fmt *f, const void *e)
{
	const struct v4l2_clip *cl = e;

	p_rect(f, "{c", &cl->c);
	fmt_chr(f, '}');
}

static void e_plane_fmt(struct fmt *f, const void *e)
{
	const struct v4l2_plane_pix_format *p = e;

	f_udec(f, "{sizeimage=", p->sizeimage);
	f_udec(f, ", bytesperline=", p->bytesperline);
	fmt_chr(f, '}');
}

static void p_u16_hex_row(struct fmt *f, const __u16 *v, unsigned int n)
{
	unsigned int i;

	fmt_chr(f, '[');
	for (i = 0; i < n; i++) {
		if (i)
			fmt_str(f, ", ");
		p_hex(f, v[i]);
	}
	fmt_chr(f, ']');
}

/* the format of v's buffer type after sep: 0 for a type without one,
 * or a window whose clips strace could not list whole (none, cut, or
 * unread: then it shows no " => " either) */
static int p_format(struct call *c, const struct v4l2_format *v,
		    const char *sep)
{
	struct fmt *f = c->f;
	unsigned int i;
	int listed = 1;

	switch (v->type) {
	case V4L2_BUF_TYPE_VIDEO_CAPTURE: case V4L2_BUF_TYPE_VIDEO_OUTPUT:
	case V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE:
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE:
	case V4L2_BUF_TYPE_VIDEO_OVERLAY:
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY:
	case V4L2_BUF_TYPE_VBI_CAPTURE: case V4L2_BUF_TYPE_VBI_OUTPUT:
	case V4L2_BUF_TYPE_SLICED_VBI_CAPTURE:
	case V4L2_BUF_TYPE_SLICED_VBI_OUTPUT:
	case V4L2_BUF_TYPE_SDR_CAPTURE: case V4L2_BUF_TYPE_SDR_OUTPUT:
	case V4L2_BUF_TYPE_META_CAPTURE: case V4L2_BUF_TYPE_META_OUTPUT:
		fmt_str(f, sep);
		break;
	default:
		return 0;
	}
	switch (v->type) {
	case V4L2_BUF_TYPE_VIDEO_CAPTURE: case V4L2_BUF_TYPE_VIDEO_OUTPUT:
		f_udec(f, "fmt.pix={width=", v->fmt.pix.width);
		f_udec(f, ", height=", v->fmt.pix.height);
		fmt_str(f, ", pixelformat=");
		p_fourcc(f, v->fmt.pix.pixelformat);
		fmt_str(f, ", field=");
		p_xlat(f, v->fmt.pix.field, &xl_v4l2_fields, "V4L2_FIELD_???");
		f_udec(f, ", bytesperline=", v->fmt.pix.bytesperline);
		f_udec(f, ", sizeimage=", v->fmt.pix.sizeimage);
		fmt_str(f, ", colorspace=");
		p_xlat(f, v->fmt.pix.colorspace, &xl_v4l2_colorspaces,
		       "V4L2_COLORSPACE_???");
		fmt_chr(f, '}');
		break;
	case V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE:
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE:
		f_udec(f, "fmt.pix_mp={width=", v->fmt.pix_mp.width);
		f_udec(f, ", height=", v->fmt.pix_mp.height);
		fmt_str(f, ", pixelformat=");
		p_fourcc(f, v->fmt.pix_mp.pixelformat);
		fmt_str(f, ", field=");
		p_xlat(f, v->fmt.pix_mp.field, &xl_v4l2_fields,
		       "V4L2_FIELD_???");
		fmt_str(f, ", colorspace=");
		p_xlat(f, v->fmt.pix_mp.colorspace, &xl_v4l2_colorspaces,
		       "V4L2_COLORSPACE_???");
		fmt_str(f, ", plane_fmt=[");
		for (i = 0; i < v->fmt.pix_mp.num_planes &&
			    i < VIDEO_MAX_PLANES; i++) {
			if (i)
				fmt_str(f, ", ");
			if (i >= (unsigned int)trace_strsize &&
			    !trace_whole(c->s)) {
				fmt_str(f, "...");
				break;
			}
			e_plane_fmt(f, &v->fmt.pix_mp.plane_fmt[i]);
		}
		f_udec(f, "], num_planes=", v->fmt.pix_mp.num_planes);
		fmt_chr(f, '}');
		break;
	case V4L2_BUF_TYPE_VIDEO_OVERLAY:
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY:
		p_rect(f, "fmt.win={w", &v->fmt.win.w);
		fmt_str(f, ", field=");
		p_xlat(f, v->fmt.win.field, &xl_v4l2_fields, "V4L2_FIELD_???");
		fmt_str(f, ", chromakey=");
		p_hex(f, v->fmt.win.chromakey);
		fmt_str(f, ", clips=");
		p_elems(c, (unsigned long)v->fmt.win.clips,
			v->fmt.win.clipcount, ~0UL, sizeof(struct v4l2_clip),
			e_clip);
		listed = v->fmt.win.clipcount && v->fmt.win.clips &&
			 (trace_whole(c->s) ||
			  v->fmt.win.clipcount <= (unsigned int)trace_strsize) &&
			 trace_readable(c->s, (unsigned long)v->fmt.win.clips,
					v->fmt.win.clipcount *
						sizeof(struct v4l2_clip));
		f_udec(f, ", clipcount=", v->fmt.win.clipcount);
		fmt_str(f, ", bitmap=");
		p_ptr(f, (unsigned long)v->fmt.win.bitmap);
		if (v->fmt.win.global_alpha) {	/* (strace: only when set) */
			fmt_str(f, ", global_alpha=");
			p_hex(f, v->fmt.win.global_alpha);
		}
		fmt_chr(f, '}');
		break;
	case V4L2_BUF_TYPE_VBI_CAPTURE: case V4L2_BUF_TYPE_VBI_OUTPUT:
		f_udec(f, "fmt.vbi={sampling_rate=",
		       v->fmt.vbi.sampling_rate);
		f_udec(f, ", offset=", v->fmt.vbi.offset);
		f_udec(f, ", samples_per_line=", v->fmt.vbi.samples_per_line);
		fmt_str(f, ", sample_format=");
		p_fourcc(f, v->fmt.vbi.sample_format);
		f_dec(f, ", start=[", v->fmt.vbi.start[0]);
		f_dec(f, ", ", v->fmt.vbi.start[1]);
		f_udec(f, "], count=[", v->fmt.vbi.count[0]);
		f_udec(f, ", ", v->fmt.vbi.count[1]);
		fmt_str(f, "], flags=");
		p_flags_unknown(f, v->fmt.vbi.flags, &xl_v4l2_vbi_flags,
				"V4L2_VBI_???");
		fmt_chr(f, '}');
		break;
	case V4L2_BUF_TYPE_SLICED_VBI_CAPTURE:
	case V4L2_BUF_TYPE_SLICED_VBI_OUTPUT:
		fmt_str(f, "fmt.sliced={service_set=");
		p_flags_unknown(f, v->fmt.sliced.service_set,
				&xl_v4l2_sliced_flags, "V4L2_SLICED_???");
		fmt_str(f, ", service_lines=[");
		p_u16_hex_row(f, v->fmt.sliced.service_lines[0], 24);
		fmt_str(f, ", ");
		p_u16_hex_row(f, v->fmt.sliced.service_lines[1], 24);
		f_udec(f, "], io_size=", v->fmt.sliced.io_size);
		fmt_chr(f, '}');
		break;
	case V4L2_BUF_TYPE_SDR_CAPTURE: case V4L2_BUF_TYPE_SDR_OUTPUT:
		fmt_str(f, "fmt.sdr={pixelformat=");
		p_fourcc(f, v->fmt.sdr.pixelformat);
		f_udec(f, ", buffersize=", v->fmt.sdr.buffersize);
		fmt_chr(f, '}');
		break;
	case V4L2_BUF_TYPE_META_CAPTURE: case V4L2_BUF_TYPE_META_OUTPUT:
		fmt_str(f, "fmt.meta={dataformat=");
		p_fourcc(f, v->fmt.meta.dataformat);
		f_udec(f, ", buffersize=", v->fmt.meta.buffersize);
		fmt_chr(f, '}');
		break;
	}
	return listed;
}

/* G_FMT: the type, and the format it got; S_FMT and TRY_FMT: the
 * format given, " => " the one the driver chose */
static void k_fmt(struct call *c, unsigned long arg, int set)
{
	struct v4l2_format v;

	a_sep(c);
	if (fetch(c->f, c->s, &v, arg, sizeof(v)))
		return;
	fmt_str(c->f, "{type=");
	p_buf_type(c->f, v.type);
	if ((set || c_ok(c)) && p_format(c, &v, ", ") && set && c_ok(c))
		p_format(c, &v, "} => {");
	fmt_chr(c->f, '}');
}

static void k_reqbufs(struct call *c, unsigned long arg)
{
	struct v4l2_requestbuffers r;

	a_sep(c);
	if (fetch(c->f, c->s, &r, arg, sizeof(r)))
		return;
	fmt_str(c->f, "{type=");
	p_buf_type(c->f, r.type);
	fmt_str(c->f, ", memory=");
	p_xlat(c->f, r.memory, &xl_v4l2_memories, "V4L2_MEMORY_???");
	f_udec(c->f, ", count=", trace_saved(c)[0] ? trace_saved(c)[1] :
				 r.count);
	if (c_ok(c))
		f_udec(c->f, " => ", r.count);
	fmt_chr(c->f, '}');
}

/* A buffer's flags: its timestamp's type and source apart (-X raw:
 * the number) */
static void p_buf_flags(struct fmt *f, unsigned int v)
{
	unsigned int type = v & V4L2_BUF_FLAG_TIMESTAMP_MASK,
		     src = v & V4L2_BUF_FLAG_TSTAMP_SRC_MASK;

	if (trace_xstyle == XS_RAW) {
		p_hex(f, v);
		return;
	}
	if (v & ~type & ~src) {
		p_flags_unknown(f, v & ~type & ~src, &xl_v4l2_buf_flags,
				"V4L2_BUF_FLAG_???");
		fmt_chr(f, '|');
	}
	p_xlat(f, type, &xl_v4l2_buf_ts_types, "V4L2_BUF_FLAG_TIMESTAMP_???");
	fmt_chr(f, '|');
	p_xlat(f, src, &xl_v4l2_buf_ts_srcs, "V4L2_BUF_FLAG_TSTAMP_SRC_???");
}

/* QUERYBUF, QBUF: type and index; DQBUF: the type; then what the
 * kernel filled in (DQBUF: the index, and the timestamp) */
static void k_buf(struct call *c, unsigned long arg, int index)
{
	struct v4l2_buffer b;
	struct fmt *f = c->f;

	a_sep(c);
	if (fetch(f, c->s, &b, arg, sizeof(b)))
		return;
	fmt_str(f, "{type=");
	p_buf_type(f, b.type);
	if (index || c_ok(c))
		f_udec(f, ", index=", b.index);
	if (c_ok(c)) {
		fmt_str(f, ", memory=");
		p_xlat(f, b.memory, &xl_v4l2_memories, "V4L2_MEMORY_???");
		if (b.memory == V4L2_MEMORY_MMAP) {
			fmt_str(f, ", m.offset=");
			p_hex(f, b.m.offset);
		} else if (b.memory == V4L2_MEMORY_USERPTR) {
			fmt_str(f, ", m.userptr=");
			p_ptr(f, b.m.userptr);
		}
		f_udec(f, ", length=", b.length);
		f_udec(f, ", bytesused=", b.bytesused);
		fmt_str(f, ", flags=");
		p_buf_flags(f, b.flags);
		if (!index) {
			fmt_str(f, ", timestamp=");
			p_timeval(f, b.timestamp.tv_sec, b.timestamp.tv_usec);
		}
		fmt_str(f, ", ...");
	}
	fmt_chr(f, '}');
}

/* (G_FBUF's has had a_out's separator) */
static void k_fbuf(struct call *c, unsigned long arg)
{
	struct v4l2_framebuffer b;

	if ((unsigned int)c->s->args[1] == VIDIOC_S_FBUF)
		a_sep(c);
	if (fetch(c->f, c->s, &b, arg, sizeof(b)))
		return;
	fmt_str(c->f, "{capability=");
	p_hex(c->f, b.capability);
	fmt_str(c->f, ", flags=");
	p_hex(c->f, b.flags);
	fmt_str(c->f, ", base=");
	p_ptr(c->f, (unsigned long)b.base);
	fmt_chr(c->f, '}');
}

/* sep, then parm.capture={...} or parm.output={...} */
static void p_parm(struct call *c, const struct v4l2_streamparm *p,
		   const char *sep)
{
	const struct v4l2_captureparm *cp = &p->parm.capture;
	const struct v4l2_outputparm *op = &p->parm.output;
	int out = p->type == V4L2_BUF_TYPE_VIDEO_OUTPUT;

	fmt_str(c->f, sep);
	fmt_str(c->f, out ? "parm.output={capability=" :
			    "parm.capture={capability=");
	p_flags_unknown(c->f, cp->capability, &xl_v4l2_streaming_caps,
			"V4L2_CAP_???");
	fmt_str(c->f, out ? ", outputmode=" : ", capturemode=");
	p_flags_unknown(c->f, out ? op->outputmode : cp->capturemode,
			&xl_v4l2_capture_modes, "V4L2_MODE_???");
	f_udec(c->f, ", timeperframe=", cp->timeperframe.numerator);
	f_udec(c->f, "/", cp->timeperframe.denominator);
	fmt_str(c->f, ", extendedmode=");
	p_hex(c->f, out ? op->extendedmode : cp->extendedmode);
	f_udec(c->f, out ? ", writebuffers=" : ", readbuffers=",
	       out ? op->writebuffers : cp->readbuffers);
	fmt_chr(c->f, '}');
}

/* G_PARM: the type, and the parameters it got; S_PARM: those given,
 * " => " those the driver chose (capture and output types only) */
static void k_parm(struct call *c, unsigned long arg, int set)
{
	struct v4l2_streamparm p;

	a_sep(c);
	if (fetch(c->f, c->s, &p, arg, sizeof(p)))
		return;
	fmt_str(c->f, "{type=");
	p_buf_type(c->f, p.type);
	if (p.type == V4L2_BUF_TYPE_VIDEO_OUTPUT ||
	    p.type == V4L2_BUF_TYPE_VIDEO_CAPTURE) {
		if (set || c_ok(c))
			p_parm(c, &p, ", ");
		if (set && c_ok(c))
			p_parm(c, &p, "} => {");
	}
	fmt_chr(c->f, '}');
}

/* a struct whose first field is an index the call is asked about:
 * ENUMSTD's standard and ENUMINPUT's input follow once returned */
static void k_index(struct call *c, unsigned long arg)
{
	union {
		unsigned int index;
		struct v4l2_standard std;
		struct v4l2_input in;
	} u;
	unsigned int req = (unsigned int)c->s->args[1];
	struct fmt *f = c->f;

	a_sep(c);
	if (fetch(f, c->s, &u, arg, req == VIDIOC_ENUMSTD ? sizeof(u.std) :
							      sizeof(u.in)))
		return;
	f_udec(f, "{index=", u.index);
	if (c_ok(c) && req == VIDIOC_ENUMSTD) {
		fmt_str(f, ", name=");
		p_cstring(f, (const char *)u.std.name, sizeof(u.std.name));
		f_udec(f, ", frameperiod=", u.std.frameperiod.numerator);
		f_udec(f, "/", u.std.frameperiod.denominator);
		f_udec(f, ", framelines=", u.std.framelines);
	} else if (c_ok(c)) {
		fmt_str(f, ", name=");
		p_cstring(f, (const char *)u.in.name, sizeof(u.in.name));
		fmt_str(f, ", type=");
		p_xlat(f, u.in.type, &xl_v4l2_input_types,
		       "V4L2_INPUT_TYPE_???");
	}
	fmt_chr(f, '}');
}

static void k_ctrl(struct call *c, unsigned long arg, int set)
{
	struct v4l2_control v;

	a_sep(c);
	if (fetch(c->f, c->s, &v, arg, sizeof(v)))
		return;
	fmt_str(c->f, "{id=");
	p_cid(c->f, v.id, 0, 1);
	if (set)
		f_dec(c->f, ", value=", trace_saved(c)[0] ?
			(int)trace_saved(c)[1] : v.value);
	if (set && c_ok(c))
		f_dec(c->f, " => ", v.value);
	else if (c_ok(c))
		f_dec(c->f, ", value=", v.value);
	fmt_chr(c->f, '}');
}

/* name=... to afc=... */
static void p_tuner(struct fmt *f, const struct v4l2_tuner *t)
{
	fmt_str(f, "name=");
	p_cstring(f, (const char *)t->name, sizeof(t->name));
	fmt_str(f, ", type=");
	p_xlat(f, t->type, &xl_v4l2_tuner_types, "V4L2_TUNER_???");
	fmt_str(f, ", capability=");
	p_flags_unknown(f, t->capability, &xl_v4l2_tuner_caps,
			"V4L2_TUNER_CAP_???");
	f_udec(f, ", rangelow=", t->rangelow);
	f_udec(f, ", rangehigh=", t->rangehigh);
	fmt_str(f, ", rxsubchans=");
	p_flags_unknown(f, t->rxsubchans, &xl_v4l2_tuner_rxsubchans,
			"V4L2_TUNER_SUB_???");
	fmt_str(f, ", audmode=");
	p_xlat(f, t->audmode, &xl_v4l2_tuner_audmodes, "V4L2_TUNER_MODE_???");
	f_dec(f, ", signal=", t->signal);
	f_dec(f, ", afc=", t->afc);
}

/* G_TUNER: the index, then the tuner; S_TUNER: the tuner given,
 * " => " what the driver left */
static void k_tuner(struct call *c, unsigned long arg, int set)
{
	struct v4l2_tuner t;

	a_sep(c);
	if (fetch(c->f, c->s, &t, arg, sizeof(t)))
		return;
	f_udec(c->f, "{index=", t.index);
	if (set || c_ok(c)) {
		fmt_str(c->f, ", ");
		p_tuner(c->f, &t);
	}
	if (set && c_ok(c)) {
		fmt_str(c->f, "} => {");
		p_tuner(c->f, &t);
	}
	fmt_chr(c->f, '}');
}

/* ", type=..., name=..." and under -v the rest of a control found */
static void p_ctrl_head(struct call *c, unsigned int type, const char *name,
			unsigned long size)
{
	fmt_str(c->f, ", type=");
	p_xlat(c->f, type, &xl_v4l2_ctrl_types, "V4L2_CTRL_TYPE_???");
	fmt_str(c->f, ", name=");
	p_cstring(c->f, name, size);
	if (!trace_whole(c->s))
		fmt_str(c->f, ", ...");
}

static void p_ctrl_info(struct call *c, const struct v4l2_queryctrl *q)
{
	struct fmt *f = c->f;

	p_ctrl_head(c, q->type, (const char *)q->name, sizeof(q->name));
	if (!trace_whole(c->s))
		return;
	f_dec(f, ", minimum=", q->minimum);
	f_dec(f, ", maximum=", q->maximum);
	f_dec(f, ", step=", q->step);
	f_dec(f, ", default_value=", q->default_value);
	fmt_str(f, ", flags=");
	p_flags_unknown(f, q->flags, &xl_v4l2_ctrl_flags, "V4L2_CTRL_FLAG_???");
	p_reserved(f, "reserved", q->reserved, 2);
}

static void p_ext_ctrl_info(struct call *c, const struct v4l2_query_ext_ctrl *x)
{
	struct fmt *f = c->f;
	unsigned int i;

	p_ctrl_head(c, x->type, x->name, sizeof(x->name));
	if (!trace_whole(c->s))
		return;
	f_dec(f, ", minimum=", (long)x->minimum);
	f_dec(f, ", maximum=", (long)x->maximum);
	f_udec(f, ", step=", x->step);
	f_dec(f, ", default_value=", (long)x->default_value);
	fmt_str(f, ", flags=");
	p_flags_unknown(f, x->flags, &xl_v4l2_ctrl_flags, "V4L2_CTRL_FLAG_???");
	f_udec(f, ", elem_size=", x->elem_size);
	f_udec(f, ", elems=", x->elems);
	f_udec(f, ", nr_of_dims=", x->nr_of_dims);
	fmt_str(f, ", dims=[");
	for (i = 0; i < x->nr_of_dims && i < V4L2_CTRL_MAX_DIMS; i++)
		f_udec(f, i ? ", " : "", x->dims[i]);
	fmt_chr(f, ']');
	p_reserved(f, "reserved", x->reserved,
		   sizeof(x->reserved) / sizeof(x->reserved[0]));
}

/* QUERYCTRL, QUERY_EXT_CTRL: the id asked about (with its flags); once
 * found, " => " the id found when another, and the control */
static void k_queryctrl(struct call *c, unsigned long arg)
{
	union {
		unsigned int id;
		struct v4l2_queryctrl q;
		struct v4l2_query_ext_ctrl x;
	} u;
	int ext = (unsigned int)c->s->args[1] == VIDIOC_QUERY_EXT_CTRL;
	unsigned int id;
	struct fmt *f = c->f;

	a_sep(c);
	if (fetch(f, c->s, &u, arg, ext ? sizeof(u.x) : sizeof(u.q)))
		return;
	id = trace_saved(c)[0] ? (unsigned int)trace_saved(c)[1] : u.id;
	fmt_str(f, "{id=");
	p_cid(f, id, 1, 1);
	if (c_ok(c)) {
		if (u.id != id) {
			fmt_str(f, " => ");
			p_cid(f, u.id, 0, 1);
		}
		if (ext)
			p_ext_ctrl_info(c, &u.x);
		else
			p_ctrl_info(c, &u.q);
	}
	fmt_chr(f, '}');
}

/* CROPCAP, G_CROP: the type, then what they return; S_CROP: the
 * rectangle too */
static void k_crop(struct call *c, unsigned long arg, int set)
{
	union {
		struct v4l2_crop cr;
		struct v4l2_cropcap cap;
	} u;
	int cap = (unsigned int)c->s->args[1] == VIDIOC_CROPCAP;
	struct fmt *f = c->f;

	a_sep(c);
	if (fetch(f, c->s, &u, arg, cap ? sizeof(u.cap) : sizeof(u.cr)))
		return;
	fmt_str(f, "{type=");
	p_buf_type(f, u.cr.type);
	if (!cap && (set || c_ok(c))) {
		p_rect(f, ", c", &u.cr.c);
	} else if (cap && c_ok(c)) {
		p_rect(f, ", bounds", &u.cap.bounds);
		p_rect(f, ", defrect", &u.cap.defrect);
		f_udec(f, ", pixelaspect=", u.cap.pixelaspect.numerator);
		f_udec(f, "/", u.cap.pixelaspect.denominator);
	}
	fmt_chr(f, '}');
}

/* a control (its string's bytes are the caller's: they are elsewhere) */
static void p_ext_ctrl(struct call *c, const struct v4l2_ext_control *x)
{
	fmt_str(c->f, "{id=");
	p_cid(c->f, x->id, 0, 0);
	f_udec(c->f, ", size=", x->size);
	if (x->size) {
		fmt_str(c->f, ", string=");
		p_data(c->f, c->s, (unsigned long)x->string, x->size, 0);
	} else {
		f_dec(c->f, ", value=", x->value);
		f_dec(c->f, ", value64=", (long)x->value64);
	}
	fmt_chr(c->f, '}');
}

/* The controls: their array, each string control's bytes; 0 when the
 * array could not be read whole */
static int p_ext_ctrls(struct call *c, const struct v4l2_ext_controls *x)
{
	struct v4l2_ext_control e;
	unsigned long p = (unsigned long)x->controls, i,
		      max = trace_whole(c->s) ? ~0UL :
			    (unsigned long)trace_strsize;

	if (!p || trace_read(c->s, &e, (void *)p, sizeof(e)) != sizeof(e)) {
		p_ptr(c->f, p);
		return 0;
	}
	fmt_chr(c->f, '[');
	for (i = 0; i < x->count; i++) {
		unsigned long at = p + i * sizeof(e);

		if (i && trace_read(c->s, &e, (void *)at, sizeof(e)) !=
				 sizeof(e)) {
			fmt_str(c->f, ", ... /* ");
			fmt_hex(c->f, at);
			fmt_str(c->f, " */]");
			return 0;
		}
		if (i >= max) {
			fmt_str(c->f, ", ...");
			break;
		}
		if (i)
			fmt_str(c->f, ", ");
		p_ext_ctrl(c, &e);
	}
	fmt_chr(c->f, ']');
	return 1;
}

/* G_EXT_CTRLS: the controls at exit; S_ and TRY_: at entry, and at exit
 * (what the kernel wrote back, error_idx) when they could be read */
static void k_ext_ctrls(struct call *c, unsigned long arg, int get)
{
	struct v4l2_ext_controls x;
	int whole;

	a_sep(c);
	if (fetch(c->f, c->s, &x, arg, sizeof(x)))
		return;
	fmt_str(c->f, "{ctrl_class=");
	p_xlat(c->f, x.ctrl_class, &xl_v4l2_ctrl_classes,
	       "V4L2_CTRL_CLASS_???");
	f_udec(c->f, ", count=", x.count);
	if (!x.count) {
		fmt_chr(c->f, '}');
		return;
	}
	fmt_str(c->f, ", controls=");
	whole = p_ext_ctrls(c, &x);
	if (get) {
		f_udec(c->f, ", error_idx=", x.error_idx);
		fmt_chr(c->f, '}');
		return;
	}
	fmt_chr(c->f, '}');
	if (whole) {
		fmt_str(c->f, " => {controls=");
		p_ext_ctrls(c, &x);
		f_udec(c->f, ", error_idx=", x.error_idx);
		fmt_chr(c->f, '}');
	}
}

static void p_fract(struct fmt *f, const char *name,
		    const struct v4l2_fract *v)
{
	f_udec(f, name, v->numerator);
	f_udec(f, "/", v->denominator);
}

/* a frame size's type and sizes */
static void p_frmsize(struct fmt *f, const struct v4l2_frmsizeenum *s)
{
	p_xlat(f, s->type, &xl_v4l2_frmsize_types, "V4L2_FRMSIZE_TYPE_???");
	if (s->type == V4L2_FRMSIZE_TYPE_DISCRETE) {
		f_udec(f, ", discrete={width=", s->discrete.width);
		f_udec(f, ", height=", s->discrete.height);
		fmt_chr(f, '}');
	} else if (s->type == V4L2_FRMSIZE_TYPE_STEPWISE) {
		f_udec(f, ", stepwise={min_width=", s->stepwise.min_width);
		f_udec(f, ", max_width=", s->stepwise.max_width);
		f_udec(f, ", step_width=", s->stepwise.step_width);
		f_udec(f, ", min_height=", s->stepwise.min_height);
		f_udec(f, ", max_height=", s->stepwise.max_height);
		f_udec(f, ", step_height=", s->stepwise.step_height);
		fmt_chr(f, '}');
	}
}

/* a frame interval's type and intervals */
static void p_frmival(struct fmt *f, const struct v4l2_frmivalenum *i)
{
	p_xlat(f, i->type, &xl_v4l2_frmival_types, "V4L2_FRMIVAL_TYPE_???");
	if (i->type == V4L2_FRMIVAL_TYPE_DISCRETE) {
		p_fract(f, ", discrete=", &i->discrete);
	} else if (i->type == V4L2_FRMIVAL_TYPE_STEPWISE ||
		   i->type == V4L2_FRMIVAL_TYPE_CONTINUOUS) {
		p_fract(f, ", stepwise={min=", &i->stepwise.min);
		p_fract(f, ", max=", &i->stepwise.max);
		p_fract(f, ", step=", &i->stepwise.step);
		fmt_chr(f, '}');
	}
}

static void k_frmsize(struct call *c, unsigned long arg, int ival)
{
	union {
		struct v4l2_frmivalenum i;	/* (begins as the other) */
		struct v4l2_frmsizeenum s;
	} u;
	unsigned long size = ival ? sizeof(u.i) : sizeof(u.s);
	struct fmt *f = c->f;

	a_sep(c);
	if (fetch(f, c->s, &u, arg, size))
		return;
	f_udec(f, "{index=", u.i.index);
	fmt_str(f, ", pixel_format=");
	p_fourcc(f, u.i.pixel_format);
	if (ival) {
		f_udec(f, ", width=", u.i.width);
		f_udec(f, ", height=", u.i.height);
	}
	if (c_ok(c)) {
		fmt_str(f, ", type=");
		if (ival)
			p_frmival(f, &u.i);
		else
			p_frmsize(f, &u.s);
	}
	fmt_chr(f, '}');
}

static void k_create_bufs(struct call *c, unsigned long arg)
{
	struct v4l2_create_buffers b;

	a_sep(c);
	if (fetch(c->f, c->s, &b, arg, sizeof(b)))
		return;
	f_udec(c->f, "{count=", b.count);
	fmt_str(c->f, ", memory=");
	p_xlat(c->f, b.memory, &xl_v4l2_memories, "V4L2_MEMORY_???");
	fmt_str(c->f, ", format={type=");
	p_buf_type(c->f, b.format.type);
	p_format(c, &b.format, ", ");
	fmt_str(c->f, "}}");
}

/* What the driver is (only a successful call's: else the address) */
static void k_querycap(struct call *c, unsigned long arg)
{
	struct v4l2_capability v;
	struct fmt *f = c->f;

	if (!c_ok(c)) {
		a_ptr(c, arg);
		return;
	}
	a_sep(c);
	if (fetch(f, c->s, &v, arg, sizeof(v)))
		return;
	fmt_str(f, "{driver=");
	p_cstring(f, (const char *)v.driver, sizeof(v.driver));
	fmt_str(f, ", card=");
	p_cstring(f, (const char *)v.card, sizeof(v.card));
	fmt_str(f, ", bus_info=");
	p_cstring(f, (const char *)v.bus_info, sizeof(v.bus_info));
	fmt_str(f, ", version=");
	p_kernel_version(f, v.version);
	fmt_str(f, ", capabilities=");
	p_flags_unknown(f, v.capabilities, &xl_v4l2_device_caps,
			"V4L2_CAP_???");
	if (v.device_caps) {
		fmt_str(f, ", device_caps=");
		p_flags_unknown(f, v.device_caps, &xl_v4l2_device_caps,
				"V4L2_CAP_???");
	}
	fmt_chr(f, '}');
}

/* CREATE_BUFS' result: " ({index=N, count=N})", the buffers made */
void ioctl_v4l2_ret(struct call *c)
{
	struct v4l2_create_buffers b;

	if ((unsigned int)c->s->args[1] != VIDIOC_CREATE_BUFS ||
	    !trace_structs(c->s) ||
	    trace_read(c->s, &b, (void *)c->s->args[2], sizeof(b)) !=
		    sizeof(b))
		return;
	f_udec(c->f, " ({index=", b.index);
	f_udec(c->f, ", count=", b.count);
	fmt_str(c->f, "})");
}

/* [value] of an int or a 64-bit standard id */
static void k_val(struct call *c, unsigned long arg, int kind, int out)
{
	unsigned long long v = 0;

	if (out ? fetch_out(c, &v, arg, kind == 'l' ? 8 : 4) :
		  fetch_arg(c, &v, arg, kind == 'l' ? 8 : 4, 0))
		return;
	fmt_chr(c->f, '[');
	if (kind == 't')
		p_buf_type(c->f, (unsigned int)v);
	else if (kind == 'u')
		fmt_udec(c->f, (unsigned int)v);
	else
		p_hex(c->f, (unsigned long)v);
	fmt_chr(c->f, ']');
}

/* At entry: what REQBUFS and S_CTRL give, which the kernel overwrites,
 * and the id QUERYCTRL and QUERY_EXT_CTRL ask about (saved[0] set,
 * saved[1] the value) */
void ioctl_v4l2_enter(struct call *c)
{
	unsigned int req = (unsigned int)c->s->args[1], v[2];

	trace_saved(c)[0] = 0;
	if (req == VIDIOC_QUERYCTRL || req == VIDIOC_QUERY_EXT_CTRL) {
		if (trace_read(c->s, v, (void *)c->s->args[2],
			       sizeof(v[0])) == sizeof(v[0])) {
			trace_saved(c)[0] = 1;
			trace_saved(c)[1] = v[0];
		}
		return;
	}
	if ((req != VIDIOC_REQBUFS && req != VIDIOC_S_CTRL) ||
	    trace_read(c->s, v, (void *)c->s->args[2], sizeof(v)) !=
		    sizeof(v))
		return;
	trace_saved(c)[0] = 1;
	/* (count is the first field of one, value the second of the other) */
	trace_saved(c)[1] = v[req == VIDIOC_S_CTRL];
}

int ioctl_v4l2(struct call *c, unsigned int req, unsigned long arg)
{
	const char *nm;

	if (_IOC_TYPE(req) != 'V' || !(nm = xlat_name(&xl_ioctl_v4l2, req)))
		return 0;
	p_named(c->f, nm, req, 'x');
	if (!trace_structs(c->s)) {
		a_hex(c, arg);
		return 1;
	}
	switch (req) {
	case VIDIOC_QUERYCAP: k_querycap(c, arg); break;
	case VIDIOC_G_FBUF:
		if (a_out(c, arg))
			k_fbuf(c, arg);
		break;
	case VIDIOC_G_STD: k_val(c, arg, 'l', 1); break;
	case VIDIOC_G_INPUT: k_val(c, arg, 'u', 1); break;
	case VIDIOC_ENUM_FMT: {
		struct v4l2_fmtdesc d;

		a_sep(c);
		if (fetch(c->f, c->s, &d, arg, sizeof(d)))
			break;
		f_udec(c->f, "{index=", d.index);
		fmt_str(c->f, ", type=");
		p_buf_type(c->f, d.type);
		if (c_ok(c)) {
			fmt_str(c->f, ", flags=");
			p_flags_unknown(c->f, d.flags, &xl_v4l2_fmtdesc_flags,
					"V4L2_FMT_FLAG_???");
			fmt_str(c->f, ", description=");
			p_cstring(c->f, (const char *)d.description,
				  sizeof(d.description));
			fmt_str(c->f, ", pixelformat=");
			p_fourcc(c->f, d.pixelformat);
		}
		fmt_chr(c->f, '}');
		break;
	}
	case VIDIOC_G_FMT: k_fmt(c, arg, 0); break;
	case VIDIOC_S_FMT: case VIDIOC_TRY_FMT: k_fmt(c, arg, 1); break;
	case VIDIOC_REQBUFS: k_reqbufs(c, arg); break;
	case VIDIOC_QUERYBUF: case VIDIOC_QBUF: k_buf(c, arg, 1); break;
	case VIDIOC_DQBUF: k_buf(c, arg, 0); break;
	case VIDIOC_S_FBUF: k_fbuf(c, arg); break;
	case VIDIOC_STREAMON: case VIDIOC_STREAMOFF:
		k_val(c, arg, 't', 0);
		break;
	case VIDIOC_G_PARM: k_parm(c, arg, 0); break;
	case VIDIOC_S_PARM: k_parm(c, arg, 1); break;
	case VIDIOC_S_STD: k_val(c, arg, 'l', 0); break;
	case VIDIOC_S_INPUT: k_val(c, arg, 'u', 0); break;
	case VIDIOC_ENUMSTD: case VIDIOC_ENUMINPUT:
		k_index(c, arg);
		break;
	case VIDIOC_G_TUNER: k_tuner(c, arg, 0); break;
	case VIDIOC_G_CTRL: k_ctrl(c, arg, 0); break;
	case VIDIOC_S_CTRL: k_ctrl(c, arg, 1); break;
	case VIDIOC_S_TUNER: k_tuner(c, arg, 1); break;
	case VIDIOC_QUERYCTRL: case VIDIOC_QUERY_EXT_CTRL:
		k_queryctrl(c, arg);
		break;
	case VIDIOC_CROPCAP: case VIDIOC_G_CROP: k_crop(c, arg, 0); break;
	case VIDIOC_S_CROP: k_crop(c, arg, 1); break;
	case VIDIOC_G_EXT_CTRLS: k_ext_ctrls(c, arg, 1); break;
	case VIDIOC_S_EXT_CTRLS: case VIDIOC_TRY_EXT_CTRLS:
		k_ext_ctrls(c, arg, 0);
		break;
	case VIDIOC_ENUM_FRAMESIZES: k_frmsize(c, arg, 0); break;
	case VIDIOC_ENUM_FRAMEINTERVALS: k_frmsize(c, arg, 1); break;
	case VIDIOC_CREATE_BUFS: k_create_bufs(c, arg); break;
	default:	/* (strace decodes no more of them) */
		a_hex(c, arg);
		break;
	}
	return 1;
}
