// SPDX-License-Identifier: GPL-2.0
/* The search under way: see find.h. */
#include "commands.h"
#include "find.h"

void find_begin(struct pane *pn, int dir)
{
	struct find_job *j = &pn->find;

	*j = (struct find_job){ .on = true, .first = !dir, .view = pn->main_view };
	j->scan.dir = dir ? dir : 1;
	ui_message(pn->ui, "/%s", pn->search); /* the last one's result goes */
}

/* The job's end: the message, and whether a new search found nothing. */
static int done(struct pane *pn, enum search_step r)
{
	struct find_job *j = &pn->find;
	struct ui *ui = pn->ui;

	j->on = false;
	if (r == SEARCH_HIT) {
		ui_message(ui, j->first ? "/%s  (n next, N previous)" : "/%s", pn->search);
		return 0;
	}
	if (j->first) {
		ui_error(ui, "search: no line holds '%s'", pn->search);
		return -1;
	}
	ui_message(ui, "/%s: no more matches %s", pn->search, j->scan.dir > 0 ? "below" : "above");
	return 0;
}

/* One slice of pn's search; -1 when it ended finding nothing new, else 0. */
static int slice(struct pane *pn, u64 items)
{
	struct find_job *j = &pn->find;
	enum search_step r;

	if (!j->on)
		return 0;
	if (pn->main_view != j->view) { /* another view: its selection is not the one searched from */
		j->on = false;
		ui_message(pn->ui, "/%s: search given up, the view changed", pn->search);
		return 0;
	}
	j->scan.budget = items;
	r = j->view->find(pn, &j->scan);
	/* a new search found nothing below the selection: up from it */
	if (r == SEARCH_NONE && j->first && j->scan.dir > 0) {
		j->scan = (struct search_scan){ .dir = -1, .looked = j->scan.looked };
		return 0;
	}
	return r == SEARCH_MORE ? 0 : done(pn, r);
}

bool find_slice(struct ui *ui, u64 items)
{
	slice(&ui->pane, items);
	if (ui->split.on)
		slice(&ui->pane_b, items);
	return find_pending(ui);
}

bool find_pending(const struct ui *ui)
{
	return ui->pane.find.on || (ui->split.on && ui->pane_b.find.on);
}

int find_finish(struct ui *ui)
{
	int rc = 0;

	for (int i = 0; i < 2; i++) {
		struct pane *pn = i ? &ui->pane_b : &ui->pane;

		while (pn->find.on && (i == 0 || ui->split.on))
			rc |= slice(pn, UINT64_MAX);
	}
	return rc;
}

bool find_cancel(struct pane *pn)
{
	if (!pn->find.on)
		return false;
	pn->find.on = false;
	ui_message(pn->ui, "/%s: search cancelled after %llu events", pn->search,
		   (unsigned long long)pn->find.scan.looked);
	return true;
}
