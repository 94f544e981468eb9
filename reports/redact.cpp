#include "reports/redact.h"
#include "model/strings.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>

namespace triage {
namespace {

// A user or host name's characters: what may not touch a match on either side.
bool is_word(char c) { return is_alnum(c) || c == '_'; }


// Four decimal octets (0-255, at most three digits) joined by `sep` from `p`: the position
// after the last, or 0 when there are not.
size_t four_octets(std::string_view s, size_t p, char sep) {
  for (int octet = 0; octet < 4; ++octet) {
    if (octet > 0) {
      if (p >= s.size() || s[p] != sep) return 0;
      ++p;
    }
    size_t start = p;
    int value = 0;
    while (p < s.size() && is_digit(s[p]) && p - start < 3) value = value * 10 + (s[p++] - '0');
    if (p == start || value > 255 || (p < s.size() && is_digit(s[p]))) return 0;
  }
  return p;
}

// A dotted quad standing alone at `i`: not part of a longer dotted number (a version such as
// 9.0.0.0.205 or a kernel 5.10.0-216.0.0.115.oe2203), returns its length or 0.
size_t ipv4_at(std::string_view s, size_t i) {
  // After a letter or digit never; after '.', '_' or '-' only when no digit stands before
  // that (node.10.0.0.5 and rank_10.0.0.5 are addresses, 9.0.0.0.205 is a version).
  if (i > 0 && is_alnum(s[i - 1])) return 0;
  if (i > 1 && (s[i - 1] == '.' || s[i - 1] == '_' || s[i - 1] == '-') && is_digit(s[i - 2])) return 0;
  size_t p = four_octets(s, i, '.');
  if (p == 0) return 0;
  if (p < s.size() && (is_alnum(s[p]) || (s[p] == '.' && p + 1 < s.size() && is_alnum(s[p + 1])))) return 0;
  return p - i;
}

// A cloud host name that spells its address, ip-10-77-1-11 (with a domain or not), or 0.
size_t cloud_name_at(std::string_view s, size_t i) {
  if (s.compare(i, 3, "ip-") != 0 || (i > 0 && is_alnum(s[i - 1]))) return 0;
  size_t p = four_octets(s, i + 3, '-');
  if (p == 0) return 0;
  return p < s.size() && (is_alnum(s[p]) || s[p] == '-') ? 0 : p - i;
}

// A MAC address at `i`: six pairs of hex digits joined by ':' or '-' (one of them), or 0.
// Times (12:34:56) have three groups; longer hex runs are not pairs.
size_t mac_at(std::string_view s, size_t i) {
  if (i > 0 && (is_alnum(s[i - 1]) || s[i - 1] == ':' || s[i - 1] == '-')) return 0;
  if (i + 17 > s.size()) return 0;
  char sep = s[i + 2];
  if (sep != ':' && sep != '-') return 0;
  for (size_t g = 0; g < 6; ++g) {
    size_t at = i + g * 3;
    if (!is_hex(s[at]) || !is_hex(s[at + 1])) return 0;
    if (g < 5 && s[at + 2] != sep) return 0;
  }
  size_t end = i + 17;
  if (end < s.size() && (is_alnum(s[end]) || s[end] == ':' || s[end] == '-')) return 0;
  return 17;
}

// File name endings: what follows a host name after a '.' there is a file, not a domain.
bool is_file_ending(std::string_view label) {
  static constexpr std::string_view kEndings[] = {"gz", "zst", "xz", "bz2", "tar", "tgz", "zip", "log", "txt", "json",
                                                  "jsonl", "py", "so", "sh", "md", "html", "csv", "tsv", "yaml", "yml",
                                                  "conf", "cfg", "ini", "out", "err", "pid", "lock", "sock"};
  for (auto e : kEndings)
    if (label.size() == e.size() && std::equal(e.begin(), e.end(), label.begin(), [](char a, char b) {
          return a == (b >= 'A' && b <= 'Z' ? static_cast<char>(b - 'A' + 'a') : b);
        }))
      return true;
  return false;
}

// The domain after a host name at `end` (.corp.example.com, .cluster.local): its end, or `end`
// when none follows. Two labels at least, or one of the private suffixes; the last is letters.
size_t domain_after(std::string_view s, size_t end) {
  size_t p = end, labels = 0, last_begin = 0;
  while (p + 1 < s.size() && s[p] == '.' && is_alnum(s[p + 1])) {
    size_t b = p + 1, e = b;
    while (e < s.size() && (is_alnum(s[e]) || s[e] == '-')) ++e;
    last_begin = b;
    p = e;
    ++labels;
  }
  if (labels == 0) return end;
  std::string_view last = s.substr(last_begin, p - last_begin);
  if (last.size() < 2 || std::any_of(last.begin(), last.end(), [](char c) { return !is_alnum(c) || is_digit(c); }) ||
      is_file_ending(last) || (p < s.size() && (is_word(s[p]) || s[p] == '-')))
    return end;
  static constexpr std::string_view kPrivate[] = {"local", "internal", "lan", "corp", "intranet", "localdomain", "cluster"};
  bool private_suffix = std::find(std::begin(kPrivate), std::end(kPrivate), last) != std::end(kPrivate);
  return labels >= 2 || private_suffix ? p : end;
}

bool is_email_local(char c) { return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'; }

// An e-mail address whose '@' is at `at`: [begin, end), or begin == end when there is none.
// A user in URL userinfo (https://user:pw@host) is not taken for one.
std::pair<size_t, size_t> email_around(std::string_view s, size_t at) {
  size_t b = at, e = at + 1, dot = 0;
  while (b > 0 && is_email_local(s[b - 1])) --b;
  if (b == at || (b > 0 && (s[b - 1] == ':' || s[b - 1] == '/' || s[b - 1] == '@'))) return {at, at};
  while (e < s.size() && (is_alnum(s[e]) || s[e] == '.' || s[e] == '-')) ++e;
  while (e > at + 1 && s[e - 1] == '.') --e;  // the full stop of a sentence
  for (size_t k = at + 1; k < e; ++k)
    if (s[k] == '.') dot = k;
  if (dot == 0 || dot + 2 >= e || dot < at + 2) return {at, at};
  for (size_t k = dot + 1; k < e; ++k)
    if (is_digit(s[k])) return {at, at};  // a TLD has letters only
  return {b, e};
}

// An IPv6 address at `i` (hex groups and colons that inet_pton accepts, with at least two
// colons: times such as 09:25:58 and C++ names such as c10::Error are not), or 0.
size_t ipv6_at(std::string_view s, size_t i) {
  if (i > 0 && (is_word(s[i - 1]) || s[i - 1] == ':' || s[i - 1] == '.')) return 0;
  size_t p = i;
  while (p < s.size() && (is_hex(s[p]) || s[p] == ':') && p - i < 39) ++p;
  // A full stop after it ends a sentence; a '.' before more text is something else.
  if (p < s.size() && (is_word(s[p]) || s[p] == ':' || (s[p] == '.' && p + 1 < s.size() && is_alnum(s[p + 1]))))
    return 0;
  std::string_view run = s.substr(i, p - i);
  if (std::count(run.begin(), run.end(), ':') < 2) return 0;
  char text[64];
  run.copy(text, run.size());
  text[run.size()] = '\0';
  unsigned char bytes[16];
  return inet_pton(AF_INET6, text, bytes) == 1 ? run.size() : 0;
}

bool kept_address(std::string_view a) {
  return a == "::" || a == "::1" || a.rfind("127.", 0) == 0 || a == "0.0.0.0" || a.rfind("255.", 0) == 0;
}

}  // namespace

void Redactor::add_host(std::string_view name) {
  if (name.size() < 2 || name == "localhost" || name == "unknown") return;
  for (const auto& h : hosts_)
    if (h.original == name) return;
  hosts_.push_back({std::string(name), fmt::format("host-{}", hosts_.size() + 1)});
  std::stable_sort(hosts_.begin(), hosts_.end(),
                   [](const Name& a, const Name& b) { return a.original.size() > b.original.size(); });
}

void Redactor::add_user(std::string_view name) {
  if (name.size() < 2 || name == "root") return;
  for (const auto& u : users_)
    if (u.original == name) return;
  users_.push_back({std::string(name), fmt::format("user-{}", users_.size() + 1)});
  std::stable_sort(users_.begin(), users_.end(),
                   [](const Name& a, const Name& b) { return a.original.size() > b.original.size(); });
}

// Host names are matched without regard to case (NODE07 is node07) and end at anything but a
// letter or digit (ascend-node07_logs holds the host); user names end at '_' too (a user
// "train" is not in train_data).
void Redactor::replace_names(std::string& s, const std::vector<Name>& names, bool hosts) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  auto find = [&](const std::string& what, size_t from) {
    if (!hosts) return s.find(what, from);
    auto it = std::search(s.begin() + static_cast<std::ptrdiff_t>(std::min(from, s.size())), s.end(), what.begin(),
                          what.end(), [&](char a, char b) { return lower(a) == lower(b); });
    return it == s.end() ? std::string::npos : static_cast<size_t>(it - s.begin());
  };
  auto joins = [&](char c) { return hosts ? is_alnum(c) : is_word(c); };
  for (const auto& n : names) {
    for (size_t at = find(n.original, 0); at != std::string::npos; at = find(n.original, at)) {
      size_t end = at + n.original.size();
      bool alone = (at == 0 || !joins(s[at - 1])) && (end == s.size() || !joins(s[end]));
      if (!alone) {
        ++at;
        continue;
      }
      // The domain of a fully qualified name goes with it: it names the customer's site.
      if (hosts) end = domain_after(s, end);
      s.replace(at, end - at, n.pseudonym);
      at += n.pseudonym.size();
    }
  }
}

const std::string& Redactor::ip_pseudonym(std::string_view original) {
  return pseudonym_in(ips_, "ip", original);
}

const std::string& Redactor::pseudonym_in(std::map<std::string, std::string, std::less<>>& seen,
                                             std::string_view kind, std::string_view original) {
  auto it = seen.find(original);
  if (it == seen.end()) it = seen.emplace(std::string(original), fmt::format("{}-{}", kind, seen.size() + 1)).first;
  return it->second;
}

void Redactor::replace_addresses(std::string& s) {
  std::string out;
  size_t copied = 0;
  auto replace = [&](size_t from, size_t to, const std::string& pseudonym) {
    out.append(s, copied, from - copied);
    out += pseudonym;
    copied = to;
  };
  for (size_t i = 0; i < s.size();) {
    std::string_view sv(s);
    if (s[i] == '@') {
      auto [b, e] = email_around(sv, i);
      if (b < e && b >= copied) {
        replace(b, e, pseudonym_in(emails_, "email", sv.substr(b, e - b)));
        i = e;
        continue;
      }
    }
    if (size_t m = is_hex(s[i]) ? mac_at(sv, i) : 0) {
      replace(i, i + m, pseudonym_in(macs_, "mac", sv.substr(i, m)));
      i += m;
      continue;
    }
    size_t n = is_digit(s[i]) ? ipv4_at(sv, i) : s[i] == 'i' ? cloud_name_at(sv, i) : 0;
    if (n == 0 && (is_hex(s[i]) || s[i] == ':')) n = ipv6_at(sv, i);
    if (n == 0 || kept_address(sv.substr(i, n))) {
      ++i;
      continue;
    }
    replace(i, i + n, ip_pseudonym(sv.substr(i, n)));
    i += n;
  }
  if (copied == 0) return;
  out.append(s, copied, std::string::npos);
  s = std::move(out);
}

void Redactor::apply(std::string& s) {
  if (s.empty()) return;
  secrets_ += rules_->mask(s);
  replace_names(s, hosts_, true);
  replace_names(s, users_, false);
  replace_addresses(s);
}

namespace {

// Every string of the report and of the facts the renderers read, in a fixed order (the
// pseudonyms of addresses are numbered in this order).
template <class F>
void each_evidence(EvidenceRef& e, F& f) {
  f(e.entry);
  f(e.excerpt);
}

template <class F>
void each_finding(Finding& x, F& f) {
  for (std::string* s : {&x.host, &x.title, &x.observed, &x.supports, &x.does_not_prove}) f(*s);
  for (auto& s : x.next_checks) f(s);
  for (auto& e : x.evidence) each_evidence(e, f);
  for (auto& e : x.explains) each_evidence(e, f);
  for (auto& e : x.same_failure) each_evidence(e, f);
  for (auto& kv : x.values) f(kv.second);
}

template <class F>
void each_outcome(ItemOutcome& o, F& f) {
  for (std::string* s : {&o.path, &o.status_text, &o.reason, &o.error}) f(*s);
  for (auto& p : o.files) f(p);
}

template <class F>
void each_bundle_string(BundleFacts& b, F& f) {
  {
    for (std::string* s : {&b.input, &b.host, &b.inventory.manifest_entry}) f(*s);
    for (auto& e : b.inventory.entries) {
      for (std::string* s : {&e.info.input, &e.info.path, &e.info.raw_path, &e.info.display, &e.info.link_target,
                             &e.reason, &e.manifest_note, &e.stats.not_collected})
        f(*s);
      for (auto& m : e.stats.samples_of_malformed) each_evidence(m, f);
      for (auto& seg : e.stats.segments) {
        f(seg.reason);
        f(seg.command);
      }
    }
    for (auto& sk : b.inventory.skipped)
      for (std::string* s : {&sk.info.input, &sk.info.path, &sk.info.raw_path, &sk.info.display,
                             &sk.info.link_target, &sk.reason})
        f(*s);
    for (auto& n : b.inventory.manifest_notes) {
      f(n.path);
      f(n.note);
    }
    for (auto& fe : b.inventory.folded) {
      f(fe.skipped);
      for (auto& p : fe.samples) f(p);
    }
    for (auto& x : b.input_findings) each_finding(x, f);
    // The summary's wait edges and addresses are read from the hits' captures (issue 37).
    for (auto& h : b.logs.signature_hits)
      for (auto& [name, value] : h.captures) f(value);
    for (auto& [device, port] : b.network.hccn) f(port.ip);
  }
}

template <class F>
void each_string(Report& r, EvidenceSet& ev, F&& f) {
  for (auto& b : ev.bundles) each_bundle_string(b, f);
  for (auto& s : r.bundles) {
    for (std::string* t : {&s.input, &s.host, &s.host_origin, &s.os, &s.sudo_user, &s.items_origin,
                           &s.collected_at_origin, &s.zone_origin})
      f(*t);
    for (auto& a : s.collector_args) f(a);
    for (auto& o : s.not_collected) each_outcome(o, f);
    for (auto& o : s.truncated) each_outcome(o, f);
    for (auto& t : s.tool_errors) {
      f(t.path);
      f(t.reason);
    }
    for (auto& n : s.notes) f(n);
  }
  for (auto& x : r.findings) each_finding(x, f);
  Verdict& v = r.verdict;
  for (auto& h : v.ranked) {
    for (std::string* s : {&h.title, &h.host, &h.rationale, &h.does_not_prove}) f(*s);
    for (auto* links : {&h.supporting, &h.contradicting, &h.consequences})
      for (auto& l : *links) f(l.why);
  }
  for (std::string* s : {&v.next_check.separates, &v.next_check.description, &v.next_check.command, &v.summary, &v.reply})
    f(*s);
  for (auto& c : v.collect_more) f(c);
  for (auto& e : r.timeline.events) {
    for (std::string* s : {&e.message, &e.host, &e.time_note}) f(*s);
    each_evidence(e.evidence, f);
  }
  for (auto& b : r.timeline.boots) {
    f(b.host);
    each_evidence(b.evidence, f);
  }
  for (auto& k : r.timeline.skews) {
    f(k.host);
    f(k.method);
    each_evidence(k.a_evidence, f);
    each_evidence(k.b_evidence, f);
  }
}

template <class F>
void each_diff_string(ChainDiff& d, F&& f) {
  for (std::string* s : {&d.baseline, &d.current, &d.baseline_host, &d.current_host, &d.process_matching}) f(*s);
  for (auto& c : d.changes) {
    for (std::string* s : {&c.item, &c.before, &c.after, &c.why}) f(*s);
  }
  for (auto& n : d.notes) f(n);
}

std::string plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::string Redactor::note() const {
  std::string more;  // said only when there are any, so older reports read the same
  if (emails() || macs())
    more = fmt::format(" ({} and {} replaced too, email-N, mac-N)", plural(emails(), "e-mail address", "e-mail addresses"),
                       plural(macs(), "MAC address", "MAC addresses"));
  if (secrets())
    more += fmt::format(" {} masked as <redacted> by the secret rules.", plural(secrets(), "secret value", "secret values"));
  return fmt::format(
      "Redacted for a public thread: {}, {} and {} replaced with pseudonyms (host-N, user-N, "
      "ip-N; the same original gives the same pseudonym throughout this report).{}",
      plural(hosts(), "host name", "host names"), plural(users(), "user name", "user names"),
      plural(addresses(), "IP address", "IP addresses"), more);
}

std::string redact_for_public(Report& report, EvidenceSet& evidence) {
  Redactor r;
  // Hosts first, in input order, so that host-1 is the first input's host.
  learn_names(r, evidence);
  for (const auto& s : report.bundles) {
    r.add_host(s.host);
    r.add_user(s.sudo_user);
  }
  for (const auto& x : report.findings) r.add_host(x.host);
  each_string(report, evidence, [&](std::string& s) { r.learn(s); });
  each_string(report, evidence, [&](std::string& s) { r.apply(s); });
  return r.note();
}

std::string redact_inventory(EvidenceSet& evidence) {
  Redactor r;
  learn_names(r, evidence);
  auto learn = [&](std::string& s) { r.learn(s); };
  auto apply = [&](std::string& s) { r.apply(s); };
  for (auto& b : evidence.bundles) each_bundle_string(b, learn);
  for (auto& b : evidence.bundles) each_bundle_string(b, apply);
  return r.note();
}

std::string redact_chain_diff(ChainDiff& diff) {
  Redactor r;
  r.add_host(diff.baseline_host);
  r.add_host(diff.current_host);
  each_diff_string(diff, [&](std::string& s) { r.learn(s); });
  each_diff_string(diff, [&](std::string& s) { r.apply(s); });
  return r.note();
}

}  // namespace triage
