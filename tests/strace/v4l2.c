/* SPDX-License-Identifier: MIT */
/* ioctl on Video4Linux2 devices on a descriptor that is none (EBADF):
 * what each request gives the kernel (formats of each buffer type,
 * buffers, parameters, controls by name and by class, tuners, crops,
 * extended controls, frame sizes), one array ending at an unmapped
 * page.  (What the kernel returns is not decoded yet: no inject run.) */
#include "corpus.h"
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/videodev2.h>

#define FOURCC(a, b, c, d) \
	((unsigned int)(a) | (unsigned int)(b) << 8 | \
	 (unsigned int)(c) << 16 | (unsigned int)(d) << 24)

int main(void)
{
	unsigned char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static const unsigned int types[] = {
		V4L2_BUF_TYPE_VIDEO_CAPTURE, V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE,
		V4L2_BUF_TYPE_VIDEO_OVERLAY, V4L2_BUF_TYPE_VBI_OUTPUT,
		V4L2_BUF_TYPE_SLICED_VBI_CAPTURE, V4L2_BUF_TYPE_SDR_OUTPUT,
		V4L2_BUF_TYPE_META_CAPTURE, 0x77,
	};
	static const unsigned int cids[] = {
		V4L2_CID_HUE, V4L2_CID_EXPOSURE_AUTO, 0x9a0905, 0x5a0001, 0,
	};
	struct v4l2_format fmt;
	struct v4l2_clip *clips;
	struct v4l2_requestbuffers rb = { 3, V4L2_BUF_TYPE_VIDEO_CAPTURE,
					  V4L2_MEMORY_DMABUF, 0, 0, { 0 } };
	struct v4l2_buffer buf;
	struct v4l2_framebuffer fb;
	struct v4l2_streamparm sp;
	struct v4l2_control ctl;
	struct v4l2_tuner tu;
	struct v4l2_crop cr = { V4L2_BUF_TYPE_VIDEO_OUTPUT,
				{ -5, 7, 640, 480 } };
	struct v4l2_ext_controls ec;
	struct v4l2_ext_control *x;
	struct v4l2_frmivalenum fi;
	struct v4l2_create_buffers cb;
	struct v4l2_fmtdesc fd = { .index = 2,
				   .type = V4L2_BUF_TYPE_SDR_CAPTURE };
	unsigned int i, type = V4L2_BUF_TYPE_VIDEO_OUTPUT, in = 4, id;
	unsigned long long std = 0x3000;

	check(m != MAP_FAILED && !munmap(m + 4096, 4096), "mmap");
	begin();
	ioctl(-1, VIDIOC_QUERYCAP, m);
	ioctl(-1, VIDIOC_ENUM_FMT, &fd);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		memset(&fmt, 0x5c, sizeof(fmt));
		fmt.type = types[i];
		fmt.fmt.pix.pixelformat = i & 1 ? V4L2_PIX_FMT_YUYV :
					  FOURCC('a', '\'', 0x7f, '1');
		ioctl(-1, i & 1 ? VIDIOC_G_FMT : VIDIOC_S_FMT, &fmt);
		ioctl(-1, VIDIOC_TRY_FMT, &fmt);
	}
	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
	fmt.fmt.pix_mp.pixelformat = V4L2_PIX_FMT_NV12M;
	fmt.fmt.pix_mp.num_planes = 2;
	fmt.fmt.pix_mp.plane_fmt[1].sizeimage = 4096;
	ioctl(-1, VIDIOC_S_FMT, &fmt);
	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY;
	clips = (struct v4l2_clip *)(m + 4096) - 2;
	memset(clips, 0, 2 * sizeof(*clips));
	clips[1].c.width = 9;
	fmt.fmt.win.clips = clips;
	fmt.fmt.win.clipcount = 3;
	fmt.fmt.win.field = V4L2_FIELD_INTERLACED;
	ioctl(-1, VIDIOC_S_FMT, &fmt);
	ioctl(-1, VIDIOC_REQBUFS, &rb);
	memset(&buf, 0, sizeof(buf));
	buf.index = 5;
	buf.type = 0x99;
	ioctl(-1, VIDIOC_QUERYBUF, &buf);
	ioctl(-1, VIDIOC_QBUF, &buf);
	ioctl(-1, VIDIOC_DQBUF, &buf);
	memset(&fb, 0, sizeof(fb));
	fb.capability = V4L2_FBUF_CAP_CHROMAKEY;
	fb.base = m;
	ioctl(-1, VIDIOC_G_FBUF, &fb);
	ioctl(-1, VIDIOC_S_FBUF, &fb);
	ioctl(-1, VIDIOC_OVERLAY, 1);
	ioctl(-1, VIDIOC_STREAMON, &type);
	ioctl(-1, VIDIOC_STREAMOFF, NULL);
	memset(&sp, 0, sizeof(sp));
	sp.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	sp.parm.output.timeperframe.numerator = 1;
	sp.parm.output.timeperframe.denominator = 30;
	sp.parm.output.writebuffers = 4;
	ioctl(-1, VIDIOC_S_PARM, &sp);
	ioctl(-1, VIDIOC_G_PARM, &sp);
	sp.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sp.parm.capture.capability = V4L2_CAP_TIMEPERFRAME | 0x10;
	ioctl(-1, VIDIOC_S_PARM, &sp);
	ioctl(-1, VIDIOC_S_STD, &std);
	ioctl(-1, VIDIOC_G_STD, &std);
	ioctl(-1, VIDIOC_ENUMSTD, &in);
	ioctl(-1, VIDIOC_ENUMINPUT, &in);
	ioctl(-1, VIDIOC_S_INPUT, &in);
	ioctl(-1, VIDIOC_G_INPUT, &in);
	for (i = 0; i < sizeof(cids) / sizeof(cids[0]); i++) {
		ctl.id = cids[i];
		ctl.value = -(int)i;
		ioctl(-1, VIDIOC_G_CTRL, &ctl);
		ioctl(-1, VIDIOC_S_CTRL, &ctl);
		id = cids[i] | (i & 1 ? V4L2_CTRL_FLAG_NEXT_CTRL : 0);
		ioctl(-1, i & 2 ? VIDIOC_QUERY_EXT_CTRL : VIDIOC_QUERYCTRL,
		      &id);
	}
	memset(&tu, 0, sizeof(tu));
	strcpy((char *)tu.name, "FM\ttuner");
	tu.type = V4L2_TUNER_ANALOG_TV;
	tu.capability = V4L2_TUNER_CAP_STEREO | V4L2_TUNER_CAP_RDS;
	tu.rxsubchans = V4L2_TUNER_SUB_STEREO;
	tu.audmode = V4L2_TUNER_MODE_LANG1_LANG2;
	tu.signal = -3;
	ioctl(-1, VIDIOC_S_TUNER, &tu);
	ioctl(-1, VIDIOC_G_TUNER, &tu);
	ioctl(-1, VIDIOC_CROPCAP, &cr);
	ioctl(-1, VIDIOC_G_CROP, &cr);
	ioctl(-1, VIDIOC_S_CROP, &cr);
	memset(&ec, 0, sizeof(ec));
	ec.which = V4L2_CTRL_CLASS_CAMERA;
	ioctl(-1, VIDIOC_S_EXT_CTRLS, &ec);
	x = (struct v4l2_ext_control *)(m + 4096) - 2;
	memset(x, 0, 2 * sizeof(*x));
	x[0].id = V4L2_CID_ZOOM_ABSOLUTE;
	x[0].value64 = -7;
	x[1].id = 0x9a0999;
	x[1].size = 3;
	x[1].string = (char *)m;
	memcpy(m, "ab\n", 3);
	ec.count = 2;
	ec.controls = x;
	ioctl(-1, VIDIOC_S_EXT_CTRLS, &ec);
	ioctl(-1, VIDIOC_TRY_EXT_CTRLS, &ec);
	ioctl(-1, VIDIOC_G_EXT_CTRLS, &ec);
	ec.count = 3;
	ioctl(-1, VIDIOC_S_EXT_CTRLS, &ec);
	memset(&fi, 0, sizeof(fi));
	fi.index = 1;
	fi.pixel_format = V4L2_PIX_FMT_MJPEG;
	fi.width = 1280;
	fi.height = 720;
	ioctl(-1, VIDIOC_ENUM_FRAMESIZES, &fi);
	ioctl(-1, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
	memset(&cb, 0, sizeof(cb));
	cb.count = 2;
	cb.memory = V4L2_MEMORY_MMAP;
	cb.format.type = V4L2_BUF_TYPE_META_OUTPUT;
	cb.format.fmt.meta.dataformat = V4L2_META_FMT_VSP1_HGO;
	ioctl(-1, VIDIOC_CREATE_BUFS, &cb);
	ioctl(-1, VIDIOC_LOG_STATUS);
	return 0;
}
