#include "correlator/summaries/line_facts.h"

#include <algorithm>
#include <array>

#include "knowledge/fact_scanner.h"
#include "knowledge/knowledge.h"
#include "model/strings.h"

namespace triage {
namespace {

constexpr std::array<std::string_view, 14> kOrder = {"code",  "error_str", "operator", "symbol", "library",
                                                    "pid",   "device",    "chip",     "core",   "rank",
                                                    "stream", "task",     "peer",     "version"};

bool is_word(char c) { return is_alnum(c) || c == '_'; }

// `value` in `text` with no letter, digit or underscore on either side.
bool has_token(std::string_view text, std::string_view value) {
  for (size_t at = text.find(value); at != std::string_view::npos; at = text.find(value, at + 1)) {
    bool left = at == 0 || !is_word(text[at - 1]);
    size_t end = at + value.size();
    bool right = end >= text.size() || !is_word(text[end]) ||
                 (text[end] == '.' && (end + 1 >= text.size() || !is_digit(text[end + 1])));
    if (left && right) return true;
  }
  return false;
}

bool catalogued_decimal(std::string_view v, const KnowledgeBase* kb) {
  if (v.empty() || !std::all_of(v.begin(), v.end(), [](char c) { return is_digit(c); })) return true;
  return !kb || kb->find_code(v) != nullptr;
}

}  // namespace

bool names_fact(std::string_view text, std::string_view key, std::string_view value) {
  if (value.size() >= 3 || !std::all_of(value.begin(), value.end(), [](char c) { return is_digit(c); }))
    return has_token(text, value);
  // A short id ("0", "12") is a fact only next to its key: "device 0", "device_id=0", "pid 12".
  for (size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    size_t i = at + key.size();
    while (i < text.size() && (is_alpha(text[i]) || text[i] == '_')) ++i;  // device_id, devices
    while (i < text.size() && (text[i] == ' ' || text[i] == '=' || text[i] == ':' || text[i] == '[')) ++i;
    if (text.substr(i, value.size()) == value && (i + value.size() >= text.size() || !is_digit(text[i + value.size()])))
      return true;
  }
  return false;
}

bool LineFacts::has(std::string_view key, std::string_view value) const {
  for (const auto& [k, vs] : keys_)
    if (k == key) return std::find(vs.begin(), vs.end(), value) != vs.end();
  return false;
}

void LineFacts::put(std::string_view key, std::string_view value, const KnowledgeBase* kb) {
  if (key == "code" && !catalogued_decimal(value, kb)) return;
  auto it = std::find_if(keys_.begin(), keys_.end(), [&](const auto& kv) { return kv.first == key; });
  if (it == keys_.end()) it = keys_.insert(keys_.end(), {std::string(key), {}});
  auto& vs = it->second;
  if (vs.size() < kMaxPerKey && std::find(vs.begin(), vs.end(), value) == vs.end()) vs.emplace_back(value);
}

void LineFacts::add(std::string_view text, const KnowledgeBase* kb) {
  builtin_fact_scanner().each(text, [&](std::string_view key, std::string_view value) { put(key, value, kb); });
}

std::string LineFacts::text(std::string_view said) const {
  std::string out;
  for (std::string_view key : kOrder)
    for (const auto& [k, vs] : keys_) {
      if (k != key) continue;
      std::string part;
      for (const auto& v : vs)
        if (said.empty() || !names_fact(said, key, v)) part += (part.empty() ? "" : ", ") + v;
      if (!part.empty()) out += (out.empty() ? "" : "; ") + k + " " + part;
    }
  return out;
}

}  // namespace triage
