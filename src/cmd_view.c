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

int cmd_view(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "at", required_argument, NULL, 'a' },
		{ "size", required_argument, NULL, 'S' },
		{ "view", required_argument, NULL, 'v' },
		{ "format", required_argument, NULL, 'F' },
		{ "select", required_argument, NULL, 'l' },
		{ "colors", required_argument, NULL, 'c' },
		{ "commands", required_argument, NULL, 'C' },
		{ "seed", required_argument, NULL, 's' },
		{ "param", required_argument, NULL, 'm' },
		{ "set", required_argument, NULL, 'e' },
		{ "vs", required_argument, NULL, 'V' },
		{ "vs-set", required_argument, NULL, 'W' },
		{ "history-budget", required_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_sets sets = { 0 };
	struct variant vs = { 0 };
	size_t budget = HISTORY_DEFAULT_BUDGET;
	const char *view = NULL, *format = "text", *select = NULL, *commands = NULL;
	u64 at = 0;
	int w = 120, h = 40, colors = 256, c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (parse_duration(optarg, strlen(optarg), &at) != PARSE_OK)
				return cli_usage_error("--at: '%s' is not a duration (e.g. 2.5s)", optarg);
			break;
		case 'S': {
			char *x;
			long ww = strtol(optarg, &x, 10), hh = 0;
			if (*x == 'x')
				hh = strtol(x + 1, &x, 10);
			if (*x || ww < 1 || hh < 1 || ww > 1000 || hh > 1000)
				return cli_usage_error("--size: '%s' is not WxH (e.g. 120x40)", optarg);
			w = (int)ww;
			h = (int)hh;
			break;
		}
		case 'v':
			view = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "text") && strcmp(optarg, "ansi") && strcmp(optarg, "html"))
				return cli_usage_error("--format: '%s' is not text, ansi or html", optarg);
			format = optarg;
			break;
		case 'l':
			if (strncmp(optarg, "task=", 5) && strncmp(optarg, "cpu=", 4))
				return cli_usage_error("--select: '%s' is not task=NAME or cpu=N", optarg);
			select = optarg;
			break;
		case 'c':
			if (parse_colors(optarg, &colors))
				return 2;
			break;
		case 'C':
			commands = optarg;
			break;
		case 's':
		case 'e':
			if (cli_add_set(&sets, optarg, c == 's'))
				return 2;
			break;
		case 'm':
			if (cli_add_param(&sets, optarg))
				return 2;
			break;
		case 'V':
		case 'W':
			if (cli_add_variant(&vs, optarg, c == 'V'))
				return 2;
			break;
		case 'H':
			if (cli_history_budget(optarg, &budget))
				return 2;
			break;
		default:
			return cli_usage_error("view: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("view: expected one SCENARIO file");

	struct scenario_file f, fb;
	struct ui ui;
	char err[512], cmd[300];
	int rc = 0;
	bool split;

	if (cli_load_scenario_sets(argv[optind], &sets, &f))
		return 2;
	split = variant_choose(&vs, &f);
	if (at > f.sc.duration) {
		scenario_free(&f);
		return cli_usage_error("--at: past the end of the run");
	}
	if (ui_setup(&ui, &f, budget, err, sizeof(err))) {
		fprintf(stderr, "schedscope: %s: %s\n", argv[optind], err);
		scenario_free(&f);
		return 2;
	}
	ui.colors = !strcmp(format, "text") ? 0 : colors;
	ui.paused = true;
	if (split && open_vs(&ui, argv[optind], &sets, &vs, &f, &fb)) {
		ui_teardown(&ui);
		scenario_free(&f);
		return 2;
	}
	history_run_until(ui.run.h, at);
	ui_split_sync(&ui);
	if (view) {
		snprintf(cmd, sizeof(cmd), "view %s", view);
		if (ui_command(&ui, cmd))
			goto fail;
	}
	if (select) {
		char *eq = strchr(select, '=');
		snprintf(cmd, sizeof(cmd), "select %.*s %s", (int)(eq - select), select, eq + 1);
		if (ui_command(&ui, cmd))
			goto fail;
	}
	if (commands && ui_command_file(&ui, commands))
		goto fail;
	/* a trace the commands asked for, written before the frame */
	if (ui.trace) {
		ui_trace_finish(&ui);
		if (ui.message_is_error)
			goto fail;
	}
	ui.message[0] = 0;

	struct cellbuf cb;
	if (cb_init(&cb, w, h)) {
		fprintf(stderr, "schedscope: out of memory\n");
		rc = 2;
		goto out;
	}
	ui_draw_frame(&ui, &cb);
	if (!strcmp(format, "ansi"))
		cb_write_ansi(&cb, stdout, colors);
	else if (!strcmp(format, "html"))
		cb_write_html(&cb, stdout);
	else
		cb_write_text(&cb, stdout);
	cb_free(&cb);
	goto out;
fail:
	fprintf(stderr, "schedscope: %s\n", ui.message);
	rc = 2;
out:
	ui_teardown(&ui);
	if (split)
		scenario_free(&fb);
	scenario_free(&f);
	return rc;
}

