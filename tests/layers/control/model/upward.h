// Violation 1: model/ (layer 0) includes reports/ (layer 6): an arrow running up.
#pragma once
#include "reports/render.h"
