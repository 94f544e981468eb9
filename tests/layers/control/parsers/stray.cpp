// Violation 3: a file in parsers/ but in no family is in no stage.
#include "model/time.h"
