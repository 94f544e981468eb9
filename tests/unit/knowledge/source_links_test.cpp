// Links to the public pages (issue 38): a knowledge `source` text as URLs, the table
// knowledge/finding-sources.tsv and its check, and `explain` printing them.
#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

#include "ingest/knowledge_check.h"
#include "knowledge/source_links.h"

using namespace triage;

namespace {

std::vector<std::string> urls(std::string_view source) {
  std::vector<std::string> out;
  for (const auto& l : source_links(source)) out.push_back(l.url);
  return out;
}

std::pair<int, std::string> run_cli(const std::string& args) {
  std::string cmd = std::string(ASCEND_TRIAGE_BIN) + " " + args + " 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, ""};
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int rc = pclose(p);
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, out};
}

}  // namespace

TEST_CASE("source_links: the source texts of error-codes.tsv", "[knowledge][links]") {
  // Two repositories and an internal note: two links, in order, the note gives none.
  auto l = source_links(
      "hicann/runtime@681ef7610df1 include/external/acl/error_codes/rt_error_codes.h; Ascend/pytorch@c4840e3c0959 "
      "third_party/acl/inc/acl/error_codes/rt_error_codes.h; ascend-facts.md §8.2 (rt_error_codes.h)");
  REQUIRE(l.size() == 2);
  CHECK(l[0].url == "https://github.com/hicann/runtime/blob/681ef7610df1/include/external/acl/error_codes/rt_error_codes.h");
  CHECK(l[0].what == "hicann/runtime@681ef7610df1 include/external/acl/error_codes/rt_error_codes.h");
  CHECK(l[1].url ==
        "https://github.com/Ascend/pytorch/blob/c4840e3c0959/third_party/acl/inc/acl/error_codes/rt_error_codes.h");
  CHECK(urls("hicann/ge@ffdcbc9f7496 base/common/error_registry/error_registry.cc") ==
        std::vector<std::string>{"https://github.com/hicann/ge/blob/ffdcbc9f7496/base/common/error_registry/error_registry.cc"});
  // A page is kept as written; the same page twice is one link.
  const std::string page =
      "https://www.hiascend.com/document/detail/zh/canncommercial/800/developmentguide/maintenref/troubleshooting/"
      "atlaserrorcode_15_0314.html";
  CHECK(urls(page + "; hicann/runtime@681ef7610df1 src/dfx/error_manager/error_code.json; ascend-facts.md §8.1 "
                    "(hicann/runtime error_code.json)") ==
        std::vector<std::string>{page, "https://github.com/hicann/runtime/blob/681ef7610df1/src/dfx/error_manager/error_code.json"});
  CHECK(urls(page + "; " + page) == std::vector<std::string>{page});
  // A note after the path, and after a page, is not part of the link.
  CHECK(urls("Ascend/mind-cluster@22bb3d987bc0 component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json "
             "(rule 0x80E01801, module HBM)") ==
        std::vector<std::string>{"https://github.com/Ascend/mind-cluster/blob/22bb3d987bc0/component/ascend-faultdiag/"
                                 "src/ascend_fd/configuration/kg-config.json"});
  CHECK(urls("https://support.huawei.com/enterprise/zh/doc/EDOC1100164868/f8ec87bc (black-box logs, history.log "
             "example)") == std::vector<std::string>{"https://support.huawei.com/enterprise/zh/doc/EDOC1100164868/f8ec87bc"});
}

