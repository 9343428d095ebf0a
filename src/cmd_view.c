// SPDX-License-Identifier: GPL-2.0
/*
 * `schedscope view SCENARIO --at T ...`: one frame of the visualizer, drawn
 * with no terminal as text, ANSI or HTML (tests, docs, slides); and
 * `schedscope ui [SCENARIO]`: the interactive visualizer.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/commands.h"
#include "ui/loop.h"
#include "ui/split.h"
#include "ui/trace_job.h"
#include "cli.h"
#include "src/format/lex.h"
#include "src/format/variant.h"

static int parse_colors(const char *s, int *colors)
{
	if (!strcmp(s, "256"))
		*colors = 256;
	else if (!strcmp(s, "16"))
		*colors = 16;
	else if (!strcmp(s, "0") || !strcmp(s, "none") || !strcmp(s, "mono"))
		*colors = 0;
	else
		return cli_usage_error("--colors: '%s' is not 256, 16 or 0", s);
	return 0;
}

/*
 * Side B (variant_choose()): load it into fb and split the screen; 0, or 2 with
 * the message printed (fb is then not loaded).
 */
static int open_vs(struct ui *ui, const char *path, const struct cli_sets *sets, const struct variant *v,
		   const struct scenario_file *f, struct scenario_file *fb)
{
	char la[VARIANT_LABEL_MAX], lb[VARIANT_LABEL_MAX], err[512];

	if (cli_load_variant(path, sets, v, f, fb))
		return 2;
	variant_labels(v, path, la, lb);
	/* the pane's label row says "A: " and "B: " itself */
	if (ui_split_open(ui, fb, -1, la + 3, lb + 3, err, sizeof(err))) {
		fprintf(stderr, "schedscope: %s: %s\n", variant_path(v, path), err);
		scenario_free(fb);
		return 2;
	}
	return 0;
}

/* What view and ui both take: the scenario's sets, side B, the history's budget. */
struct session_opts {
	struct cli_sets sets;
	struct variant vs;
	size_t budget;
	int colors;
	const char *commands;
};

/* An option view and ui share: 0 taken, 2 refused (printed), -1 not one of them. */
static int session_option(int c, struct session_opts *o)
{
	if (c == 'c')
		return parse_colors(optarg, &o->colors) ? 2 : 0;
	return cli_scenario_option(c, optarg, &o->sets, &o->vs, &o->budget);
}

/* The scenario, side B if any, and the visualizer on them. */
struct session {
	struct scenario_file f, fb;
	struct ui ui;
	bool split;
};

/* Reads the scenario and chooses side B; 2 (printed) if it does not load. */
static int session_load(struct session *s, const char *path, struct session_opts *o)
{
	if (cli_load_scenario_sets(path, &o->sets, &s->f))
		return 2;
	s->split = variant_choose(&o->vs, &s->f);
	return 0;
}

/* The visualizer on the loaded scenario, split if side B was chosen; 2 (printed, all freed) on error. */
static int session_start(struct session *s, const char *path, struct session_opts *o)
{
	char err[512];

	if (ui_setup(&s->ui, &s->f, o->budget, err, sizeof(err))) {
		fprintf(stderr, "schedscope: %s: %s\n", path, err);
		scenario_free(&s->f);
		return 2;
	}
	if (s->split && open_vs(&s->ui, path, &o->sets, &o->vs, &s->f, &s->fb)) {
		ui_teardown(&s->ui);
		scenario_free(&s->f);
		return 2;
	}
	return 0;
}

static void session_close(struct session *s)
{
	ui_teardown(&s->ui);
	if (s->split)
		scenario_free(&s->fb);
	scenario_free(&s->f);
}

struct view_opts {
	struct session_opts s;
	const char *view, *format, *select;
	u64 at;
	int w, h;
};

static int parse_size(const char *arg, int *w, int *h)
{
	char *x;
	long ww = strtol(arg, &x, 10), hh = 0;

	if (*x == 'x')
		hh = strtol(x + 1, &x, 10);
	if (*x || ww < 1 || hh < 1 || ww > 1000 || hh > 1000)
		return cli_usage_error("--size: '%s' is not WxH (e.g. 120x40)", arg);
	*w = (int)ww;
	*h = (int)hh;
	return 0;
}

static int parse_view_args(int argc, char **argv, struct view_opts *o)
{
	static const struct option opts[] = {
		{ "at", required_argument, NULL, 'a' },
		{ "size", required_argument, NULL, 'S' },
		{ "view", required_argument, NULL, 'v' },
		{ "format", required_argument, NULL, 'F' },
		{ "select", required_argument, NULL, 'l' },
		{ "colors", required_argument, NULL, 'c' },
		{ "commands", required_argument, NULL, 'C' },
		CLI_SCENARIO_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (parse_duration(optarg, strlen(optarg), &o->at) != PARSE_OK)
				return cli_usage_error("--at: '%s' is not a duration (e.g. 2.5s)", optarg);
			break;
		case 'S':
			if (parse_size(optarg, &o->w, &o->h))
				return 2;
			break;
		case 'v':
			o->view = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "ansi") && strcmp(optarg, "html"))
				return cli_usage_error("--format: '%s' is not text, ansi or html", optarg);
			o->format = optarg;
			break;
		case 'l':
			if (strncmp(optarg, "task=", 5) && strncmp(optarg, "cpu=", 4))
				return cli_usage_error("--select: '%s' is not task=NAME or cpu=N", optarg);
			o->select = optarg;
			break;
		case 'C':
			o->s.commands = optarg;
			break;
		default:
			rc = session_option(c, &o->s);
			if (rc >= 0) {
				if (rc)
					return rc;
				break;
			}
			return cli_usage_error("view: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("view: expected one SCENARIO file");
	return 0;
}

