#include "cli/fleet_map.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

extern char** environ;

namespace triage::cli {

namespace fs = std::filesystem;

namespace {

bool is_bundle_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p / "manifest.json", ec);
}

bool is_archive(const std::string& name) {
  for (std::string_view ext : {".tar", ".tar.gz", ".tgz", ".tar.zst", ".tar.xz", ".zip"})
    if (name.ends_with(ext)) return true;
  return false;
}

// One argument: a summary (.json), a bundle (directory with manifest.json, or an archive), or a
// directory of those (one level, in name order).
bool add_input(const std::string& arg, FleetInputs& out) {
  std::error_code ec;
  fs::path p(arg);
  if (fs::is_directory(p, ec)) {
    if (is_bundle_dir(p)) {
      out.bundles.push_back(arg);
      return true;
    }
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(p, ec)) names.push_back(e.path().filename().string());
    if (ec) {
      std::cerr << "ascend-triage: " << arg << ": cannot list: " << ec.message() << '\n';
      return false;
    }
    std::sort(names.begin(), names.end());
    size_t before = out.summaries.size() + out.bundles.size();
    for (const auto& n : names) {
      fs::path c = p / n;
      if (fs::is_directory(c, ec) && is_bundle_dir(c)) out.bundles.push_back(c.string());
      else if (fs::is_regular_file(c, ec) && n.ends_with(".json")) out.summaries.push_back(c.string());
      else if (fs::is_regular_file(c, ec) && is_archive(n)) out.bundles.push_back(c.string());
    }
    if (out.summaries.size() + out.bundles.size() == before) {
      std::cerr << "ascend-triage: " << arg
                << ": holds no summary (*.json), bundle directory (with manifest.json) or bundle archive\n";
      return false;
    }
    return true;
  }
  if (!fs::is_regular_file(p, ec)) {
    std::cerr << "ascend-triage: " << arg << ": no such file or directory\n";
    return false;
  }
  if (is_archive(arg)) out.bundles.push_back(arg);
  else out.summaries.push_back(arg);
  return true;
}

}  // namespace

bool expand_fleet_inputs(const std::vector<std::string>& args, FleetInputs& out) {
  for (const auto& a : args) {
    if (!a.starts_with("@")) {
      if (!add_input(a, out)) return false;
      continue;
    }
    std::ifstream list(a.substr(1));
    if (!list) {
      std::cerr << "ascend-triage: " << a.substr(1) << ": cannot open the list\n";
      return false;
    }
    std::string line;
    size_t line_no = 0;
    while (std::getline(list, line)) {
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() || line.front() == '#') continue;
      if (!add_input(line, out)) {
        std::cerr << "ascend-triage: (named by " << a.substr(1) << ":" << line_no << ")\n";
        return false;
      }
    }
  }
  return true;
}

bool map_bundles(const std::vector<std::string>& bundles, const std::string& dir, unsigned jobs,
                 const std::vector<std::string>& global_args, bool quiet,
                 std::vector<std::string>& summaries) {
  std::string self = fs::read_symlink("/proc/self/exe").string();
  std::map<pid_t, size_t> running;  // child -> bundle index
  std::vector<std::string> outputs(bundles.size());
  bool ok = true;
  size_t next = 0, done = 0;
  auto reap_one = [&]() {
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    auto it = running.find(pid);
    if (pid < 0 || it == running.end()) return;
    size_t i = it->second;
    running.erase(it);
    ++done;
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (rc > 1) {  // 0: nothing found, 1: findings; anything else: no summary
      std::cerr << "ascend-triage: " << bundles[i] << ": cannot analyse (analyze exited " << rc << ")\n";
      ok = false;
    } else {
      summaries.push_back(outputs[i]);
    }
    if (!quiet && isatty(STDERR_FILENO))
      std::cerr << "\rmapped " << done << "/" << bundles.size() << (done == bundles.size() ? "\n" : "") << std::flush;
  };
  while (next < bundles.size() || !running.empty()) {
    if (next < bundles.size() && running.size() < jobs) {
      size_t i = next++;
      outputs[i] = (fs::path(dir) / (std::to_string(i) + ".summary.json")).string();
      std::vector<std::string> argv_s = {self};
      argv_s.insert(argv_s.end(), global_args.begin(), global_args.end());
      for (const char* a : {"--quiet", "--color", "never", "analyze", "--format", "summary", "-o"})
        argv_s.emplace_back(a);
      argv_s.push_back(outputs[i]);
      argv_s.push_back("--");
      argv_s.push_back(bundles[i]);
      std::vector<char*> argv;
      for (auto& s : argv_s) argv.push_back(s.data());
      argv.push_back(nullptr);
      pid_t pid;
      if (int err = posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), environ)) {
        std::cerr << "ascend-triage: " << bundles[i] << ": cannot start the map step: " << std::strerror(err) << '\n';
        ok = false;
        continue;
      }
      running.emplace(pid, i);
      continue;
    }
    reap_one();
  }
  std::sort(summaries.begin(), summaries.end());
  return ok;
}

}  // namespace triage::cli
