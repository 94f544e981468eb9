#include "bundle_test_util.h"

#include <catch2/catch.hpp>

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bundle/byte_source.h"
#include "bundle/sha256.h"
#include "correlator/correlate.h"

extern char** environ;

namespace triage::testing {
namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string base = (fs::temp_directory_path() / "ascend-triage-test-XXXXXX").string();
  if (!mkdtemp(base.data())) throw std::runtime_error("mkdtemp failed");
  path_ = base;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_file(const std::string& path, std::string_view data) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

namespace {

la_ssize_t append_cb(archive*, void* out, const void* buf, size_t n) {
  static_cast<std::string*>(out)->append(static_cast<const char*>(buf), n);
  return static_cast<la_ssize_t>(n);
}

void add_filter(archive* a, Filter filter) {
  if (filter == Filter::gzip) archive_write_add_filter_gzip(a);
  if (filter == Filter::zstd) archive_write_add_filter_zstd(a);
}

std::string write_members(const std::vector<Member>& members, ArchiveFormat format, Filter filter) {
  std::string out;
  archive* a = archive_write_new();
  if (format == ArchiveFormat::tar) archive_write_set_format_pax_restricted(a);
  else if (format == ArchiveFormat::gnu_tar) archive_write_set_format_gnutar(a);
  else archive_write_set_format_zip(a);
  add_filter(a, filter);
  archive_write_set_bytes_in_last_block(a, 1);
  if (archive_write_open(a, &out, nullptr, append_cb, nullptr) != ARCHIVE_OK)
    throw std::runtime_error(archive_error_string(a));
  for (const auto& m : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, m.name.c_str());
    archive_entry_set_mtime(e, 1741195800, 0);
    archive_entry_set_perm(e, 0644);
    switch (m.type) {
      case EntryType::symlink:
        archive_entry_set_filetype(e, AE_IFLNK);
        archive_entry_set_symlink(e, m.link.c_str());
        break;
      case EntryType::device:
        archive_entry_set_filetype(e, AE_IFCHR);
        archive_entry_set_rdevmajor(e, 237);
        archive_entry_set_rdevminor(e, 0);
        break;
      case EntryType::fifo: archive_entry_set_filetype(e, AE_IFIFO); break;
      case EntryType::directory:
        archive_entry_set_filetype(e, AE_IFDIR);
        archive_entry_set_perm(e, 0755);
        break;
      default:
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_size(e, static_cast<la_int64_t>(m.data.size()));
    }
    if (archive_write_header(a, e) != ARCHIVE_OK) throw std::runtime_error(archive_error_string(a));
    if (m.type == EntryType::file && !m.data.empty())
      archive_write_data(a, m.data.data(), m.data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

}  // namespace

void write_archive(const std::string& path, const std::vector<Member>& members, ArchiveFormat format,
                   Filter filter) {
  write_file(path, write_members(members, format, filter));
}

std::string compress(std::string_view data, Filter filter) {
  std::string out;
  archive* a = archive_write_new();
  archive_write_set_format_raw(a);
  add_filter(a, filter);
  archive_write_set_bytes_in_last_block(a, 1);
  archive_write_open(a, &out, nullptr, append_cb, nullptr);
  archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, "data");
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
  archive_write_header(a, e);
  archive_write_data(a, data.data(), data.size());
  archive_entry_free(e);
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

std::vector<Member> sample_bundle() {
  const std::string plog =
      "[EVENT] PROFILING(618,python3):2025-03-06-01:09:06.978.203 [msprof_callback_impl.cpp:336] >>> (tid:618) Started to register profiling ctrl callback.\n"
      "[INFO] RUNTIME(618,python3):2025-03-06-01:09:06.985.224 [task_fail_callback_manager.cc:52] 618 TaskFailCallBackManager: Constructor.\n"
      "[ERROR] RUNTIME(618,python3):2025-03-06-01:09:07.262.154 [driver.cc:65]618 GetDeviceCount:Call drvGetDevNum, drvRetCode=87.\n"
      "[ERROR] ASCENDCL(618,python3):2025-03-06-01:09:07.262.594 [device.cpp:342]618 aclrtGetDeviceCount: get device count failed, runtime result = 507899.\n";
  const std::string syslog =
      "Mar  5 17:09:07 node-a kernel: [ascend] [devmm] [devmm_svm_release_proc 617] <davinci_recycle:42400,42400> Devmm release create work. (hostpid=-1)\n"
      "Mar  5 17:09:08 node-a systemd[1]: Started Session 42 of user root.\n";
  std::vector<Member> files = {
      {"system/uname.txt", "Linux node-a 5.10.0-136.12.0.86.h1032.eulerosv2r12.aarch64 #1 SMP Thu Dec 14 11:31:05 UTC 2023 aarch64 aarch64 aarch64 GNU/Linux\n"},
      {"system/time.txt", "epoch=1741195800\nutc=2025-03-05T17:30:00Z\nlocal=2025-03-06T01:30:00+08:00\nutc_offset=+0800\ntimezone=Asia/Shanghai\ntz_posix=CST-8\nclk_tck=100\n"},
      {"kernel/dmesg.txt", "[ 2081.843939] [ascend] [devmm] [devmm_alloc_svm_proc_set_to_file 662] <main:42394,42394> Devmm_set_porcess details. (status=0; proc_idx=3)\n"
                           "[ 2082.037305] [ascend] [davinci_intf] [drv_davinci_intf_sub_call_release 348] <davinci_recycle:42401> Release module success. (module_name=\"DMS\"; pid=42394)\n"},
      {"kernel/syslog/messages-20250301.gz", compress(syslog, Filter::gzip)},
      {"ascend/driver-version.info", "Version=25.0.rc1.1\nascendhal_version=7.35.23\nInnerversion=V100R001C21SPC002B220\ncompatible_version=[V100R001C17],[V100R001C18]\ncompatible_version_fw=[7.0.0,7.7.99]\npackage_version=25.0.rc1.1\n"},
      {"processes/618/environ", std::string("PATH=/usr/bin") + '\0' +
                                     "ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/8.5.0" + '\0' + "HOME=/root" + '\0'},
      {"logs/host/root/ascend/log/debug/plog/plog-618_20250306010906978.log", plog},
      {"extra/home/user/job.log", "epoch 0 step 1\nTraceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n    loss.item()\nRuntimeError: ACL stream synchronize failed.\n"},
  };
  std::string items;
  for (const auto& f : files) {
    if (!items.empty()) items += ",\n";
    items += "{\"path\": \"" + f.name + "\", \"source\": null, \"exec\": null, \"status\": \"ok\", \"bytes\": " +
             std::to_string(f.data.size()) + ", \"sha256\": \"" + sha256_hex(f.data) + "\"}";
  }
  std::string manifest = "{\"format\": \"ascend-bundle\", \"format_version\": 1, \"host\": \"node-a\", \"items\": [\n" +
                         items + "]}\n";
  std::vector<Member> all = {{"manifest.json", manifest}};
  all.insert(all.end(), files.begin(), files.end());
  all.push_back({"extra/usr/local/Ascend/ascend-toolkit/latest", "", EntryType::symlink, "8.5.0"});
  return all;
}

void write_tree(const std::string& dir, const std::vector<Member>& members) {
  for (const auto& m : members) {
    std::string path = dir + "/" + m.name;
    if (m.type == EntryType::symlink) {
      fs::create_directories(fs::path(path).parent_path());
      fs::create_symlink(m.link, path);
    } else if (m.type == EntryType::file) {
      write_file(path, m.data);
    }
  }
}

LoadResult load(const std::vector<std::string>& paths, const AnalyzeOptions& options) {
  return load_evidence(paths, options);
}

const InventoryEntry* find_entry(const BundleFacts& b, std::string_view path) {
  for (const auto& e : b.inventory.entries)
    if (e.info.path == path) return &e;
  return nullptr;
}

const Finding* find_finding(const BundleFacts& b, std::string_view id) {
  for (const auto& f : b.input_findings)
    if (f.id == id) return &f;
  return nullptr;
}

const BundleFacts& load_one(TempDir& dir, std::string_view name, std::string_view text, LoadResult& keep) {
  write_file(dir / name, text);
  keep = load({dir / name});
  REQUIRE(keep.evidence.bundles.size() == 1);
  return keep.evidence.bundles[0];
}

Report analyze_one(std::string_view name, std::string_view text) {
  TempDir dir;
  write_file(dir / name, text);
  LoadResult loaded = load({dir / name});
  return correlate(loaded.evidence, AnalyzeOptions{});
}

ParseStats parse_into(BundleFacts& facts, ParseFn fn, const std::string& path, const std::string& text) {
  ParseStats stats;
  EntryInfo entry;
  entry.path = path;
  AnalyzeOptions options;
  ParseContext ctx{entry, facts, stats, options};
  StringSource src(text);
  fn(ctx, src);
  return stats;
}

CliRun run_cli(const std::vector<std::string>& args) {
  TempDir tmp;
  std::string out_path = tmp / "stdout", err_path = tmp / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv_s = {ASCEND_TRIAGE_BIN};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  CliRun run;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0)
    throw std::runtime_error("cannot start " + argv_s[0]);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) throw std::runtime_error("wait4 failed");
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.max_rss_kib = usage.ru_maxrss;
  run.out = read_file(out_path);
  run.err = read_file(err_path);
  return run;
}

std::vector<std::string> reference_blocks(std::string_view section_number) {
  std::istringstream in(read_file(std::string(TEST_DATA_DIR) + "/fixtures/reference/real-log-excerpts.md"));
  std::string line, block;
  std::vector<std::string> blocks;
  bool in_section = false, in_block = false;
  std::string heading = "### " + std::string(section_number) + " ";
  while (std::getline(in, line)) {
    if (!in_block && line.rfind("##", 0) == 0) {
      if (in_section) break;
      in_section = line.rfind(heading, 0) == 0;
      continue;
    }
    if (!in_section) continue;
    if (line.rfind("```", 0) == 0) {
      if (in_block) blocks.push_back(block);
      in_block = !in_block;
      block.clear();
      continue;
    }
    if (in_block) block += line + "\n";
  }
  if (blocks.empty()) throw std::runtime_error("no code block in section " + std::string(section_number));
  return blocks;
}

}  // namespace triage::testing
