/* SPDX-License-Identifier: MIT */
/* The Video4Linux2 requests whose results sysgate decodes (formats,
 * buffer counts, standards, inputs, controls, parameters, frame
 * buffers), on a descriptor that is none; list.sh's inject run makes
 * them succeed, so what the kernel would have written is compared. */
#include "corpus.h"
#include <sys/ioctl.h>
#include <linux/videodev2.h>

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
	return 0;
}
