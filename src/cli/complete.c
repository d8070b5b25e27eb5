/* complete.c - the commands and options, as the shell's completion reads them (complete.h). */
#include "cli/complete.h"

#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/module.h"
#include "util/text.h"

static const char *const args_names[] = {
	[HMB_ARGS_NONE] = "-", [HMB_ARGS_COMMAND] = "command", [HMB_ARGS_DOCUMENTS] = "documents",
};

/* The values of a global option that the binary knows: formats, --together's
 * words, case names (of bench, or of every module where bench is NULL). */
static void global_choices(FILE *out, int g, const struct hmb_bench *bench,
			   const struct hmb_bench *const *benches)
{
	if (g == HMB_G_FORMAT)
		for (int f = 0; f <= HMB_FORMAT_HTML; f++)
			if (hmb_format_names[f])
				fprintf(out, " %s", hmb_format_names[f]);
	if (g == HMB_G_TOGETHER)
		for (int t = 0; t < HMB_TOGETHER_MODES; t++)
			fprintf(out, " %s", hmb_together_name((enum hmb_together)t));
	if (g != HMB_G_CASE)
		return;
	for (int i = 0; benches[i]; i++)
		for (int k = 0; (!bench || benches[i] == bench) && benches[i]->cases &&
				benches[i]->cases[k]; k++)
			fprintf(out, " %s", benches[i]->cases[k]);
}

/* Each module option of these modules once (as the parser reads them). */
static void module_options(FILE *out, const struct hmb_bench *bench,
			   const struct hmb_bench *const *benches)
{
	for (int i = 0; benches[i]; i++)
		for (const struct hmb_opt_decl *d = benches[i]->options; d && d->name; d++) {
			int seen = 0;
			if (bench && benches[i] != bench)
				continue;
			for (int j = 0; j < i && !seen; j++)
				for (const struct hmb_opt_decl *e = benches[j]->options; e && e->name; e++)
					seen |= strcmp(e->name, d->name) == 0;
			if (!seen)
				fprintf(out, "option --%s - %s\n", d->name,
					d->type == HMB_OPT_FLAG || !d->arg ? "-" : d->arg);
		}
}

int hmb_complete_print(FILE *out, int argc, char **argv, const struct hmb_bench *const *benches)
{
	const struct hmb_command *cmd = argc > 0 ? hmb_command_find(argv[0]) : NULL;
	const struct hmb_bench *bench = NULL;
	unsigned options = ~0u;

	if (argc > 1) {
		fprintf(stderr, "hipmembench: %s takes at most one command\n", HMB_COMPLETE_CMD);
		return 2;
	}
	for (int i = 0; argc > 0 && !cmd && benches[i]; i++)
		if (strcmp(benches[i]->name, argv[0]) == 0) {
			bench = benches[i];
			cmd = &hmb_module_command;
		}
	if (argc > 0 && !cmd) {
		char near[256];
		fprintf(stderr, "hipmembench: %s: unknown command '%s'; nearest: %s\n",
			HMB_COMPLETE_CMD, hmb_shown(argv[0]),
			hmb_command_nearest(argv[0], benches, near, sizeof(near)));
		return 2;
	}
	if (cmd)
		options = cmd->options | 1u << HMB_G_HELP;
	for (const struct hmb_command *c = hmb_commands; c->name; c++)
		fprintf(out, "command %s %s\n", c->name, args_names[c->args]);
	for (int i = 0; benches[i]; i++)
		fprintf(out, "command %s %s\n", benches[i]->name, args_names[hmb_module_command.args]);
	for (int g = 0; g < HMB_G_COUNT; g++) {
		const struct hmb_global_option *o = &hmb_global_options[g];
		if (!(options & 1u << g))
			continue;
		fprintf(out, "option --%s ", o->name);
		if (o->short_name)
			fprintf(out, "-%c ", o->short_name);
		else
			fputs("- ", out);
		fputs(o->value ? o->value : "-", out);
		global_choices(out, g, bench, benches);
		fputc('\n', out);
	}
	if (!cmd || cmd->module_options)
		module_options(out, bench, benches);
	return 0;
}
