/* runs.h - --runs N: one record per result over N runs of a module (runs.c). */
#ifndef HMB_RUNS_H
#define HMB_RUNS_H

#include "engine/report.h"

/* The records after `last` are run `number` (1, 2, ...) of the module run
 * whose records so far follow `before` (NULL: the report's first) up to
 * `last`: the first run's records begin their run figures; a later run's
 * are merged into their partners and freed (those without one are kept). */
void hmb_runs_merge(struct hmb_report *rep, struct hmb_record *before, struct hmb_record *last,
		    int number);

/* merge: the records after `last` are those of the document numbered doc
 * (the documents before it numbered 0 to doc - 1; one that merges several
 * numbers its own from doc on); each is merged into the record of its
 * identity the earlier documents hold (its runs appended, tagged with their
 * document: runs.documents), or kept where they hold none. last NULL: the
 * report's records are the first document's. */
void hmb_runs_merge_document(struct hmb_report *rep, struct hmb_record *last, int doc);

#endif
