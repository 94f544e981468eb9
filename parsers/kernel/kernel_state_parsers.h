#pragma once
// Kernel state (contract: system/devices.txt, kernel/tainted, kernel/secure-boot.txt).
// Facts go to BundleFacts::modules beside the module facts they qualify.
#include "parsers/common/parser.h"

namespace triage {

void parse_devices_txt(ParseContext& ctx, ByteSource& src);
void parse_tainted(ParseContext& ctx, ByteSource& src);
void parse_secure_boot(ParseContext& ctx, ByteSource& src);

}  // namespace triage
