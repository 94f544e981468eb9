// What --redact learns before it replaces: the users and hosts a bundle names (reports/redact.h).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "reports/redact.h"

namespace triage {
namespace {

bool is_name_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-' || c == '.';
}
bool is_word(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// A dotted quad or a name made of hex digits and colons: an address, which the address pass
// replaces; not a host name to learn.
bool looks_like_address(std::string_view v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == ':' || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  });
}

// Sites the knowledge and public threads cite (docs, package indexes): not the customer's.
bool is_public_site(std::string_view host) {
  static constexpr std::string_view kPublic[] = {
      "huawei.com", "huaweicloud.com", "myhuaweicloud.com", "hiascend.com", "hiascend.cn", "gitee.com",
      "github.com", "githubusercontent.com", "gitlab.com", "pytorch.org", "python.org", "pypi.org",
      "pythonhosted.org", "mindspore.cn", "readthedocs.io", "kernel.org", "debian.org", "ubuntu.com",
      "openeuler.org", "huggingface.co", "hf-mirror.com", "modelscope.cn", "tsinghua.edu.cn", "aliyun.com",
      "docker.io", "docker.com", "k8s.io", "kubernetes.io", "nvidia.com"};
  for (auto p : kPublic)
    if (host == p || (host.size() > p.size() && host.ends_with(p) && host[host.size() - p.size() - 1] == '.'))
      return true;
  return false;
}

