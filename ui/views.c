// SPDX-License-Identifier: GPL-2.0
/* The table of views, in the order the keys 1..9 select them. */
#include <string.h>

#include "loop.h"

extern const struct view view_cpus, view_runqueue, view_timeline, view_events, view_task, view_groups,
	view_migrations;

const struct view *const ui_views[] = {
	&view_cpus, &view_runqueue, &view_timeline, &view_events, &view_task, &view_groups, &view_migrations,
};
const int ui_nr_views = (int)ARRAY_SIZE(ui_views);

const struct view *ui_view_by_name(const char *name)
{
	for (int i = 0; i < ui_nr_views; i++)
		if (!strcmp(ui_views[i]->name, name))
			return ui_views[i];
	if (!strcmp(name, view_help.name))
		return &view_help;
	return NULL;
}
