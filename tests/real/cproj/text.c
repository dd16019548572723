/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include "parts.h"

void shout(char *s)
{
	for (; *s; s++)
		*s = toupper((unsigned char)*s);
}
