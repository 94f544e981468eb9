#pragma once
// Storm folding across the files of one process (issue 35). A plog entry keeps
// kPlogKeptPerTemplate lines of a template and kKeptPerCode facts of a code group, so a
// process whose log rotated over many files kept that many per file: the facts, and the
// timeline built from them, grew with the number of files. Once every entry is read and the
// copies are dropped (a run/ and debug/ copy of one line then counts once), the same limits
// apply per process: the earliest facts of a group are kept, the later ones are counted on
// the last kept one (FoldedRepeats), as within one file. The answer does not depend on the
// order the entries were read in: the facts are taken by time, then by entry and line.
#include "model/facts_logs.h"

namespace triage {

// Signature hits of plog lines by (signature, pid, captured values without their digits); error-code facts by
// (code, form, module, pid, device). Keeps the vectors' order otherwise.
void fold_plog_facts_per_process(LogFacts& logs);

// The same fold while the bundle is read, at the end of a plog entry, per directory and
// process (issue 35: the files of one process each kept their own limit until the end, so
// the facts grew with the number of files, 140,000 hits for 1 GiB of real plog). The files
// of one directory are the rotations of one log: they share no line. A copy of a line in
// another directory (run/ and debug/) stays apart until finalize drops copies, as before.
// Kept facts are the earliest of their group, so this fold and the one above give the facts
// the one above gives alone, whenever and however often it runs: a fact among the earliest
// of a process is among the earliest of its directory. Plog times are local here, UTC after
// finalize; one process's lines share a zone, so both order them alike.
void fold_plog_facts_per_directory(LogFacts& logs);

}  // namespace triage
