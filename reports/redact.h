#pragma once
// --redact (docs/cli.md#redaction): for a report posted on a public thread, secret values are
// masked by the collector's secret rules (knowledge/secret-rules.tsv), and host names, IP
// addresses (v4 and v6), user names and home paths are replaced with stable pseudonyms
// (host-1, ip-1, user-1: the same original gives the same pseudonym in one report). One pass
// over every string the renderers read, before rendering; no renderer knows about it.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/secret_rules.h"
#include "model/chain.h"
#include "model/host_facts.h"
#include "model/report.h"

namespace triage {

class Redactor {
 public:
  explicit Redactor(const SecretRules& rules = secret_rules_for("")) : rules_(&rules) {}
  // Names to replace wherever they stand as a word. "root", "localhost" and one-letter
  // names are kept: they identify nobody and replacing them would garble the text.
  void add_host(std::string_view name);
  void add_user(std::string_view name);
  // Learns the users of /home/<user> (and /Users/, /export/home/), ~user/, uid=N(user),
  // USER=, LOGNAME=, SUDO_USER= and the last directory of HOME= in `s`.
  void discover_users(std::string_view s);
  // Learns the hosts `s` names: node variables of Kubernetes and Slurm (NODE_NAME=,
  // SLURMD_NODENAME=, SLURM_JOB_NODELIST=node[01-04] expanded, NodeName=, ...), HOSTNAME=,
  // MASTER_ADDR= / --master_addr, and the host of a URL (tcp://node-a:29500) unless it is a
  // public vendor's site. A fully qualified name teaches its first label too.
  void discover_hosts(std::string_view s);
  // Both of the above: what every pass that learns before it replaces calls.
  void learn(std::string_view s) {
    discover_users(s);
    discover_hosts(s);
  }
  // Masks secrets (the secret rules), then replaces known hosts (any letter case, also joined
  // by '_', with the domain that follows them) and users, then e-mail, MAC and IP addresses
  // (loopback, unspecified and 255.x masks are kept) and cloud host names that spell an
  // address (ip-10-77-1-11).
  void apply(std::string& s);
  size_t hosts() const { return hosts_.size(); }
  size_t users() const { return users_.size(); }
  size_t addresses() const { return ips_.size(); }
  size_t emails() const { return emails_.size(); }
  size_t macs() const { return macs_.size(); }
  size_t secrets() const { return secrets_; }
  // The sentence a redacted output shows: what was replaced, in counts.
  std::string note() const;

 private:
  struct Name {
    std::string original, pseudonym;
  };
  void replace_names(std::string& s, const std::vector<Name>& names, bool hosts);
  void replace_addresses(std::string& s);
  const std::string& ip_pseudonym(std::string_view original);
  static const std::string& pseudonym_in(std::map<std::string, std::string, std::less<>>& seen,
                                            std::string_view kind, std::string_view original);
  const SecretRules* rules_;
  size_t secrets_ = 0;
  std::vector<Name> hosts_, users_;  // longest first, so a longer name wins over its prefix
  std::map<std::string, std::string, std::less<>> ips_, emails_, macs_;
};

// Learns what `evidence` names: each bundle's host, the hosts and users of every process's
// environment, the collector's and a pasted report's environment, rank tables' servers.
void learn_names(Redactor& r, const EvidenceSet& evidence);

// Redacts the report and the facts the renderers read of `evidence`; returns the sentence
// the report shows at its top.
std::string redact_for_public(Report& report, EvidenceSet& evidence);
// The same for `inventory` (the entries and notes of each bundle) and `diff` (every string of
// the diff; the hosts of both chains are learned first).
std::string redact_inventory(EvidenceSet& evidence);
std::string redact_chain_diff(ChainDiff& diff);

}  // namespace triage
