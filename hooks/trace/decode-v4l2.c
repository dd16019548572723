/* SPDX-License-Identifier: MIT */
/*
 * ioctl on Video4Linux2 devices (linux/videodev2.h): what each request
 * gives the kernel as strace 6.1 prints it: formats of each buffer type
 * with their four-character codes, buffers, stream parameters, controls
 * (ids by name or by class and offset), tuners, crops, frame sizes.
 * What the kernel returns is decoded for formats (G_FMT), buffer
 * counts, standards, inputs, controls, stream parameters (G_PARM) and
 * frame buffers; the rest not yet (the address, or what was given).
 * REQBUFS' count and S_CTRL's value are kept at entry for "in => out".
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
		p_char(f, (v >> (8 * i)) & 0xff);
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

/* the format of v's buffer type after sep (nothing for a type without
 * one) */
static void p_format(struct call *c, const struct v4l2_format *v,
		     const char *sep)
{
	struct fmt *f = c->f;
	unsigned int i;

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
		return;
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
}

/* G_FMT: the type, and the format it got; S_FMT and TRY_FMT: the
 * format given (what the driver chose instead is not shown yet) */
static void k_fmt(struct call *c, unsigned long arg, int set)
{
	struct v4l2_format v;

	a_sep(c);
	if (fetch(c->f, c->s, &v, arg, sizeof(v)))
		return;
	fmt_str(c->f, "{type=");
	p_buf_type(c->f, v.type);
	if (set || c_ok(c))
		p_format(c, &v, ", ");
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

/* QUERYBUF, QBUF: type and index; DQBUF: the type */
static void k_buf(struct call *c, unsigned long arg, int index)
{
	struct v4l2_buffer b;

	a_sep(c);
	if (fetch(c->f, c->s, &b, arg, sizeof(b)))
		return;
	fmt_str(c->f, "{type=");
	p_buf_type(c->f, b.type);
	if (index)
		f_udec(c->f, ", index=", b.index);
	fmt_chr(c->f, '}');
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

static void k_parm(struct call *c, unsigned long arg, int set)
{
	struct v4l2_streamparm p;
	const struct v4l2_captureparm *cp = &p.parm.capture;
	const struct v4l2_outputparm *op = &p.parm.output;
	int out;

	a_sep(c);
	if (fetch(c->f, c->s, &p, arg, sizeof(p)))
		return;
	fmt_str(c->f, "{type=");
	p_buf_type(c->f, p.type);
	out = p.type == V4L2_BUF_TYPE_VIDEO_OUTPUT;
	if ((set || c_ok(c)) &&
	    (out || p.type == V4L2_BUF_TYPE_VIDEO_CAPTURE)) {
		fmt_str(c->f, out ? ", parm.output={capability=" :
				    ", parm.capture={capability=");
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
	fmt_chr(c->f, '}');
}

/* a struct whose first field is an index the call is asked about */
static void k_index(struct call *c, unsigned long arg)
{
	unsigned int idx;

	a_sep(c);
	if (fetch(c->f, c->s, &idx, arg, sizeof(idx)))
		return;
	f_udec(c->f, "{index=", idx);
	fmt_chr(c->f, '}');
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

static void k_tuner(struct call *c, unsigned long arg)
{
	struct v4l2_tuner t;

	a_sep(c);
	if (fetch(c->f, c->s, &t, arg, sizeof(t)))
		return;
	f_udec(c->f, "{index=", t.index);
	fmt_str(c->f, ", name=");
	p_cstring(c->f, (const char *)t.name, sizeof(t.name));
	fmt_str(c->f, ", type=");
	p_xlat(c->f, t.type, &xl_v4l2_tuner_types, "V4L2_TUNER_???");
	fmt_str(c->f, ", capability=");
	p_flags_unknown(c->f, t.capability, &xl_v4l2_tuner_caps,
			"V4L2_TUNER_CAP_???");
	f_udec(c->f, ", rangelow=", t.rangelow);
	f_udec(c->f, ", rangehigh=", t.rangehigh);
	fmt_str(c->f, ", rxsubchans=");
	p_flags_unknown(c->f, t.rxsubchans, &xl_v4l2_tuner_rxsubchans,
			"V4L2_TUNER_SUB_???");
	fmt_str(c->f, ", audmode=");
	p_xlat(c->f, t.audmode, &xl_v4l2_tuner_audmodes,
	       "V4L2_TUNER_MODE_???");
	f_dec(c->f, ", signal=", t.signal);
	f_dec(c->f, ", afc=", t.afc);
	fmt_chr(c->f, '}');
}

/* QUERYCTRL, QUERY_EXT_CTRL: the id asked about (with its flags) */
static void k_queryctrl(struct call *c, unsigned long arg)
{
	unsigned int id;

	a_sep(c);
	if (fetch(c->f, c->s, &id, arg, sizeof(id)))
		return;
	fmt_str(c->f, "{id=");
	p_cid(c->f, id, 1, 1);
	fmt_chr(c->f, '}');
}

/* CROPCAP, G_CROP: the type; S_CROP: the rectangle too */
static void k_crop(struct call *c, unsigned long arg, int set)
{
	struct v4l2_crop cr;

	a_sep(c);
	if (fetch(c->f, c->s, &cr, arg, set ? sizeof(cr) : sizeof(cr.type)))
		return;
	fmt_str(c->f, "{type=");
	p_buf_type(c->f, cr.type);
	if (set)
		p_rect(c->f, ", c", &cr.c);
	fmt_chr(c->f, '}');
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

static void k_frmsize(struct call *c, unsigned long arg, int ival)
{
	struct v4l2_frmivalenum v;	/* (begins as v4l2_frmsizeenum) */

	a_sep(c);
	if (fetch(c->f, c->s, &v, arg, ival ? sizeof(v) :
				  sizeof(struct v4l2_frmsizeenum)))
		return;
	f_udec(c->f, "{index=", v.index);
	fmt_str(c->f, ", pixel_format=");
	p_fourcc(c->f, v.pixel_format);
	if (ival) {
		f_udec(c->f, ", width=", v.width);
		f_udec(c->f, ", height=", v.height);
	}
	fmt_chr(c->f, '}');
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

/* At entry: what REQBUFS and S_CTRL give, which the kernel overwrites
 * (saved[0] set, saved[1] the value) */
void ioctl_v4l2_enter(struct call *c)
{
	unsigned int req = (unsigned int)c->s->args[1], v[2];

	trace_saved(c)[0] = 0;
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
	case VIDIOC_QUERYCAP:
		/* (what it returns is not decoded yet) */
		a_ptr(c, arg);
		break;
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
	case VIDIOC_ENUMSTD: case VIDIOC_ENUMINPUT: case VIDIOC_G_TUNER:
		k_index(c, arg);
		break;
	case VIDIOC_G_CTRL: k_ctrl(c, arg, 0); break;
	case VIDIOC_S_CTRL: k_ctrl(c, arg, 1); break;
	case VIDIOC_S_TUNER: k_tuner(c, arg); break;
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
