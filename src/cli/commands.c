/* commands.c - every command that is not a module, once: its options, its help and its run. */
#include "cli/commands.h"

#include <string.h>

#include "cli/actions.h"
#include "engine/module.h"
#include "util/nearest.h"

#define OPT(g) (1u << HMB_G_##g)

/* What a run (all, a module) takes. */
#define RUN_OPTIONS (OPT(DEVICE) | OPT(OUTPUT) | OPT(FORMAT) | OPT(SIZES) | OPT(REPS) |     \
		     OPT(WARMUP) | OPT(QUICK) | OPT(DRY_RUN) | OPT(CASE) | OPT(DEVICES) |    \
		     OPT(TOGETHER) |                                                         \
		     OPT(NO_ISOLATION) | OPT(RUNS) | OPT(PEAK_GBPS) | OPT(OVERSUBSCRIBE) |   \
		     OPT(WIDE))

const struct hmb_command hmb_commands[] = {
	{
		.name = "list",
		.kind = HMB_CMD_LIST,
		.synopsis = "list [--cases]",
		.usage = "hipmembench list [--cases]",
		.summary = "modules and what they measure",
		.text = "One line per module: its name and what it measures. With --cases, one "
			"line per case each module can record: the names --case matches.",
		.options = OPT(CASES),
		.run = hmb_run_list,
	},
	{
		.name = "info",
		.kind = HMB_CMD_INFO,
		.synopsis = "info",
		.usage = "hipmembench [-d N] [-o FILE] [-f table|json] [-n] info",
		.summary = "the device and what decides its memory behaviour",
		.text = "The host, the device, its PCIe link and the attributes that decide how "
			"memory moves (managed memory, pageable access, pools, VMM, XNACK), as a "
			"table or, with --output or --format json, as a JSON document without "
			"results.",
		.options = OPT(DEVICE) | OPT(OUTPUT) | OPT(FORMAT) | OPT(DRY_RUN) | OPT(PEAK_GBPS),
		.run = hmb_run_measure,
	},
	{
		.name = "all",
		.kind = HMB_CMD_ALL,
		.synopsis = "all",
		.usage = "hipmembench [options] all [module options]",
		.summary = "every module, each in a process of its own",
		.text = "Every module in turn, with the global options and the options of every "
			"module, each in a process of its own so that what one leaves behind in "
			"the runtime cannot change another's figures. The per-GPU modules run on "
			"--device (or on each GPU of --devices), node across every GPU. One JSON "
			"document holds all their results, the order the modules ran in and each "
			"one's wall time. On an AMD GPU that selects XNACK per process (gfx90a, "
			"gfx94x, gfx950) managed and xnack run twice, with HSA_XNACK=1 and =0 "
			"(params.hsa_xnack on each record, checked against the ROCm guide's "
			"table), unless HSA_XNACK is set: then once in that mode. --dry-run shows "
			"each run with its environment. Every module runs twice (--runs N: N "
			"times; --runs 1 or --quick: once), each run in a fresh process, the "
			"modules taken in turn and the round again, each run sampling half the "
			"time; a figure is stable only where the runs agree (docs/reading.md). "
			"The tables come once, after the last run. It ends with the summary of "
			"the headline figures (help summary), which the document keeps as its "
			"\"summary\".",
		.options = RUN_OPTIONS,
		.module_options = 1,
		.run = hmb_run_measure,
	},
	{
		.name = "help",
		.kind = HMB_CMD_HELP,
		.synopsis = "help [COMMAND]",
		.usage = "hipmembench help [COMMAND]",
		.summary = "this text, or a command's help",
		.text = "Help on hipmembench, or on one command or module.",
		.args = HMB_ARGS_COMMAND,
		.run = hmb_run_help,
	},
	{
		.name = "compare",
		.kind = HMB_CMD_COMPARE,
		.synopsis = "compare BASE OTHER...",
		.usage = "hipmembench compare [-f table|csv|markdown] [--threshold PCT] [--gpu N] "
			 "[--wide] [--allow-partial] BASE.json OTHER.json...",
		.summary = "figures of runs side by side, with ratios",
		.text = "Results are matched by module, case and the parameters that define the "
			"workload; the GPU index, parameters tuned to the machine, descriptive "
			"text and launch geometry are context, shown with --wide. Every figure of "
			"OTHER is shown beside BASE's, which way is better and by what factor. A "
			"document of several GPUs against one of a single GPU compares GPU 0 "
			"(--gpu N picks another). stderr says how many figures matched and why "
			"the rest did not; fewer than half of the base's matched exits 2 unless "
			"--allow-partial. --threshold PCT marks a figure WORSE when it moved the "
			"wrong way by more than PCT% and beyond its noise (p within "
			"Benjamini-Hochberg's bound for a false-discovery rate of 5% over the "
			"figures judged), and then exits 1. The noise is measured on the "
			"documents, never assumed: each figure's runs (a process each; all makes "
			"two), weighed against the figures alike in its document (the same case "
			"at the nearest sizes, and its module: how far their runs spread beyond "
			"what their own samples explain); where a document merges several "
			"(hipmembench merge), the spread between those documents, weighed the "
			"same way. Two documents of one machine weigh their runs together. A "
			"change is judged by Student's t over the degrees of freedom its noise "
			"has: a noise known from few runs judges with wide tails. One document a "
			"side sees how a figure moves from run to run, not how the machine moves "
			"between documents minutes apart: for a gate that sees that too, merge "
			"three documents a side. A figure of one run on both sides has no "
			"noise: '?', not judged. --wide adds each figure's noise and its degrees "
			"of freedom. --format csv or markdown prints "
			"the table in that format. A document is a regular file, or '-' for "
			"standard input (once); a FIFO or a device is refused, not waited on. The "
			"documents' summary comes first.",
		.options = OPT(FORMAT) | OPT(WIDE) | OPT(THRESHOLD) | OPT(GPU) | OPT(ALLOW_PARTIAL),
		.args = HMB_ARGS_DOCUMENTS,
		.same_document_twice = 1, /* a document against itself: its noise */
		.run = hmb_run_compare,
	},
	{
		.name = "show",
		.kind = HMB_CMD_SHOW,
		.synopsis = "show DOC",
		.usage = "hipmembench [-f table|csv] [--wide] show DOC.json",
		.summary = "the tables of a document, as its run printed them",
		.text = "The tables of a document's results, as the run that wrote it printed "
			"them on stdout (all prints its tables from the modules' documents in the "
			"same way), the node module's topology and peer matrices after its table, "
			"and, for a document of all, its summary; or with --format csv its CSV; "
			"--wide prints every record whole. A document that cannot be read is "
			"named, with what is wrong (exit 2).",
		.options = OPT(FORMAT) | OPT(WIDE),
		.args = HMB_ARGS_DOCUMENTS,
		.run = hmb_run_show,
	},
	{
		.name = "summary",
		.kind = HMB_CMD_SUMMARY,
		.synopsis = "summary DOC...",
		.usage = "hipmembench summary [-f table|markdown|html] [-o FILE] [--gpu N] "
			 "DOC.json...",
		.summary = "headline figures on one screen; a report",
		.text = "One screen (40 lines of 100 columns) of the headline figures: pinned, "
			"pageable and device copies, small-copy latency, overlap, managed memory, "
			"page faults, pools, VMM and, for several GPUs, aggregate host bandwidth, "
			"P2P and peer latency, each with its share of the physical peak where the "
			"document knows one and the tables' stability marks; then the anomalies: "
			"throttling, figures that do not repeat, and cases that failed or are "
			"unsupported, with their reason. Several documents: a column each, every "
			"value beside its ratio to the first's (above 1 better, whichever way the "
			"unit counts). A document of several GPUs gives GPU 0's figures (--gpu N "
			"picks another). -f markdown prints it as Markdown; -f html writes one "
			"self-contained HTML report with the summary (each ratio with compare's "
			"verdict on its figure at 5%: green better, red WORSE, else its word), "
			"charts of each module's headline and of its figures against size, and the "
			"systems side by side. -o FILE writes it to FILE "
			"whole (a temporary file renamed over it). all ends with the same summary.",
		.options = OPT(FORMAT) | OPT(OUTPUT) | OPT(GPU),
		.args = HMB_ARGS_DOCUMENTS,
		.same_document_twice = 1, /* a column each, numbered: NAME, NAME#2 */
		.run = hmb_run_summary,
	},
	{
		.name = "merge",
		.kind = HMB_CMD_MERGE,
		.synopsis = "merge DOC... -o OUT",
		.usage = "hipmembench merge -o OUT.json DOC.json DOC.json...",
		.summary = "one document of the runs of several, made alike",
		.text = "One document of the runs of several documents of one machine and one "
			"build, made alike (replicates, back to back or across days): each result "
			"keeps every run of every document, each tagged with its document "
			"(runs.documents), and its noise is then measured over the documents too: "
			"how far they spread beyond what their runs say, which no single document "
			"can see. compare, show and summary read it like any other; for a gate, "
			"compare a merge of three documents a side. Documents of another build, "
			"schema, command, machine or settings (but the number of runs) are "
			"refused, naming the difference; so is a document given twice. -o FILE "
			"(required; '-' for stdout) is written whole (a temporary file renamed over "
			"it).",
		.options = OPT(OUTPUT),
		.args = HMB_ARGS_DOCUMENTS,
		.run = hmb_run_merge,
	},
	{ .name = NULL },
};

/* Its name, usage and help are the module's own (struct hmb_bench). */
const struct hmb_command hmb_module_command = {
	.kind = HMB_CMD_MODULE,
	.options = RUN_OPTIONS,
	.module_options = 1,
	.run = hmb_run_measure,
};

const struct hmb_command *hmb_command_find(const char *name)
{
	for (const struct hmb_command *cmd = hmb_commands; cmd->name; cmd++)
		if (strcmp(cmd->name, name) == 0)
			return cmd;
	return NULL;
}

const char *hmb_command_nearest(const char *name, const struct hmb_bench *const *benches,
				char *buf, size_t len)
{
	struct hmb_nearest near;

	hmb_nearest_start(&near, name);
	for (const struct hmb_command *cmd = hmb_commands; cmd->name; cmd++)
		hmb_nearest_offer(&near, cmd->name);
	for (int i = 0; benches[i]; i++)
		hmb_nearest_offer(&near, benches[i]->name);
	return hmb_nearest_text(&near, "", buf, len);
}
