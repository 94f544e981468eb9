#pragma once
// ascend/hccn-<query>-<logic id>.txt: hccn_tool -i N <query> -g answers (link, net_health,
// ip, optical, link_stat, stat). Facts go to BundleFacts::network.hccn (model/facts_network.h).
#include "parsers/common/parser.h"

namespace triage {

void parse_hccn_link(ParseContext& ctx, ByteSource& src);
void parse_hccn_net_health(ParseContext& ctx, ByteSource& src);
void parse_hccn_ip(ParseContext& ctx, ByteSource& src);
void parse_hccn_optical(ParseContext& ctx, ByteSource& src);
void parse_hccn_link_stat(ParseContext& ctx, ByteSource& src);
void parse_hccn_stat(ParseContext& ctx, ByteSource& src);

}  // namespace triage
