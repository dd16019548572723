/* SPDX-License-Identifier: MIT */
/* The Video4Linux2 requests whose results sysgate decodes (formats,
 * buffer counts, standards, inputs, controls, parameters, frame
 * buffers, capabilities, buffers, tuners, crops, frame sizes and
 * intervals), on a descriptor that is none; list.sh's inject run makes
 * them succeed, so what the kernel would have written is compared. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <linux/videodev2.h>

/* the rest, each struct filled with distinct bytes */
static void more(void)
{
	static union {
		struct v4l2_capability cap;
		struct v4l2_fmtdesc fd;
		struct v4l2_format fmt;
		struct v4l2_buffer buf;
		struct v4l2_streamparm sp;
		struct v4l2_standard std;
		struct v4l2_input in;
		struct v4l2_tuner tu;
		struct v4l2_queryctrl qc;
		struct v4l2_query_ext_ctrl qx;
		struct v4l2_cropcap cc;
		struct v4l2_crop cr;
		struct v4l2_frmsizeenum fs;
		struct v4l2_frmivalenum fi;
		struct v4l2_create_buffers cb;
	} u;
	static const unsigned int fmt_types[] = {
		V4L2_BUF_TYPE_VIDEO_CAPTURE, V4L2_BUF_TYPE_VIDEO_OVERLAY, 0,
	};
	unsigned int i;

	fill_bytes(&u, sizeof(u), 0x41, 1);
	ioctl(-1, VIDIOC_QUERYCAP, &u.cap);
	u.cap.device_caps = 0;
	u.cap.capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
	ioctl(-1, VIDIOC_QUERYCAP, &u.cap);
	fill_bytes(&u, sizeof(u), 0x30, 1);
	u.fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	u.fd.flags = V4L2_FMT_FLAG_COMPRESSED | 0x8000;
	u.fd.pixelformat = V4L2_PIX_FMT_YUYV;
	ioctl(-1, VIDIOC_ENUM_FMT, &u.fd);
	u.fd.pixelformat = 0x0a0d0941;	/* (whitespace in a fourcc) */
	ioctl(-1, VIDIOC_ENUM_FMT, &u.fd);
	for (i = 0; i < sizeof(fmt_types) / sizeof(fmt_types[0]); i++) {
		fill_bytes(&u, sizeof(u), (unsigned char)(i * 30), 3);
		u.fmt.type = fmt_types[i];
		u.fmt.fmt.win.clipcount = 0;
		ioctl(-1, VIDIOC_S_FMT, &u.fmt);
		ioctl(-1, VIDIOC_TRY_FMT, &u.fmt);
	}
	fill_bytes(&u, sizeof(u), 0x10, 7);
	u.buf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	u.buf.memory = V4L2_MEMORY_MMAP;
	u.buf.flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_TIMESTAMP_COPY |
		      V4L2_BUF_FLAG_TSTAMP_SRC_SOE;
	u.buf.timestamp.tv_sec = 1;
	u.buf.timestamp.tv_usec = 2;
	ioctl(-1, VIDIOC_QUERYBUF, &u.buf);
	u.buf.memory = V4L2_MEMORY_USERPTR;
	ioctl(-1, VIDIOC_QBUF, &u.buf);
	u.buf.flags = 0x200000;
	ioctl(-1, VIDIOC_DQBUF, &u.buf);
	fill_bytes(&u, sizeof(u), 0x20, 1);
	u.sp.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	u.sp.parm.output.capability = V4L2_CAP_TIMEPERFRAME;
	u.sp.parm.output.outputmode = 0;
	ioctl(-1, VIDIOC_S_PARM, &u.sp);
	fill_bytes(&u, sizeof(u), 0x50, 1);
	ioctl(-1, VIDIOC_ENUMSTD, &u.std);
	u.in.type = V4L2_INPUT_TYPE_CAMERA;
	ioctl(-1, VIDIOC_ENUMINPUT, &u.in);
	fill_bytes(&u, sizeof(u), 0x60, 1);
	u.tu.type = V4L2_TUNER_RADIO;
	u.tu.capability = V4L2_TUNER_CAP_LOW;
	u.tu.rxsubchans = V4L2_TUNER_SUB_STEREO;
	u.tu.audmode = V4L2_TUNER_MODE_STEREO;
	ioctl(-1, VIDIOC_G_TUNER, &u.tu);
	ioctl(-1, VIDIOC_S_TUNER, &u.tu);
	fill_bytes(&u, sizeof(u), 0x70, 1);
	u.qc.id = V4L2_CID_BRIGHTNESS;
	u.qc.type = V4L2_CTRL_TYPE_INTEGER;
	u.qc.flags = V4L2_CTRL_FLAG_SLIDER;
	ioctl(-1, VIDIOC_QUERYCTRL, &u.qc);
	u.qc.reserved[0] = u.qc.reserved[1] = 0;
	ioctl(-1, VIDIOC_QUERYCTRL, &u.qc);
	fill_bytes(&u, sizeof(u), 0x75, 1);
	u.qx.id = V4L2_CID_CONTRAST;
	u.qx.type = V4L2_CTRL_TYPE_U8;
	u.qx.flags = 0;
	u.qx.nr_of_dims = 2;
	memset(u.qx.reserved, 0, sizeof(u.qx.reserved));
	ioctl(-1, VIDIOC_QUERY_EXT_CTRL, &u.qx);
	u.qx.nr_of_dims = 9;
	u.qx.reserved[3] = 5;
	ioctl(-1, VIDIOC_QUERY_EXT_CTRL, &u.qx);
	fill_bytes(&u, sizeof(u), 0x80, 1);
	u.cc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	ioctl(-1, VIDIOC_CROPCAP, &u.cc);
	ioctl(-1, VIDIOC_G_CROP, &u.cr);
	/* frame sizes and intervals of each type (the same numbers) */
	for (i = V4L2_FRMSIZE_TYPE_DISCRETE; i <= V4L2_FRMSIZE_TYPE_STEPWISE;
	     i++) {
		fill_bytes(&u, sizeof(u), 0x90, 1);
		u.fs.pixel_format = V4L2_PIX_FMT_MJPEG;
		u.fs.type = i;
		ioctl(-1, VIDIOC_ENUM_FRAMESIZES, &u.fs);
		u.fi.type = i;
		ioctl(-1, VIDIOC_ENUM_FRAMEINTERVALS, &u.fi);
	}
	fill_bytes(&u, sizeof(u), 0xa0, 1);
	u.cb.memory = V4L2_MEMORY_MMAP;
	u.cb.format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	ioctl(-1, VIDIOC_CREATE_BUFS, &u.cb);
}

