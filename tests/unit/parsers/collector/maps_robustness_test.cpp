// The library parsers on random bytes and on every prefix / mutation of the samples' files:
// no crash, and every line accounted for (parsed + unrecognised + malformed = lines).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include "model_test_support.h"
#include "parsers/common/text_file.h"

using namespace triage;

namespace {

struct Target {
  SourceKind kind;
  const char* path;  // in samples/incident-910b-before-reboot
};

const Target kTargets[] = {
    {SourceKind::proc_maps, "processes/48213/maps"},
    {SourceKind::proc_mountinfo, "processes/48213/mountinfo"},
    {SourceKind::mountinfo, "mounts/mountinfo.txt"},
    {SourceKind::proc_cgroup, "processes/48213/cgroup"},
    {SourceKind::driver_version_info, "ascend/driver-version.info"},
    {SourceKind::firmware_version_info, "ascend/firmware-version.info"},
    {SourceKind::cann_install_info, "ascend/cann/c1/aarch64-linux/ascend_toolkit_install.info"},
    {SourceKind::cann_index_tsv, "ascend/cann/index.tsv"},
    {SourceKind::ascend_paths_tsv, "ascend/paths.tsv"},
    {SourceKind::packages_tsv, "processes/48213/packages.tsv"},
    {SourceKind::torch_npu_version_py, "processes/48213/torch_npu-version.py"},
};

void check_accounting(const Target& t, const std::string& data) {
  BundleFacts facts;
  ParseStats s = test::run_kind(t.kind, t.path, data, facts);
  INFO(t.path << " on " << data.size() << " bytes");
  REQUIRE(s.lines == count_lines(data));
  CHECK(s.parsed + s.unrecognised + s.malformed == s.lines);
}

std::string sample(const char* path) {
  std::ifstream in(std::filesystem::path(SAMPLES_DIR) / "incident-910b-before-reboot" / path,
                   std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("library parsers on random bytes", "[robustness]") {
  std::mt19937 rng(20260909);
  const std::string alphabet = std::string("ab=\t\n\r\\[](): -_/.'0123456789\0", 30);
  for (int round = 0; round < 200; ++round) {
    std::string data(rng() % 300, '\0');
    for (char& c : data)
      c = round % 3 == 0 ? static_cast<char>(rng() & 0xff) : alphabet[rng() % alphabet.size()];
    for (const auto& t : kTargets) check_accounting(t, data);
  }
}

TEST_CASE("library parsers on prefixes and mutations of the sample files", "[robustness]") {
  std::mt19937 rng(77);
  for (const auto& t : kTargets) {
    const std::string original = sample(t.path);
    REQUIRE(!original.empty());
    size_t step = original.size() > 3000 ? 61 : 1;
    for (size_t n = 0; n <= original.size(); n += step) check_accounting(t, original.substr(0, n));
    for (int round = 0; round < 60; ++round) {
      std::string data = original;
      for (int k = 0; k < 1 + round % 4; ++k)
        data[rng() % data.size()] = static_cast<char>(rng() & 0xff);
      check_accounting(t, data);
    }
  }
}
