/*
 * vmm_importer.h - the vmm module's importer process as the rest of the
 * binary sees it: the one name of the module, besides its entry
 * (hmb_bench_vmm), that a file outside bench/vmm/ uses (src/cli/main.c).
 */
#ifndef HMB_BENCH_VMM_IMPORTER_H
#define HMB_BENCH_VMM_IMPORTER_H

/* `BINARY __vmm-importer`: the process that the vmm module's share cases
 * start to import their memory (bench/vmm/vmm_share.c), told its socket by the
 * environment. Run by hand, it refuses: one line, exit 2. */
#define HMB_VMM_IMPORTER_CMD "__vmm-importer"
int hmb_vmm_importer_main(int argc, char **argv);

#endif