int main(void)
{
	static const unsigned int types[] = {
		V4L2_BUF_TYPE_VIDEO_OUTPUT, V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE,
		V4L2_BUF_TYPE_SLICED_VBI_OUTPUT, V4L2_BUF_TYPE_META_OUTPUT, 0,
	};
	struct v4l2_format fmt;
	struct v4l2_requestbuffers rb;
	struct v4l2_control ctl = { V4L2_CID_GAIN, -12 };
	struct v4l2_streamparm sp;
	struct v4l2_framebuffer fb;
	unsigned long long std = V4L2_STD_PAL_B;
	unsigned int i, in = 2;

	begin();
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		fill_bytes(&fmt, sizeof(fmt), (unsigned char)(i * 40), 5);
		fmt.type = types[i];
		fmt.fmt.pix_mp.num_planes = 1;
		fmt.fmt.sliced.service_set = V4L2_SLICED_VBI_625 | 0x1000;
		ioctl(-1, VIDIOC_G_FMT, &fmt);
	}
	memset(&rb, 0, sizeof(rb));
	rb.count = 4;
	rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	rb.memory = V4L2_MEMORY_USERPTR;
	ioctl(-1, VIDIOC_REQBUFS, &rb);
	ioctl(-1, VIDIOC_G_STD, &std);
	ioctl(-1, VIDIOC_G_INPUT, &in);
	ioctl(-1, VIDIOC_G_CTRL, &ctl);
	ioctl(-1, VIDIOC_S_CTRL, &ctl);
	memset(&sp, 0, sizeof(sp));
	sp.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sp.parm.capture.timeperframe.numerator = 1001;
	sp.parm.capture.timeperframe.denominator = 30000;
	ioctl(-1, VIDIOC_G_PARM, &sp);
	memset(&fb, 0, sizeof(fb));
	fb.flags = V4L2_FBUF_FLAG_OVERLAY;
	ioctl(-1, VIDIOC_G_FBUF, &fb);
	more();
	return 0;
}
