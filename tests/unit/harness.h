/* harness.h - a minimal test harness: CHECK records a failure and goes on. */
#ifndef HMB_TEST_HARNESS_H
#define HMB_TEST_HARNESS_H

#include <stdio.h>

extern int hmb_test_failed_checks;

#define CHECK(cond)                                                             \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "    check failed: %s (%s:%d)\n", #cond,  \
				__FILE__, __LINE__);                            \
			hmb_test_failed_checks++;                               \
		}                                                               \
	} while (0)

#define CHECK_NEAR(a, b, tol) CHECK(((a) - (b)) < (tol) && ((b) - (a)) < (tol))

/* Tests in other files of this folder, listed in test_main.c */
void hmb_test_significance(void);
void hmb_test_stability_interval(void);
void hmb_test_stability_shape(void);
void hmb_test_neighbours(void);
void hmb_test_table(void);
void hmb_test_progress_and_csv(void);
void hmb_test_runs_merge(void);
void hmb_test_runs_resolution(void);
void hmb_test_runs_merge_documents(void);
void hmb_test_resolution(void);
void hmb_test_runs_rejudged(void);
/* A scratch folder and everything in it removed (tree.c). */
void hmb_test_remove_tree(const char *root);
void hmb_test_runs_interleaved(void);
void hmb_test_numfmt(void);
void hmb_test_text(void);
void hmb_test_nearest(void);
void hmb_test_svg_wrap(void);
int hmb_test_write_runs_json(const char *path);

#endif
