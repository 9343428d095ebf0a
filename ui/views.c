/* The table of views, in the order the keys 1..9 select them. */
#include <string.h>

#include "loop.h"

/* Views defined in ui/view_*.c join this table as they land. */
const struct view *const ui_views[] = {
	NULL,
};
const int ui_nr_views = 0;



const struct view *ui_view_by_name(const char *name)
{
	for (int i = 0; i < ui_nr_views; i++)
		if (!strcmp(ui_views[i]->name, name))
			return ui_views[i];
	if (!strcmp(name, view_help.name))
		return &view_help;
	return NULL;
}
