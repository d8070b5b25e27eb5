/* documents.c - the documents of one command line, checked together (documents.h). */
#include "cli/documents.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "util/text.h"

static int refuse(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	hmb_utf8_trim(err);
	return -1;
}

/* a and b name one file: the same text, or the same file under two names
 * (./a.json, a link); a name that is not there is no file yet. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (strcmp(a, b) == 0)
		return 1;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int hmb_documents_check(const struct hmb_command *cmd, const char *command, char **docs,
			int n, const char *output, char *err, size_t errlen)
{
	int stdin_seen = 0;

	for (int i = 0; i < n; i++) {
		if (strcmp(docs[i], "-") == 0) {
			if (stdin_seen++)
				return refuse(err, errlen, "%s: '-' (standard input) can be given once",
					      command);
			continue;
		}
		if (output && strcmp(output, "-") != 0 && same_file(output, docs[i]))
			return refuse(err, errlen, "%s: --output %s is also a document it reads: it "
				      "would be written over", command, hmb_shown(output));
		for (int j = 0; j < i && !cmd->same_document_twice; j++) {
			if (strcmp(docs[j], "-") == 0 || !same_file(docs[j], docs[i]))
				continue;
			if (strcmp(docs[j], docs[i]) == 0)
				return refuse(err, errlen, "%s: %s is given twice: give it once",
					      command, hmb_shown(docs[i]));
			return refuse(err, errlen, "%s: %s and %s are the same document: give it "
				      "once", command, hmb_shown(docs[j]), hmb_shown(docs[i]));
		}
	}
	return 0;
}
