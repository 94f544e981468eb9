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

}  // namespace triage