// Each name of a Slurm host list: "node[01-03,07],gpu5" is node01 node02 node03 node07 gpu5.
// At most 1024 names (a longer range is not expanded past that).
template <class F>
void each_listed_host(std::string_view list, F&& f) {
  size_t made = 0;
  while (!list.empty() && made < 1024) {
    size_t open = list.find('['), comma = list.find(',');
    if (comma < open || open == std::string_view::npos) {
      f(list.substr(0, comma));
      ++made;
      list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
      continue;
    }
    size_t close = list.find(']', open);
    if (close == std::string_view::npos) return f(list);
    std::string_view prefix = list.substr(0, open), ranges = list.substr(open + 1, close - open - 1);
    size_t after = close + 1;
    while (after < list.size() && list[after] != ',') ++after;
    std::string_view suffix = list.substr(close + 1, after - close - 1);
    for (size_t b = 0; b <= ranges.size() && made < 1024;) {
      size_t e = std::min(ranges.find(',', b), ranges.size());
      std::string_view r = ranges.substr(b, e - b);
      size_t dash = r.find('-');
      std::string_view lo = r.substr(0, dash), hi = dash == std::string_view::npos ? lo : r.substr(dash + 1);
      unsigned long a = 0, z = 0;
      bool ok = !lo.empty() && !hi.empty() && lo.size() <= 9 && hi.size() <= 9 &&
                std::all_of(lo.begin(), lo.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                std::all_of(hi.begin(), hi.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (ok) {
        a = std::stoul(std::string(lo));
        z = std::stoul(std::string(hi));
      }
      for (unsigned long n = a; ok && n <= z && made < 1024; ++n, ++made) {
        std::string digits = std::to_string(n);
        if (digits.size() < lo.size()) digits.insert(0, lo.size() - digits.size(), '0');  // node01
        f(std::string(prefix) + digits + std::string(suffix));
      }
      b = e + 1;
    }
    list = after < list.size() ? list.substr(after + 1) : std::string_view{};
  }
}

}  // namespace

// Names are added in the order they stand in the text, whichever form states them, so the
// pseudonyms number them as a reader meets them.
void Redactor::discover_users(std::string_view s) {
  std::vector<std::pair<size_t, std::string_view>> found;
  auto add_user = [&found, &s](std::string_view name) { found.emplace_back(name.data() - s.data(), name); };
  auto user_after = [&](std::string_view marker, bool word_before_ok) {
    for (size_t at = s.find(marker); at != std::string_view::npos; at = s.find(marker, at + 1)) {
      if (at > 0 && !word_before_ok && is_word(s[at - 1])) continue;  // FOO_USER=
      size_t b = at + marker.size(), e = b;
      while (e < s.size() && is_name_char(s[e])) ++e;
      if (marker.back() == '(' && (e >= s.size() || s[e] != ')')) continue;  // uid=1000(alice)
      add_user(s.substr(b, e - b));
    }
  };
  for (std::string_view m : {"/home/", "/Users/", "/export/home/"}) user_after(m, true);
  for (std::string_view m : {"USER=", "LOGNAME=", "SUDO_USER=", "~"}) user_after(m, false);
  for (size_t at = s.find("uid="); at != std::string_view::npos; at = s.find("uid=", at + 1)) {
    size_t p = at + 4;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') ++p;
    if (p > at + 4 && p < s.size() && s[p] == '(') {
      size_t e = p + 1;
      while (e < s.size() && is_name_char(s[e])) ++e;
      if (e < s.size() && s[e] == ')') add_user(s.substr(p + 1, e - p - 1));
    }
  }
  // HOME=/data/alice: the last directory is the user's name (HOME=/root is kept by add_user).
  for (size_t at = s.find("HOME="); at != std::string_view::npos; at = s.find("HOME=", at + 1)) {
    if (at > 0 && is_word(s[at - 1])) continue;
    size_t e = at + 5;
    while (e < s.size() && (is_name_char(s[e]) || s[e] == '/')) ++e;
    std::string_view home = s.substr(at + 5, e - at - 5);
    while (!home.empty() && home.back() == '/') home.remove_suffix(1);
    size_t slash = home.rfind('/');
    if (slash != std::string_view::npos && slash > 0) add_user(home.substr(slash + 1));
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& f : found) this->add_user(f.second);
}

void Redactor::discover_hosts(std::string_view s) {
  std::vector<std::pair<size_t, std::string>> found;  // (where the list or name starts, name)
  size_t where = 0;
  auto learn = [&](std::string_view name) {
    while (!name.empty() && (name.back() == '.' || name.back() == '-')) name.remove_suffix(1);
    if (name.size() < 2 || looks_like_address(name) || is_public_site(name)) return;
    found.emplace_back(where, std::string(name));
    // node07.corp.example.com teaches node07 and the site's domain corp.example.com too (a
    // message with numbers masked shows node#.corp.example.com).
    size_t dot = name.find('.');
    if (dot == std::string_view::npos) return;
    if (dot >= 2) found.emplace_back(where, std::string(name.substr(0, dot)));
    std::string_view domain = name.substr(dot + 1);
    if (domain.find('.') != std::string_view::npos) found.emplace_back(where, std::string(domain));
  };
  static constexpr std::string_view kNodeVariables[] = {
      "HOSTNAME=", "NODE_NAME=", "KUBERNETES_NODE_NAME=", "MY_NODE_NAME=", "NODE_IP_OR_NAME=", "SLURMD_NODENAME=",
      "SLURM_SUBMIT_HOST=", "SLURM_LAUNCH_NODE_IPADDR=", "SLURM_NODELIST=", "SLURM_JOB_NODELIST=",
      "SLURM_STEP_NODELIST=", "NodeName=", "NodeList=", "BatchHost=", "MASTER_ADDR=", "--master_addr=",
      "--master-addr=", "kubernetes.io/hostname="};
  for (auto marker : kNodeVariables) {
    for (size_t at = s.find(marker); at != std::string_view::npos; at = s.find(marker, at + 1)) {
      // XNODE_NAME= is not NODE_NAME= (KUBERNETES_NODE_NAME= and MY_NODE_NAME= are markers of their own).
      if (at > 0 && marker[0] != '-' && is_word(s[at - 1])) continue;
      size_t b = at + marker.size(), e = b;
      while (e < s.size() && (is_name_char(s[e]) || s[e] == '[' || s[e] == ']' || s[e] == ',')) ++e;
      where = b;
      each_listed_host(s.substr(b, e - b), learn);
    }
  }
  // The host of a URL: tcp://node-a:29500, http://ps-0.job.svc:8080/.
  for (size_t at = s.find("://"); at != std::string_view::npos; at = s.find("://", at + 1)) {
    size_t b = at + 3, e = b;
    if (s.substr(b).starts_with("<redacted>@")) b += 11;  // userinfo the secret rules masked
    e = b;
    while (e < s.size() && is_name_char(s[e])) ++e;
    std::string_view host = s.substr(b, e - b);
    if (e < s.size() && s[e] != ':' && s[e] != '/' && s[e] != ' ' && s[e] != ')' && s[e] != ',' && s[e] != '"' &&
        s[e] != '\'' && s[e] != ']')
      continue;  // not where a host ends (trainer-#.corp: a message with numbers masked)
    where = b;
    if (host.find_first_not_of("0123456789.-") != std::string_view::npos && host != "localhost") learn(host);
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& f : found) add_host(f.second);
}

void learn_names(Redactor& r, const EvidenceSet& evidence) {
  for (const auto& b : evidence.bundles) {
    r.add_host(b.host);
    r.add_host(b.system.hostname);
  }
  auto learn = [&](std::string_view key, std::string_view value) {
    std::string line = std::string(key) + "=" + std::string(value);
    r.learn(line);
  };
  for (const auto& b : evidence.bundles) {
    for (const auto& [pid, p] : b.processes.by_pid)
      for (const auto& [k, v] : p.environ) learn(k, v);
    for (const auto& kv : b.libraries.collector_env) learn(kv.key, kv.value);
    for (const auto& kv : b.libraries.reported_env) learn(kv.key, kv.value);
    for (const auto& t : b.network.rank_tables)
      for (const auto& d : t.devices)
        if (!looks_like_address(d.server_id)) r.add_host(d.server_id);
  }
}

}  // namespace triage
