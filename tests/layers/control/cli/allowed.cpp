// No violation: the top stage includes any stage below.
#include "ingest/load.h"
#include "reports/render.h"