int cmd_ui(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "commands", required_argument, NULL, 'C' },
		{ "colors", required_argument, NULL, 'c' },
		{ "speed", required_argument, NULL, 'p' },
		{ "paused", no_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 's' },
		{ "param", required_argument, NULL, 'm' },
		{ "set", required_argument, NULL, 'e' },
		{ "vs", required_argument, NULL, 'V' },
		{ "vs-set", required_argument, NULL, 'W' },
		{ "history-budget", required_argument, NULL, 'H' },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_sets sets = { 0 };
	struct variant vs = { 0 };
	size_t budget = HISTORY_DEFAULT_BUDGET;
	const char *commands = NULL, *speed = NULL;
	int colors = -1, c;
	bool paused = false;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			if (access(optarg, R_OK))
				return cli_usage_error("--commands: cannot read '%s'", optarg);
			commands = optarg;
			break;
		case 'c':
			if (parse_colors(optarg, &colors))
				return 2;
			break;
		case 'p':
			speed = optarg;
			break;
		case 'P':
			paused = true;
			break;
		case 's':
		case 'e':
			if (cli_add_set(&sets, optarg, c == 's'))
				return 2;
			break;
		case 'm':
			if (cli_add_param(&sets, optarg))
				return 2;
			break;
		case 'V':
		case 'W':
			if (cli_add_variant(&vs, optarg, c == 'V'))
				return 2;
			break;
		case 'H':
			if (cli_history_budget(optarg, &budget))
				return 2;
			break;
		default:
			return cli_usage_error("ui: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc - 1)
		return cli_usage_error("ui: expected at most one SCENARIO file");
	const char *path = optind < argc ? argv[optind] : DEMO_SCENARIO_NAME;

	struct scenario_file f, fb;
	struct ui ui;
	char err[512];
	bool split;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "schedscope: the visualizer needs a terminal; "
				"`schedscope view` draws a frame without one\n");
		return 2;
	}
	if (cli_load_scenario_sets(path, &sets, &f))
		return 2;
	split = variant_choose(&vs, &f);
	if (ui_setup(&ui, &f, budget, err, sizeof(err))) {
		fprintf(stderr, "schedscope: %s: %s\n", path, err);
		scenario_free(&f);
		return 2;
	}
	if (split && open_vs(&ui, path, &sets, &vs, &f, &fb)) {
		ui_teardown(&ui);
		scenario_free(&f);
		return 2;
	}
	if (speed) {
		char cmd[64];
		snprintf(cmd, sizeof(cmd), "speed %.50s", speed);
		if (ui_command(&ui, cmd)) {
			fprintf(stderr, "schedscope: --%s\n", ui.message);
			ui_teardown(&ui);
			if (split)
				scenario_free(&fb);
			scenario_free(&f);
			return 2;
		}
	}
	ui.paused = paused;
	int rc = ui_run(&ui, commands, colors);
	ui_teardown(&ui);
	if (split)
		scenario_free(&fb);
	scenario_free(&f);
	return rc;
}