/* Run to --at, then what --view, --select and --commands ask; -1 with ui's message on error. */
static int view_prepare(struct ui *ui, const struct view_opts *o)
{
	char cmd[300];

	history_run_until(ui->run.h, o->at);
	ui_split_sync(ui);
	if (o->view) {
		snprintf(cmd, sizeof(cmd), "view %s", o->view);
		if (ui_command(ui, cmd))
			return -1;
	}
	if (o->select) {
		char *eq = strchr(o->select, '=');
		snprintf(cmd, sizeof(cmd), "select %.*s %s", (int)(eq - o->select), o->select, eq + 1);
		if (ui_command(ui, cmd))
			return -1;
	}
	if (o->s.commands && ui_command_file(ui, o->s.commands))
		return -1;
	/* a trace the commands asked for, written before the frame */
	if (ui->trace) {
		ui_trace_finish(ui);
		if (ui->message_is_error)
			return -1;
	}
	ui->message[0] = 0;
	return 0;
}

/* The frame, drawn into a cell buffer and written in --format. */
static int view_print(struct ui *ui, const struct view_opts *o)
{
	struct cellbuf cb;

	cb_init(&cb, o->w, o->h);
	ui_draw_frame(ui, &cb);
	if (!strcmp(o->format, "ansi"))
		cb_write_ansi(&cb, stdout, o->s.colors);
	else if (!strcmp(o->format, "html"))
		cb_write_html(&cb, stdout);
	else
		cb_write_text(&cb, stdout);
	cb_free(&cb);
	return 0;
}

int cmd_view(int argc, char **argv)
{
	struct view_opts o = {
		.s = { .budget = HISTORY_DEFAULT_BUDGET, .colors = 256 }, .format = "text", .w = 120, .h = 40
	};
	struct session s;
	const char *path;
	int rc = parse_view_args(argc, argv, &o);

	if (rc)
		return rc;
	path = argv[optind];
	if (session_load(&s, path, &o.s))
		return 2;
	if (o.at > s.f.sc.duration) {
		scenario_free(&s.f);
		return cli_usage_error("--at: past the end of the run");
	}
	if (session_start(&s, path, &o.s))
		return 2;
	s.ui.colors = !strcmp(o.format, "text") ? 0 : o.s.colors;
	s.ui.paused = true;
	if (view_prepare(&s.ui, &o)) {
		fprintf(stderr, "schedscope: %s\n", s.ui.message);
		rc = 2;
	} else {
		rc = view_print(&s.ui, &o);
	}
	session_close(&s);
	return rc;
}

struct ui_opts {
	struct session_opts s;
	const char *speed;
	bool paused;
};

static int parse_ui_args(int argc, char **argv, struct ui_opts *o)
{
	static const struct option opts[] = {
		{ "commands", required_argument, NULL, 'C' },
		{ "colors", required_argument, NULL, 'c' },
		{ "speed", required_argument, NULL, 'p' },
		{ "paused", no_argument, NULL, 'P' },
		CLI_SCENARIO_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			if (access(optarg, R_OK))
				return cli_usage_error("--commands: cannot read '%s'", optarg);
			o->s.commands = optarg;
			break;
		case 'p':
			o->speed = optarg;
			break;
		case 'P':
			o->paused = true;
			break;
		default:
			rc = session_option(c, &o->s);
			if (rc >= 0) {
				if (rc)
					return rc;
				break;
			}
			return cli_usage_error("ui: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc - 1)
		return cli_usage_error("ui: expected at most one SCENARIO file");
	return 0;
}

int cmd_ui(int argc, char **argv)
{
	struct ui_opts o = { .s = { .budget = HISTORY_DEFAULT_BUDGET, .colors = -1 } };
	struct session s;
	const char *path;
	int rc = parse_ui_args(argc, argv, &o);

	if (rc)
		return rc;
	path = optind < argc ? argv[optind] : DEMO_SCENARIO_NAME;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "schedscope: the visualizer needs a terminal; "
				"`schedscope view` draws a frame without one\n");
		return 2;
	}
	if (session_load(&s, path, &o.s) || session_start(&s, path, &o.s))
		return 2;
	if (o.speed) {
		char cmd[64];
		snprintf(cmd, sizeof(cmd), "speed %.50s", o.speed);
		if (ui_command(&s.ui, cmd)) {
			fprintf(stderr, "schedscope: --%s\n", s.ui.message);
			session_close(&s);
			return 2;
		}
	}
	s.ui.paused = o.paused;
	rc = ui_run(&s.ui, o.s.commands, o.s.colors);
	session_close(&s);
	return rc;
}