TEST_CASE("source_links: near misses give no link", "[knowledge][links]") {
  // Internal references.
  CHECK(urls("ascend-facts.md §8.4 (hicann/runtime internal_error_define.hpp)").empty());
  CHECK(urls("real-log-excerpts.md Format notes C (retCode/runtime result pairs seen in real lines); ascend-facts.md §8.2")
            .empty());
  CHECK(urls("ascend-facts.md 5.3 (hicann/driver deal_ko.sh grep d801)").empty());
  // A repository without a commit, a commit without a path, a bare word, an empty text.
  CHECK(urls("hicann/hcomm HCCL error catalogue hcomm_g_msg (search-index file 67219921974; EI0018-EI0020 taken from "
             "it)")
            .empty());
  CHECK(urls("hicann/runtime@681ef7610df1").empty());
  CHECK(urls("hicann/runtime@681ef7610df1 (no path)").empty());
  CHECK(urls("source").empty());
  CHECK(urls("").empty());
  CHECK(urls(" ; ;").empty());
  // Not a commit, not a path, not https.
  CHECK(urls("hicann/runtime@main include/x.h").empty());
  CHECK(urls("hicann/runtime@681ef7610df1 ../etc/passwd").empty());
  CHECK(urls("http://www.hiascend.com/x.html").empty());
}

TEST_CASE("finding-sources.tsv: the built-in table passes; a bad row is refused", "[knowledge][links]") {
  for (const auto& f : builtin_knowledge_files()) {
    if (f.name != kFindingSourcesFile) continue;
    KnowledgeCheck c = check_knowledge_file(f.content, f.name);
    INFO(c.problems.size());
    for (const auto& p : c.problems) INFO(p);
    CHECK(c.ok());
  }
  std::string header = "id\turl\twhat\n";
  auto problems = [&](const std::string& rows) {
    return check_knowledge_file(header + rows, "finding-sources.tsv").problems;
  };
  CHECK(problems("stream-stall\thttps://example.org/a\tsays so\n").empty());
  CHECK(problems("host-driver-installation\thttps://example.org/a\tsays so\n").empty());  // a hypothesis
  auto p = problems("no-such-finding\thttps://example.org/a\tsays so\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "finding-sources.tsv:2: no-such-finding is neither a catalogued finding id nor a verdict hypothesis id");
  p = problems("stream-stall\thttp://example.org/a\tsays so\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "finding-sources.tsv:2: url 'http://example.org/a' is not an https:// address");
  p = problems("stream-stall\t\tsays so\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0].find("is not an https:// address") != std::string::npos);
  p = problems("stream-stall\thttps://example.org/a\t\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "finding-sources.tsv:2: id and what are required");
  p = problems("stream-stall\thttps://example.org/a\tx\nstream-stall\thttps://example.org/a\ty\n");
  REQUIRE(p.size() == 1);
  CHECK(p[0] == "finding-sources.tsv:3: duplicate row stream-stall https://example.org/a");
  CHECK(check_knowledge_file("id\turl\n", "finding-sources.tsv").problems.size() == 1);  // the header
  // The ids at warning or above without a row are returned, not failed.
  std::vector<std::string> errors;
  auto missing = check_finding_sources(header + "a\thttps://example.org/a\tx\n", "finding-sources.tsv", {"a", "b", "c"},
                                       {"a", "c"}, errors);
  CHECK(errors.empty());
  CHECK(missing == std::vector<std::string>{"c"});
}

TEST_CASE("explain prints links for a finding and an error code", "[explain][cli][links]") {
  auto [rc, out] = run_cli("explain stream-stall");
  CHECK(rc == 0);
  size_t at = out.find("\nlinks:\n  https://");
  CHECK(at != std::string::npos);
  std::tie(rc, out) = run_cli("explain 107020");
  CHECK(rc == 0);
  CHECK(out.find("\nlinks:\n  https://github.com/hicann/runtime/blob/681ef7610df1/include/external/acl/error_codes/"
                 "rt_error_codes.h\n") != std::string::npos);
  CHECK(out.find("https://github.com/Ascend/pytorch/blob/c4840e3c0959/") != std::string::npos);
  // The library function the reports call: the same links.
  CHECK_FALSE(finding_links("", "stream-stall").empty());
  CHECK(finding_links("", "107020").size() == 2);
  CHECK(finding_links("", "no-such-id").empty());
}
