#include "parsers/job/framework_env_parser.h"

#include <array>
#include <cstring>
#include <optional>
#include <utility>

#include "model/package_rows.h"
#include "parsers/common/text_file.h"

namespace triage {
namespace {

using sv = std::string_view;

// "<Name> version: <v>" lines and the package each names.
constexpr std::array<std::pair<sv, sv>, 17> kVersionLines = {{
    {"`Accelerate` version", "accelerate"},  // accelerate env
    {"PyTorch version (GPU?)", "torch"},
    {"Numpy version", "numpy"},
    {"Python version", "python"},
    {"Transformers version", "transformers"},
    {"PyTorch version", "torch"},
    {"vLLM Version", "vllm"},
    {"vLLM Ascend Version", "vllm-ascend"},
    {"MindSpore version", "mindspore"},
    {"torch_npu version", "torch-npu"},
    {"torch-npu version", "torch-npu"},
    {"torch_npu Version", "torch-npu"},
    {"vLLM Ascend version", "vllm-ascend"},
    {"PyTorch", "torch"},  // mmengine's collect_env: "PyTorch: 2.1.0"
    {"TorchVision", "torchvision"},
    {"LMDeploy", "lmdeploy"},
    {"transformers", "transformers"},
}};

sv first_word(sv s) {
  s = trim(s);
  return s.substr(0, s.find_first_of(" \t"));
}

// "sglang", "sgl_kernel", "flashinfer_python", "python-multipart": no capital, no blank.
bool is_package_name(sv k) {
  if (k.empty() || k.size() > 60 || k[0] < 'a' || k[0] > 'z') return false;
  for (char c : k)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.')) return false;
  return true;
}

bool is_rule(sv t) { return t.size() >= 3 && t.find_first_not_of('=') == sv::npos; }

// "OS: Ubuntu 22.04.5 LTS (aarch64)", "CPU op-mode(s):   64-bit", "ENV Variables:"
bool is_field(sv t) {
  size_t colon = t.find(':');
  if (colon == sv::npos || colon == 0 || colon > 60) return false;
  char c = t[0];
  return ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '`') &&
         (colon + 1 == t.size() || t[colon + 1] == ' ');
}

// "ATB_HOME_PATH=/usr/local/Ascend/..." of the ENV Variables section.
bool is_env_line(sv t) {
  size_t eq = t.find('=');
  if (eq == sv::npos || eq == 0) return false;
  for (char c : t.substr(0, eq))
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// vLLM's logger: "INFO 03-26 02:34:58 [__init__.py:30] ..."
bool is_vllm_log(sv t) {
  sv level = t.substr(0, t.find(' '));
  if (level != "INFO" && level != "WARNING" && level != "ERROR" && level != "DEBUG") return false;
  sv rest = t.substr(level.size());
  return rest.size() > 17 && rest[0] == ' ' && rest[3] == '-' && rest[6] == ' ' && rest[9] == ':' &&
         rest[15] == ' ' && rest[16] == '[';
}

}  // namespace

void parse_framework_env(ParseContext& ctx, ByteSource& src) {
  std::string text = read_small_entry(ctx, src);
  if (refuse_tool_error(ctx, text)) return;
  LibraryFacts& lf = ctx.facts.libraries;
  auto add = [&](sv name, sv version, const TextLine& line) {
    version = first_word(version);
    if (version.empty() || version == "Could" || version == "N/A" || version == "None") return;
    add_default_pip(lf, name, version, "collect-env", evidence_at(ctx, line));
  };
  // The CANN block (`CANN:` then an *_install.info: package_name=Ascend-cann-toolkit, version=...)
  // when no table stands between it and the report: a CANN version file of its own.
  std::optional<VersionFile> cann;
  auto close_cann = [&] {
    if (cann) lf.cann_files.push_back(std::move(*cann));
    cann.reset();
  };
  for_each_line(text, [&](const TextLine& line) {
    sv t = trim(line.text);
    if (t.starts_with("package_name=Ascend-cann-")) {
      close_cann();
      cann.emplace();
      cann->entry = ctx.entry.path;
      cann->component = std::string(t.substr(std::strlen("package_name=Ascend-cann-")));
    }
    size_t eq = t.find('=');
    if (cann && eq != sv::npos && eq > 0 && t[0] >= 'a' && t[0] <= 'z') {
      cann->lines.push_back(KeyValueLine{std::string(t.substr(0, eq)), std::string(t.substr(eq + 1)), evidence_at(ctx, line)});
      ++ctx.stats.parsed;
      return;
    }
    close_cann();
    // accelerate env's "- key: value" list; torch's build settings under "PyTorch built with:"
    bool item = t.starts_with("- ");
    if (item) t.remove_prefix(2);
    if (t.empty() || is_rule(t) || t == "Collecting environment information..." ||
        t == "Copy-and-paste the text below in your GitHub issue" ||
        t.starts_with("The result of multiplication ca")) {
      ++ctx.stats.parsed;
      return;
    }
    if (t.starts_with("[pip3] ") || t.starts_with("[pip] ")) {
      sv spec = trim(t.substr(t.find(' ') + 1));
      size_t eq = spec.find("==");
      if (eq != sv::npos && eq > 0) add(spec.substr(0, eq), spec.substr(eq + 2), line);
      ++ctx.stats.parsed;
      return;
    }
    if (t.starts_with("[conda] ")) {  // the conda view of the same packages
      ++ctx.stats.parsed;
      return;
    }
    size_t colon = t.find(':');
    if (colon != sv::npos) {
      sv key = trim(t.substr(0, colon));
      for (const auto& [label, package] : kVersionLines)
        if (key == label) {
          add(package, t.substr(colon + 1), line);
          ++ctx.stats.parsed;
          return;
        }
      // `llamafactory-cli env`'s "- CANN version: 8.3.RC1": the CANN torch_npu runs with, a
      // toolkit version of its own.
      if (key == "CANN version") {
        sv v = first_word(t.substr(colon + 1));
        if (!v.empty() && v[0] >= '0' && v[0] <= '9' && lf.cann_files.size() < 64) {  // a paste, not a flood
          VersionFile f;
          f.entry = ctx.entry.path;
          f.component = "toolkit";
          f.lines.push_back(KeyValueLine{"version", std::string(v), evidence_at(ctx, line)});
          lf.cann_files.push_back(std::move(f));
        }
        ++ctx.stats.parsed;
        return;
      }
      // Any other "<Name> version: <v>" ("- `llamafactory` version: 0.9.4.dev0", "- PEFT
      // version: 0.17.1"): the package is the name in lower case.
      if (item && key.size() > 8 && key.ends_with(" version")) {
        sv name = key.substr(0, key.size() - 8);
        if (name.size() > 2 && name.front() == '`' && name.back() == '`') name = name.substr(1, name.size() - 2);
        std::string lower(name);
        for (char& c : lower) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        sv v = first_word(t.substr(colon + 1));
        if (is_package_name(lower) && !v.empty() && v[0] >= '0' && v[0] <= '9') {
          add(lower, v, line);
          ++ctx.stats.parsed;
          return;
        }
      }
      // SGLang's and LMDeploy's check_env: "sglang: 0.5.0rc2", "sgl_kernel: Module Not Found":
      // a lower-case package name and a version with a dot (a missing module names none, and
      // mmengine's `numpy_random_seed: 2147483648` is a number, not a version).
      sv value = trim(t.substr(colon + 1));
      sv token = value.substr(0, value.find_first_of(" \t"));
      if (is_package_name(key) && !token.empty() && token[0] >= '0' && token[0] <= '9' &&
          token.find('.') != sv::npos) {
        add(key, value, line);
        ++ctx.stats.parsed;
        return;
      }
    }
    if (!item && is_env_line(t)) {
      size_t eq = t.find('=');
      lf.reported_env.push_back(KeyValueLine{std::string(t.substr(0, eq)), std::string(t.substr(eq + 1)),
                                             evidence_at(ctx, line)});
      ++ctx.stats.parsed;
      return;
    }
    if (item || is_field(t) || is_vllm_log(t)) ++ctx.stats.parsed;
    else ++ctx.stats.unrecognised;
  });
  close_cann();
  // Every line here was judged by its shape.
  ctx.stats.lines_recognised = ctx.stats.parsed;
  ctx.stats.lines_unrecognised = ctx.stats.unrecognised + ctx.stats.malformed;
}

}  // namespace triage
