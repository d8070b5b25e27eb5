/* help.c - every help text; lines are wrapped to stay within 80 columns. */
#include "cli/help.h"

#include <string.h>

#include "cli/cli.h"
#include "compare/noise.h"
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

static const struct {
	const char *name, *left, *usage, *summary, *text;
} builtins[] = {
	{ "list", "list [--cases]", "hipmembench list [--cases]", "modules and what they measure",
	  "One line per module: its name and what it measures. With --cases, one line per "
	  "case each module can record: the names --case matches." },
	{ "info", "info", "hipmembench [-d N] [-o FILE] [-f table|json] [-n] info",
	  "the device and what decides its memory behaviour",
	  "The host, the device, its PCIe link and the attributes that decide how memory "
	  "moves (managed memory, pageable access, pools, VMM, XNACK), as a table or, with "
	  "--output or --format json, as a JSON document without results." },
	{ "all", "all", "hipmembench [options] all [module options]",
	  "every module, each in a process of its own",
	  "Every module in turn, with the global options and the options of every "
	  "module, each in a process of its own so that what one leaves behind in the "
	  "runtime cannot change another's figures. The per-GPU modules run on --device "
	  "(or on each GPU of --devices), node across every GPU. One JSON document holds "
	  "all their results, the order the modules ran in and each one's wall time. On an "
	  "AMD GPU that selects XNACK per process (gfx90a, gfx94x, gfx950) managed and xnack "
	  "run twice, with HSA_XNACK=1 and =0 (params.hsa_xnack on each record, checked "
	  "against the ROCm guide's table), unless HSA_XNACK is set: then once in that mode. "
	  "--dry-run shows each run with its environment. --runs N runs each module N "
	  "times, each in a fresh process, one after the other, and prints its table once. "
	  "It ends with the summary of the headline figures (help summary), which the "
	  "document keeps as its \"summary\"." },
	{ "help", "help [COMMAND]", "hipmembench help [COMMAND]",
	  "this text, or a command's help", "Help on hipmembench, or on one command or module." },
	{ "compare", "compare BASE OTHER...",
	  "hipmembench compare [-f table|csv|markdown] [--threshold PCT] [--gpu N] [--wide] "
	  "[--allow-partial] BASE.json OTHER.json...",
	  "figures of runs side by side, with ratios",
	  "Results are matched by module, case and the parameters that define the workload; "
	  "the GPU index, parameters tuned to the machine, descriptive text and launch "
	  "geometry are context, shown with --wide. Every figure of OTHER is shown beside "
	  "BASE's, which way is better and by what factor. A document of several GPUs "
	  "against one of a single GPU compares GPU 0 (--gpu N picks another). stderr says "
	  "how many figures matched and why the rest did not; fewer than half of the base's "
	  "matched exits 2 unless --allow-partial. --threshold PCT marks a figure WORSE when "
	  "it moved the wrong way by more than PCT% and beyond its run-to-run noise (p < "
	  "0.01), and then exits 1. The noise: where both documents hold several runs "
	  "(--runs), the spread of the runs' figures (Welch's t-test on their logarithms); "
	  "else the floor of the figure's family below, with its median's interval. For a "
	  "reliable gate, make both documents with --runs 3. --wide adds the noise of each "
	  "figure. --format csv or markdown prints the table in that "
	  "format. A document is a regular file, or '-' for standard input (once); a FIFO "
	  "or a device is refused, not waited on. The documents' summary comes first." },
	{ "show", "show DOC", "hipmembench [-f table|csv] [--wide] show DOC.json",
	  "the tables of a document, as its run printed them",
	  "The tables of a document's results, as the run that wrote it printed them on "
	  "stdout (all prints its tables from the modules' documents in the same way; the "
	  "node module's topology and matrices aside), or "
	  "with --format csv its CSV; --wide prints every record whole. A document that "
	  "cannot be read is named, with what is wrong (exit 2)." },
	{ "summary", "summary DOC...",
	  "hipmembench summary [-f table|markdown|html] [-o FILE] [--gpu N] DOC.json...",
	  "headline figures on one screen; a report",
	  "One screen (40 lines of 100 columns) of the headline figures: pinned, pageable and "
	  "device copies, small-copy latency, overlap, managed memory, page faults, pools, VMM "
	  "and, for several GPUs, aggregate host bandwidth, P2P and peer latency, each with its "
	  "share of the physical peak where the document knows one and the tables' stability "
	  "marks; then the anomalies: throttling, figures that do not repeat, and cases that "
	  "failed or are unsupported, with their reason. Several documents: a column each, "
	  "every value beside its ratio to the first's (above 1 better, whichever way the unit "
	  "counts). A document of several GPUs gives GPU 0's figures (--gpu N picks another). "
	  "-f markdown prints it as Markdown; -f html writes one self-contained HTML report "
	  "with the summary, a plot per case measured at several sizes and the systems side by "
	  "side. -o FILE writes it to FILE whole (a temporary file renamed over it). all ends "
	  "with the same summary." },
};

