// Violation 2: a parser family includes another family that stages.tsv does not list.
#include "parsers/tools/npu_smi_parsers.h"
#include "parsers/common/tsv.h"  // allowed: common is below the families
