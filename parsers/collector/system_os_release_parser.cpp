// system/os-release: KEY=value lines; values unquoted ("..." with \" \\ \$ \` escapes, or
// '...' literally); comments and blank lines allowed.
#include "parsers/collector/system_parsers.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {

bool valid_key(std::string_view k) {
  if (k.empty()) return false;
  for (char c : k)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

bool unquote(std::string_view v, std::string& out) {
  out.clear();
  if (v.empty()) return true;
  char q = v.front();
  if (q != '"' && q != '\'') {
    for (char c : v)
      if (c == '"' || c == '\'' || c == ' ' || c == '\\' || c == '`' || c == '$') return false;
    out = std::string(v);
    return true;
  }
  if (v.size() < 2 || v.back() != q) return false;
  v = v.substr(1, v.size() - 2);
  for (size_t i = 0; i < v.size(); ++i) {
    if (q == '"' && v[i] == '\\' && i + 1 < v.size() &&
        (v[i + 1] == '"' || v[i + 1] == '\\' || v[i + 1] == '$' || v[i + 1] == '`')) {
      out += v[++i];
    } else if (v[i] == q) {
      return false;  // an unescaped quote inside
    } else {
      out += v[i];
    }
  }
  return true;
}

}  // namespace

void parse_os_release(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  auto& facts = ctx.facts.system;
  bool first = true;
  for_each_line(text, [&](const TextLine& line) {
    std::string_view t = trim(line.text);
    if (t.empty() || t.front() == '#') {
      ++ctx.stats.parsed;
      return;
    }
    auto kv = split_key_value(t);
    std::string value;
    if (!kv || !valid_key(kv->first) || !unquote(kv->second, value)) {
      note_malformed(ctx, line);
      return;
    }
    facts.os_release.emplace_back(std::string(kv->first), std::move(value));
    if (first) facts.evidence.push_back(evidence_at(ctx, line)), first = false;
    ++ctx.stats.parsed;
  });
}

}  // namespace triage