static const char *const global_options[][2] = {
	{ "-d, --device N", "GPU ordinal (default 0)" },
	{ "-o, --output FILE", "write the JSON document to FILE, a regular file, or to "
			       "stdout with '-'; rewritten as the run goes, so nothing "
			       "measured is lost (each time whole: FILE.tmp.PID.XXXXXX "
			       "renamed over it, keeping its mode); summary: the summary" },
	{ "-f, --format F", "stdout: table (default), json or csv; markdown for compare and "
			    "summary; html for summary" },
	{ "-s, --sizes LIST", "sizes, e.g. 4K,64M,1G or ranges 4K:1G:x4, 1M:8M:+1M; "
			      "multiples of 4 bytes up to 64T, at most 64 of them" },
	{ "-r, --reps N", "timed repetitions per case (1 to 1000000)" },
	{ "-w, --warmup N", "untimed repetitions first (0 to 1000000)" },
	{ "-q, --quick", "small sizes, few repetitions: a smoke run" },
	{ "-n, --dry-run", "check the command line, list what would run and write the "
			   "document without opening a GPU (checks a batch job's settings)" },
	{ "-c, --case PATTERN", "only cases whose name matches the shell pattern, e.g. "
				"'h2d/pinned/*' (repeatable; `list --cases` names them and "
				"marks on-request cases, which run only for a pattern that selects "
				"no other case; a pattern that matches none is refused)" },
	{ "--devices all|LIST", "all or a module on each GPU of LIST in turn (all: every "
				"visible GPU), each in a process of its own; records carry "
				"their device" },
	{ "--no-isolation", "all: every module in this one process (for debugging; "
			    "modules may then change each other's figures)" },
	{ "--runs N", "all and the modules: each module N times (1 to 100), each in a "
		      "process of its own; a result keeps every run's median beside the "
		      "pooled samples, so that compare judges a change against how much a "
		      "figure moves from run to run (--runs 3 on both sides for a gate)" },
	{ "--peak-gbps X", "the host link's peak per direction in GB/s, where it is not "
			   "PCIe (Infinity Fabric, NVLink-C2C) or cannot be read" },
	{ "--oversubscribe F", "managed, xnack and all: allow managed memory up to F x "
			       "free device memory. Off by default: oversubscribing can make "
			       "a shared GPU unresponsive for everyone on it." },
	{ "--threshold PCT", "compare: exit 1 when a figure is worse by more than PCT%" },
	{ "--gpu N", "compare, summary: GPU N of a document of several GPUs (default 0)" },
	{ "--wide", "tables (a run, show) and compare: every figure with every parameter, "
		    "context too, one line each, unwrapped (the default fits 120 columns)" },
	{ "--allow-partial", "compare: go on when fewer than half of the base's figures match" },
	{ "-h, --help", "help (after a command: that command's help)" },
	{ "-V, --version", "version" },
};

static void global_help(FILE *out, const struct hmb_bench *const *benches)
{
	fputs("usage: hipmembench [options] <command> [module options]\n\n", out);
	wrap(out, 0, 0, "Measures how memory moves between host and GPU through the HIP "
	     "runtime; every figure can be written as JSON (--output).");
	fputs("\ncommands:\n", out);
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		item(out, builtins[i].left, builtins[i].summary);
	for (int i = 0; benches[i]; i++)
		item(out, benches[i]->name, benches[i]->summary);
	fputs("\noptions:\n", out);
	for (size_t i = 0; i < sizeof(global_options) / sizeof(global_options[0]); i++)
		item(out, global_options[i][0], global_options[i][1]);
	fputc('\n', out);
	wrap(out, 0, 0, "Options go before or after the command; a long option may be "
	     "shortened to a unique prefix; an option given twice counts with its last value.");
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
	if (!topic) {
		global_help(out, benches);
		return 0;
	}
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(topic, builtins[i].name) == 0) {
			fputs("usage: ", out);
			wrap(out, 7, 12, builtins[i].usage);
			fputc('\n', out);
			wrap(out, 0, 0, builtins[i].text);
			if (strcmp(topic, "all") == 0 || strcmp(topic, "info") == 0)
				fputs("\nglobal options: see hipmembench --help\n", out);
			if (strcmp(topic, "compare") == 0) {
				fputc('\n', out);
				hmb_noise_print_floors(out);
			}
			return 0;
		}
	for (int i = 0; benches[i]; i++)
		if (strcmp(topic, benches[i]->name) == 0) {
			bench_help(out, benches[i]);
			return 0;
		}
	return -1;
}
