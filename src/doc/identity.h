/* identity.h - the roles of older documents' parameters, and case names (identity.c). */
#ifndef HMB_IDENTITY_H
#define HMB_IDENTITY_H

struct hmb_record;
/* Give the parameters of r, a result of a document written before results
 * declared their roles, the roles such documents meant (identity.c's one
 * table): the GPU it ran on, other context, else identity. */
void hmb_identity_legacy_roles(struct hmb_record *r);
/* The case names text as one of its /-separated parts ("h2d" of h2d/pinned/async). */
int hmb_case_names(const char *kase, const char *text);

#endif
