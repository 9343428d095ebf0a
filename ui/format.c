// SPDX-License-Identifier: GPL-2.0
/* Text for the views (see format.h). */
#include "format.h"

u64 round_step(u64 want)
{
	u64 step = 1;

	while (step < want) {
		if (step * 2 >= want)
			return step * 2;
		if (step * 5 >= want)
			return step * 5;
		step *= 10;
	}
	return step;
}
