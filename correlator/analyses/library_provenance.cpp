// library-provenance: per process, the CANN / driver / torch_npu libraries it maps and the
// install each belongs to. Faults: libraries of several CANN installs in one process (error),
// "(deleted)" Ascend mappings (warning: the files were replaced after the process started),
// libraries of another CANN than ASCEND_HOME_PATH / ASCEND_TOOLKIT_HOME name (warning).
#include "correlator/analyses/library_provenance.h"

#include <fmt/format.h>

namespace triage {
namespace {

bool has(std::string_view s, std::string_view w) { return s.find(w) != std::string_view::npos; }

bool under(std::string_view path, std::string_view dir) {
  if (dir.empty()) return false;
  while (dir.size() > 1 && dir.back() == '/') dir.remove_suffix(1);
  return path == dir || (path.starts_with(dir) && path.size() > dir.size() && path[dir.size()] == '/');
}

// "/usr/local/Ascend/cann-9.1.0/..." -> dir and version of the first "<name>-<version>" or
// "ascend-toolkit/<version>" component.
std::optional<CannRef> cann_from_name(std::string_view path) {
  size_t at = path.find("/cann-");
  if (at != std::string_view::npos) {
    size_t end = path.find('/', at + 1);
    if (end == std::string_view::npos) end = path.size();
    return CannRef{std::string(path.substr(0, end)), std::string(path.substr(at + 6, end - at - 6))};
  }
  for (std::string_view root : {"/ascend-toolkit/", "/nnae/"}) {
    at = path.find(root);
    if (at == std::string_view::npos) continue;
    size_t start = at + root.size();
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view ver = path.substr(start, end - start);
    if (ver.empty() || ver == "latest" || ver == "set_env.sh") continue;
    return CannRef{std::string(path.substr(0, end)), std::string(ver)};
  }
  return std::nullopt;
}

std::string pid_text(int64_t pid) { return std::to_string(pid); }

}  // namespace

std::string_view to_string(LibOrigin o) {
  switch (o) {
    case LibOrigin::none: return "none";
    case LibOrigin::cann: return "cann";
    case LibOrigin::driver: return "driver";
    case LibOrigin::torch_npu: return "torch_npu";
    case LibOrigin::dcmi: return "dcmi";
    case LibOrigin::nnal: return "nnal";
    case LibOrigin::other_ascend: return "other-ascend";
  }
  return "none";
}

LibOrigin origin_of(std::string_view path) {
  if (has(path, "/torch_npu/")) return LibOrigin::torch_npu;
  if (has(path, "/Ascend/driver/")) return LibOrigin::driver;
  if (has(path, "/dcmi/")) return LibOrigin::dcmi;
  if (has(path, "/nnal/")) return LibOrigin::nnal;
  if (cann_from_name(path) || has(path, "/Ascend/cann/")) return LibOrigin::cann;
  if (has(path, "/Ascend/")) return LibOrigin::other_ascend;
  return LibOrigin::none;
}

std::optional<CannRef> cann_of_path(std::string_view path, const LibraryFacts& lf) {
  for (const auto& row : lf.cann_index)
    if (under(path, row.install_dir) || under(path, row.resolved_dir)) {
      bool via_link = !under(path, row.resolved_dir);
      CannRef r{row.resolved_dir.empty() || via_link ? row.install_dir : row.resolved_dir,
                row.version};
      if (auto named = cann_from_name(r.install); named && r.version.empty())
        r.version = named->version;
      return r;
    }
  return cann_from_name(path);
}

std::vector<MappedCann> mapped_canns(const ProcessLibraries& p, const LibraryFacts& lf) {
  std::vector<MappedCann> out;
  for (const auto& f : p.files) {
    if (origin_of(f.path) != LibOrigin::cann) continue;
    auto c = cann_of_path(f.path, lf);
    if (!c) continue;
    MappedCann* slot = nullptr;
    for (auto& m : out)
      if (m.cann.install == c->install) slot = &m;
    if (!slot) slot = &out.emplace_back(MappedCann{*c, {}});
    slot->files.push_back(&f);
  }
  return out;
}

const MappedFile* mapped_torch_npu(const ProcessLibraries& p) {
  for (const auto& f : p.files)
    if (f.path.ends_with("/libtorch_npu.so")) return &f;
  return nullptr;
}

void analyze_library_provenance(const AnalysisContext& ctx, std::vector<Finding>& out) {
  const EvidenceSet& evidence = ctx.evidence;
  for (const auto& b : evidence.bundles) {
    const LibraryFacts& lf = b.libraries;
    for (const auto& [pid, p] : lf.by_pid) {
      if (!p.has_maps) continue;
      auto canns = mapped_canns(p, lf);
      size_t driver = 0, torch_npu = 0;
      std::vector<const MappedFile*> deleted;
      for (const auto& f : p.files) {
        LibOrigin o = origin_of(f.path);
        driver += o == LibOrigin::driver;
        torch_npu += o == LibOrigin::torch_npu;
        if (o != LibOrigin::none && f.deleted) deleted.push_back(&f);
      }
      std::string installs;
      for (const auto& c : canns)
        installs += fmt::format("{}{} ({} libraries)", installs.empty() ? "" : ", ",
                                c.cann.install, c.files.size());
      Finding s;
      s.id = "library-provenance";
      s.severity = Severity::info;
      s.confidence = Confidence::high;
      s.host = b.host;
      s.observed = fmt::format("{} file mappings: CANN {}, driver {}, torch_npu {}",
                               p.files.size(), canns.empty() ? "none" : installs, driver, torch_npu);
      render_finding_words(s, ctx.finding_texts, {{"pid", pid_text(pid)}, {"installs", installs}},
                           canns.empty() ? "no-cann" : "");
      for (const auto& c : canns) s.evidence.push_back(c.files.front()->evidence);
      if (const MappedFile* t = mapped_torch_npu(p)) s.evidence.push_back(t->evidence);
      s.value("pid", pid_text(pid)).value("cann_installs", std::to_string(canns.size()));
      for (const auto& c : canns) s.value("cann", c.cann.install + " " + c.cann.version);
      if (s.evidence.empty() && !p.files.empty()) s.evidence.push_back(p.files.front().evidence);
      if (!s.evidence.empty()) out.push_back(std::move(s));

      if (canns.size() > 1) {
        Finding f;
        f.id = "library-provenance/multiple-cann";
        f.severity = Severity::error;
        f.confidence = Confidence::high;
        f.host = b.host;
        f.observed = "maps " + installs;
        render_finding_words(f, ctx.finding_texts, {{"pid", pid_text(pid)}, {"count", std::to_string(canns.size())}});
        for (const auto& c : canns) f.evidence.push_back(c.files.front()->evidence);
        f.value("pid", pid_text(pid));
        for (const auto& c : canns) f.value("cann", c.cann.install + " " + c.cann.version);
        out.push_back(std::move(f));
      }
      if (!deleted.empty()) {
        Finding f;
        f.id = "library-provenance/deleted-mapping";
        f.severity = Severity::warning;
        f.confidence = Confidence::high;
        f.host = b.host;
        f.observed = fmt::format("first: {} (deleted)", deleted.front()->path);
        render_finding_words(f, ctx.finding_texts,
                             {{"pid", pid_text(pid)}, {"deleted", std::to_string(deleted.size())}},
                             deleted.size() == 1 ? "one" : "");
        for (size_t i = 0; i < deleted.size() && i < 5; ++i)
          f.evidence.push_back(deleted[i]->evidence);
        f.value("pid", pid_text(pid)).value("deleted", std::to_string(deleted.size()));
        out.push_back(std::move(f));
      }
      // Libraries of another CANN than the environment names.
      auto proc = b.processes.by_pid.find(pid);
      if (proc == b.processes.by_pid.end() || canns.empty()) continue;
      for (std::string_view var : {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"}) {
        const std::string* v = proc->second.env(var);
        if (!v || v->empty()) continue;
        auto named = cann_of_path(*v + "/", lf);
        if (!named) continue;
        bool match = false;
        for (const auto& c : canns)
          match |= c.cann.install == named->install ||
                   (!named->version.empty() && c.cann.version == named->version);
        if (match) continue;
        Finding f;
        f.id = "library-provenance/foreign-cann";
        f.severity = Severity::warning;
        f.confidence = Confidence::medium;
        f.host = b.host;
        f.observed = fmt::format("{}={}; mapped: {}", var, *v, installs);
        render_finding_words(f, ctx.finding_texts,
                             {{"pid", pid_text(pid)}, {"mapped", canns.front().cann.version},
                              {"variable", std::string(var)}, {"named", named->version.empty() ? *v : named->version}});
        f.evidence.push_back(canns.front().files.front()->evidence);
        if (!proc->second.evidence.empty()) f.evidence.push_back(proc->second.evidence.front());
        f.value("pid", pid_text(pid)).value("variable", std::string(var)).value("named", *v);
        out.push_back(std::move(f));
        break;
      }
    }
  }
}

}  // namespace triage
