#pragma once
// Shared by the text and Markdown report tests: a Report built by hand (findings, a verdict
// with four hypotheses, a timeline) and line checks on rendered text.
#include <string>
#include <string_view>
#include <vector>

#include "model/report.h"
#include "model/time.h"
#include "reports/display_width.h"
#include "reports/text_layout.h"
#include "cjk_strings.h"

namespace report_test {

using namespace triage;

inline std::string strip_ansi(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b' && i + 1 < s.size() && s[i + 1] == '[') {
      size_t m = s.find('m', i);
      i = m == std::string_view::npos ? s.size() : m;
      continue;
    }
    out += s[i];
  }
  return out;
}

inline std::vector<std::string> lines(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    out.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

// A line wider than the report may be only when it cannot be broken: a command (a "$ "
// line, a next check that is a command, the collector's arguments) or a single token such as
// a path or an `entry:line`, after its indent, label and bullet.
inline bool unbreakable(std::string_view line) {
  size_t i = line.find_first_not_of(' ');
  if (i == std::string_view::npos) return false;
  std::string_view rest = line.substr(i);
  size_t label_end = rest.find(":  ");  // "Evidence:       x", "Arguments:  x"
  if (label_end != std::string_view::npos && rest.substr(0, label_end).find(' ') == std::string_view::npos) {
    if (rest.substr(0, label_end) == "Arguments") return true;
    rest = rest.substr(rest.find_first_not_of(' ', label_end + 1));
  } else if (rest.substr(0, 13) == "Next checks: ") {
    rest = rest.substr(rest.find_first_not_of(' ', 12));
  }
  if (rest.substr(0, 2) == "$ ") return true;
  if (rest.substr(0, 2) == "- ") rest.remove_prefix(2);
  return rest.find(' ') == std::string_view::npos || text::looks_like_command(rest);
}

// Lines wider than `width` display columns that could have been wrapped, one per line ("" = none).
inline std::string overlong_lines(std::string_view rendered, size_t width) {
  std::string bad;
  for (const auto& l : lines(strip_ansi(rendered)))
    if (display_width(l) > width && !unbreakable(l)) bad += l + "\n";
  return bad;
}

inline EvidenceRef ev(std::string entry, uint64_t line, std::string excerpt) {
  EvidenceRef e;
  e.entry = std::move(entry);
  e.line = line;
  e.excerpt = std::move(excerpt);
  return e;
}

inline constexpr std::string_view kPlog =
    "logs/host/root/ascend/log/debug/plog/plog-48213_20260904092031548.log";
inline constexpr std::string_view kStallLine =
    "[EVENT] RUNTIME(48213,python3):2026-09-04-09:25:58.713.447 [stream.cc:1402]48213 "
    "SynchronizeExecutedTask:report three minutes timeout! stream_id=47, sq_id=9, task_id=1280, "
    "sqHead=500, flip_num=0, pendingNum=781.";
inline constexpr std::string_view kLongCommand =
    "tr '\\0' '\\n' < /proc/48213/environ | grep -E 'ASCEND|LD_LIBRARY_PATH|PYTHONPATH|TASK_QUEUE_ENABLE|"
    "ASCEND_LAUNCH_BLOCKING'";
inline constexpr std::string_view kLongPath =
    "/var/lib/dkms/davinci_ascend/1.0/5.15.0-119-generic/aarch64/module/drv_pcie_host.ko";

inline Finding finding(std::string id, Severity sev, std::string title) {
  Finding f;
  f.id = std::move(id);
  f.severity = sev;
  f.confidence = Confidence::high;
  f.title = std::move(title);
  return f;
}

// Findings as sort_findings() leaves them, a verdict that links them, a timeline.
inline Report sample_report() {
  Report r;
  Finding stall = finding("stream-stall", Severity::critical,
                          "Stream 47 of pid 48213 made no progress for 18 minutes (7 samples, head unmoved)");
  stall.host = "ascend-node07";
  stall.observed =
      "Seven `report three minutes timeout` samples of stream 47 from 09:25:58 to 09:43:58 local, "
      "180 s apart, all with task_id=1280, sqHead=500 and pendingNum=781: the queue head did not "
      "move and nothing completed while 781 tasks were pending.";
  stall.supports = "The device made no progress on the first batch: a hang, not a slow step.";
  stall.does_not_prove = "Which operator or which component failed; the stream number itself means nothing.";
  stall.next_checks = {"npu-smi info -t usages -i 0", std::string(kLongCommand),
                       "Check /proc/<pid>/environ of the new run: tr '\\0' '\\n' < /proc/<pid>/environ | grep ASCEND",
                       "look for `report three minutes timeout` and ERROR lines of the same pid before it"};
  stall.evidence = {ev(std::string(kPlog), 1402, std::string(kStallLine)),
                    ev(std::string(kPlog), 4410, std::string(kStallLine))};

  Finding modules = finding("module-provenance/stale-dkms-links", Severity::error,
                            "Resident driver modules come from a stale DKMS build, not the installed 26.0.rc1");
  modules.observed = "drv_pcie_host resolves to " + std::string(kLongPath) +
                     " (a link into the DKMS tree of driver 25.5.1) while the installed user space is 26.0.rc1.";
  modules.supports = "Host driver installation residue.";
  modules.does_not_prove = "That every timeout comes from it.";
  modules.next_checks = {"modprobe --show-depends drv_pcie_host"};
  modules.evidence = {ev("modules/tree.tsv", 19, "updates/dkms/drv_pcie_host.ko\tlink\t" + std::string(kLongPath))};

  Finding zh = finding("python-traceback/observation-point", Severity::warning,
                       "训练停在第一个 batch，最终报出流同步超时");
  zh.observed = std::string(test::kZhOpening);
  zh.does_not_prove = "Python 栈落在 loss 中一次很普通的张量创建上：这是观察点，不是故障点。";
  zh.evidence = {ev("extra/root/work/det/train_0904.log", 88,
                    "RuntimeError: copy_between_host_and_device_opapi:... error code is 107020 \x1b[31m\xff")};

  Finding info = finding("probe-results/pass", Severity::info, "ones_copyback, cpu_rand_h2d and matmul passed");
  r.findings = {stall, modules, zh, info};

  Verdict& v = r.verdict;
  v.summary = "Host driver installation residue is the most likely cause: the resident modules come "
              "from a stale DKMS build while user space is 26.0.rc1; the stall of stream 47 is its effect.";
  Hypothesis h1;
  h1.id = "host-driver-installation";
  h1.title = "Host driver installation residue (stale DKMS modules resident)";
  h1.host = "ascend-node07";
  h1.score = 7.5;
  h1.confidence = Confidence::high;
  h1.rationale = "Resident modules from another installation, depmod warnings about unknown symbols, "
                 "and device probes that time out outside the model.";
  h1.supporting = {{"module-provenance/stale-dkms-links", 1, "resident build ids match the links"}};
  h1.consequences = {{"stream-stall", 0, "the stalled stream is what the broken chain looks like"}};
  h1.does_not_prove = "That the firmware is damaged, or that every timeout comes from the stale modules.";
  Hypothesis h2;
  h2.id = "device-hardware";
  h2.title = "Device hardware fault";
  h2.score = 2;
  h2.confidence = Confidence::low;
  h2.supporting = {{"stream-stall", 0, ""}};
  h2.contradicting = {{"probe-results/pass", 3, "basic device work passes on another device"}};
  Hypothesis h3;
  h3.id = "application-code";
  h3.title = "Application code";
  h3.confidence = Confidence::low;
  h3.contradicting = {{"python-traceback/observation-point", 2, "the traceback is an observation point"}};
  Hypothesis h4;
  h4.id = "cann-wheel-mismatch";
  h4.title = "CANN / wheel mismatch";
  h4.confidence = Confidence::low;
  v.ranked = {h1, h2, h3, h4};
  v.next_check.separates = "host-driver-installation vs device-hardware";
  v.next_check.description = "Compare the resident module's srcversion with each candidate file: equal to "
                             "the DKMS target means the stale set is loaded.";
  v.next_check.command = "cat /sys/module/drv_pcie_host/srcversion; modinfo -F srcversion " + std::string(kLongPath);
  v.collect_more = {"ascend-collect.sh --probes --boots 2 --add /root/work/det/train_0904.log"};

  for (int i = 0; i < 20; ++i) {
    TimelineEvent e;
    e.first_utc_us = e.last_utc_us = civil_to_epoch_us({2026, 9, 4, 1, 20 + i, 28, 0});
    e.source = i % 2 ? "plog" : "journal";
    e.kind = "log-line";
    e.severity = i == 5 ? Severity::critical : i % 4 == 0 ? Severity::error : Severity::info;
    e.message = i == 5 ? "SynchronizeExecutedTask: report three minutes timeout! stream_id=47" : "line " + std::to_string(i);
    e.local_offset_seconds = 8 * 3600;
    e.evidence = ev(std::string(kPlog), 100 + i, e.message);
    if (i == 5) {
      e.count = 7;
      e.last_utc_us = e.first_utc_us + 18 * 60 * 1000000LL;
    }
    r.timeline.events.push_back(e);
  }
  return r;
}

}  // namespace report_test
