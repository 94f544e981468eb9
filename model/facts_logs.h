#pragma once
// Facts kept from plog, device and kernel logs (the log parsers issue fills these).
#include <vector>

#include "model/evidence.h"
#include "model/time.h"

namespace triage {

struct LogFacts {};

}  // namespace triage
