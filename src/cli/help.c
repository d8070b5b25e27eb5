/* help.c - the help, printed from the tables of commands, global options and modules;
 * lines are wrapped to stay within 80 columns. */
#include "cli/help.h"

#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "engine/module.h"

#define WIDTH 79   /* the last column a help line may use */
#define LEFT 22    /* where an item's description starts */

/* Print text from column col on; a line of it that would pass WIDTH is
 * broken between words, continuation lines start at column indent. Ends the
 * line. */
static void wrap(FILE *out, int col, int indent, const char *text)
{
	for (const char *line = text;;) {
		size_t len = strcspn(line, "\n");
		if (col + (int)len <= WIDTH) {
			fwrite(line, 1, len, out);
		} else {
			for (const char *p = line, *end = line + len; p < end;) {
				size_t word = strcspn(p, " \n");
				if (col > indent && col + 1 + (int)word > WIDTH) {
					fprintf(out, "\n%*s", indent, "");
					col = indent;
				} else if (p > line) {
					fputc(' ', out);
					col++;
				}
				fwrite(p, 1, word, out);
				col += (int)word;
				p += word;
				while (p < end && *p == ' ')
					p++;
			}
		}
		if (!line[len])
			break;
		fprintf(out, "\n%*s", indent, "");
		col = indent;
		line += len + 1;
	}
	fputc('\n', out);
}

/* "  LEFT   description", the description wrapped at column LEFT. */
static void item(FILE *out, const char *left, const char *text)
{
	int col = fprintf(out, "  %s", left);

	if (col + 1 > LEFT) {
		fputc('\n', out);
		col = 0;
	}
	fprintf(out, "%*s", LEFT - col, "");
	wrap(out, LEFT, LEFT, text);
}

/* "-d, --device N", "--wide": how the help shows a global option. */
static const char *option_synopsis(const struct hmb_global_option *g, char *out, size_t len)
{
	int used = g->short_name ? snprintf(out, len, "-%c, ", g->short_name) : 0;

	snprintf(out + used, len - (size_t)used, "--%s%s%s", g->name, g->value ? " " : "",
		 g->value ? g->value : "");
	return out;
}

static void global_help(FILE *out, const struct hmb_bench *const *benches)
{
	fputs("usage: hipmembench [options] <command> [module options]\n\n", out);
	wrap(out, 0, 0, "Measures how memory moves between host and GPU through the HIP "
	     "runtime; every figure can be written as JSON (--output).");
	fputs("\ncommands:\n", out);
	for (const struct hmb_command *cmd = hmb_commands; cmd->name; cmd++)
		item(out, cmd->synopsis, cmd->summary);
	for (int i = 0; benches[i]; i++)
		item(out, benches[i]->name, benches[i]->summary);
	fputs("\noptions:\n", out);
	for (int g = 0; g < HMB_G_COUNT; g++) {
		char synopsis[64];
		if (hmb_global_options[g].help)
			item(out, option_synopsis(&hmb_global_options[g], synopsis, sizeof(synopsis)),
			     hmb_global_options[g].help);
	}
	fputc('\n', out);
	wrap(out, 0, 0, "Options go before or after the command; a long option may be "
	     "shortened to a unique prefix; an option given twice must have the same value "
	     "both times, but for one that says it is repeatable.");
	fputc('\n', out);
	wrap(out, 0, 0, "exit status: 0 ok, 1 a measurement failed, 2 usage error, 3 no usable "
	     "GPU, 130/143 interrupted (results so far are written).");
}

static void bench_help(FILE *out, const struct hmb_bench *b)
{
	fprintf(out, "usage: hipmembench [options] %s [module options]\n\n", b->name);
	wrap(out, 0, 0, b->summary);
	if (b->help) {
		fputc('\n', out);
		wrap(out, 0, 0, b->help);
	}
	if (b->options && b->options[0].name) {
		fputs("\nmodule options:\n", out);
		for (const struct hmb_opt_decl *d = b->options; d->name; d++) {
			char left[64];
			snprintf(left, sizeof(left), "--%s%s%s", d->name, d->arg ? " " : "",
				 d->arg ? d->arg : "");
			item(out, left, d->help);
		}
	}
	fputs("\nglobal options: see hipmembench --help\n", out);
}

int hmb_help_print(FILE *out, const char *topic, const struct hmb_bench *const *benches)
{
	const struct hmb_command *cmd;

	if (!topic) {
		global_help(out, benches);
		return 0;
	}
	if ((cmd = hmb_command_find(topic))) {
		fputs("usage: ", out);
		wrap(out, 7, 12, cmd->usage);
		fputc('\n', out);
		wrap(out, 0, 0, cmd->text);
		if (cmd->kind == HMB_CMD_ALL || cmd->kind == HMB_CMD_INFO)
			fputs("\nglobal options: see hipmembench --help\n", out);
		return 0;
	}
	for (int i = 0; benches[i]; i++)
		if (strcmp(topic, benches[i]->name) == 0) {
			bench_help(out, benches[i]);
			return 0;
		}
	return -1;
}
