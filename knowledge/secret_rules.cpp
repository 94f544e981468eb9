#include "knowledge/secret_rules.h"

#include <re2/re2.h>

#include "knowledge/table_cache.h"
#include "knowledge/table_lines.h"
#include "model/strings.h"

namespace triage {
namespace {

// ERE reads a backslash inside brackets as itself, RE2 as an escape: the one place where the
// same pattern would mean two things, so the table may not hold it.
bool backslash_in_brackets(std::string_view p) {
  bool in = false;
  for (size_t i = 0; i < p.size(); ++i) {
    if (!in) {
      if (p[i] == '\\') ++i;  // an escaped character outside brackets
      else if (p[i] == '[') {
        in = true;
        if (i + 1 < p.size() && p[i + 1] == '^') ++i;
        if (i + 1 < p.size() && p[i + 1] == ']') ++i;  // a leading ']' is literal
      }
    } else if (p[i] == '\\') {
      return true;
    } else if (p[i] == '[' && i + 1 < p.size() && p[i + 1] == ':') {
      size_t end = p.find(":]", i + 2);
      if (end != std::string_view::npos) i = end + 1;
    } else if (p[i] == ']') {
      in = false;
    }
  }
  return false;
}

RE2::Options rule_options() {
  RE2::Options o;
  o.set_posix_syntax(true);     // the ERE the collector's sed reads, nothing RE2 adds
  o.set_longest_match(true);    // POSIX leftmost-longest, as sed
  o.set_case_sensitive(false);  // sed's I flag
  o.set_never_nl(true);         // sed sees one line at a time
  o.set_log_errors(false);
  return o;
}

// The PEM block rule of the collector: every line strictly between a private key's BEGIN and
// END lines becomes <redacted> (case as written: sed's range addresses have no I flag).
size_t mask_pem_blocks(std::string& s) {
  static const RE2 begin("-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----");
  static const RE2 end("-----END ([A-Z0-9]+ )*PRIVATE KEY-----");
  if (s.find("PRIVATE KEY-----") == std::string::npos) return 0;
  std::string out;
  size_t n = 0, pos = 0;
  bool in_block = false;
  while (pos <= s.size()) {
    size_t nl = s.find('\n', pos);
    std::string_view line(s.data() + pos, (nl == std::string::npos ? s.size() : nl) - pos);
    if (!in_block) {
      in_block = RE2::PartialMatch(line, begin);
      out += line;
    } else {
      if (RE2::PartialMatch(line, end)) in_block = false;
      if (line.find("-----BEGIN ") != std::string_view::npos || line.find("-----END ") != std::string_view::npos) {
        out += line;
      } else {
        out += "<redacted>";
        ++n;
      }
    }
    if (nl == std::string::npos) break;
    out += '\n';
    pos = nl + 1;
  }
  if (n > 0) s = std::move(out);
  return n;
}

}  // namespace

SecretRules parse_secret_rules(std::string_view content, const std::string& name, std::vector<std::string>& errors) {
  static const std::vector<std::string_view> kHeader = {"id", "trigger", "pattern", "after"};
  SecretRules out;
  auto row = [&](const std::string& where, const std::vector<std::string_view>& f) {
    SecretRule r;
    r.id = std::string(f[0]);
    if (r.id.empty()) return errors.push_back(where + ": empty id");
    for (const auto& t : split(f[1], '|')) {
      if (t.empty() || ascii_lower(t) != t)
        return errors.push_back(where + ": triggers are non-empty lower-case strings: '" + std::string(f[1]) + "'");
      r.triggers.emplace_back(t);
    }
    if (backslash_in_brackets(f[2]))
      return errors.push_back(where + ": a backslash inside brackets reads differently in sed and RE2");
    auto re = std::make_shared<const re2::RE2>(std::string(f[2]), rule_options());
    if (!re->ok()) return errors.push_back(where + ": pattern: " + re->error());
    if (re->NumberOfCapturingGroups() < 1) return errors.push_back(where + ": the pattern has no group 1 to keep");
    if (!f[3].empty()) {
      r.after = f[3].size() == 1 && f[3][0] >= '1' && f[3][0] <= '9' ? f[3][0] - '0' : -1;
      if (r.after < 1 || r.after > re->NumberOfCapturingGroups())
        return errors.push_back(where + ": after must name one of the pattern's groups: '" + std::string(f[3]) + "'");
    }
    r.rewrite = r.after ? "\\1<redacted>\\" + std::to_string(r.after) : "\\1<redacted>";
    r.pattern = std::move(re);
    out.rules.push_back(std::move(r));
  };
  for_each_table_row(content, name, kHeader, errors, row);
  return out;
}

size_t SecretRules::mask(std::string& s) const {
  if (s.empty()) return 0;
  std::string lower = ascii_lower(s);
  size_t n = 0;
  for (const auto& r : rules) {
    bool triggered = false;
    for (const auto& t : r.triggers) triggered = triggered || lower.find(t) != std::string::npos;
    if (!triggered) continue;
    if (int k = RE2::GlobalReplace(&s, *r.pattern, r.rewrite); k > 0) {
      n += static_cast<size_t>(k);
      lower = ascii_lower(s);
    }
  }
  return n + mask_pem_blocks(s);
}

const SecretRules& secret_rules_for(const std::string& dir) {
  return cached_table<SecretRules>(
      kSecretRulesFile, dir, [](std::string_view c, const std::string& n, std::vector<std::string>& e) {
        return parse_secret_rules(c, n, e);
      });
}

}  // namespace triage
