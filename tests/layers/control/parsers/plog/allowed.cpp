// No violation: plog may include kernel (stages.tsv says why), and anything below.
#include "parsers/kernel/kernel_line.h"
#include "knowledge/knowledge.h"
#include "bundle/line_reader.h"
