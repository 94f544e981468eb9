#include "compare/baseline_read.h"

#include <simdjson.h>

#include <fstream>
#include <sstream>

namespace triage {
namespace {

namespace dom = simdjson::dom;

// Reading stops at the first problem; `where` is the JSON path of the value being read.
struct Reader {
  std::string problem;

  bool fail(const std::string& where, const std::string& what) {
    if (problem.empty()) problem = (where.empty() ? "/" : where) + ": " + what;
    return false;
  }
  bool str(dom::object o, const std::string& where, std::string_view key, std::string& out, bool required = false) {
    dom::element e;
    if (o[key].get(e)) return required ? fail(where, "missing \"" + std::string(key) + "\"") : true;
    if (e.is_null()) return true;
    std::string_view s;
    if (e.get(s)) return fail(where + "/" + std::string(key), "expected a string");
    out = std::string(s);
    return true;
  }
  bool array(dom::object o, const std::string& where, std::string_view key, dom::array& out) {
    dom::element e;
    if (o[key].get(e)) return fail(where, "missing \"" + std::string(key) + "\"");
    if (e.get(out)) return fail(where + "/" + std::string(key), "expected an array");
    return true;
  }
  bool object(dom::element e, const std::string& where, dom::object& out) {
    if (e.get(out)) return fail(where, "expected an object");
    return true;
  }
};

bool read_modules(Reader& r, dom::object root, Chain& c) {
  dom::array arr;
  if (!r.array(root, "", "modules", arr)) return false;
  size_t i = 0;
  for (dom::element e : arr) {
    std::string w = "/modules/" + std::to_string(i++);
    dom::object o;
    ChainModule m;
    if (!r.object(e, w, o) || !r.str(o, w, "kernel", m.kver, true) || !r.str(o, w, "name", m.name, true) ||
        !r.str(o, w, "next_load", m.next_load))
      return false;
    dom::array files;
    if (!r.array(o, w, "files", files)) return false;
    size_t k = 0;
    for (dom::element fe : files) {
      std::string fw = w + "/files/" + std::to_string(k++);
      dom::object fo;
      ChainModuleFile f;
      if (!r.object(fe, fw, fo) || !r.str(fo, fw, "path", f.path, true) || !r.str(fo, fw, "type", f.type, true) ||
          !r.str(fo, fw, "link_target", f.link_target) || !r.str(fo, fw, "resolved_path", f.resolved_path) ||
          !r.str(fo, fw, "build_id", f.build_id) || !r.str(fo, fw, "srcversion", f.srcversion) ||
          !r.str(fo, fw, "vermagic", f.vermagic))
        return false;
      m.files.push_back(std::move(f));
    }
    dom::element res;
    if (!o["resident"].get(res) && !res.is_null()) {
      dom::object ro;
      if (!r.object(res, w + "/resident", ro) || !r.str(ro, w + "/resident", "build_id", m.resident_build_id) ||
          !r.str(ro, w + "/resident", "srcversion", m.resident_srcversion))
        return false;
      m.resident = true;
    }
    c.modules.push_back(std::move(m));
  }
  return true;
}

bool read_versions_wheels(Reader& r, dom::object root, Chain& c) {
  dom::array arr;
  if (!r.array(root, "", "versions", arr)) return false;
  size_t i = 0;
  for (dom::element e : arr) {
    std::string w = "/versions/" + std::to_string(i++);
    dom::object o;
    ChainVersion v;
    if (!r.object(e, w, o) || !r.str(o, w, "component", v.component, true) || !r.str(o, w, "version", v.version, true) ||
        !r.str(o, w, "dir", v.dir) || !r.str(o, w, "inner_version", v.inner_version) ||
        !r.str(o, w, "compatible", v.compatible) || !r.str(o, w, "compatible_fw", v.compatible_fw))
      return false;
    c.versions.push_back(std::move(v));
  }
  if (!r.array(root, "", "wheels", arr)) return false;
  i = 0;
  for (dom::element e : arr) {
    std::string w = "/wheels/" + std::to_string(i++);
    dom::object o;
    ChainWheel wh;
    if (!r.object(e, w, o) || !r.str(o, w, "scope", wh.scope, true) || !r.str(o, w, "name", wh.name, true) ||
        !r.str(o, w, "version", wh.version, true) || !r.str(o, w, "location", wh.location))
      return false;
    c.wheels.push_back(std::move(wh));
  }
  return true;
}

bool read_process(Reader& r, dom::object o, const std::string& w, ChainProcess& p) {
  if (!r.str(o, w, "key", p.key, true) || !r.str(o, w, "cmdline", p.cmdline)) return false;
  dom::element pid;
  if (!o["pid"].get(pid) && pid.get(p.pid)) return r.fail(w + "/pid", "expected an integer");
  dom::array arr;
  if (!r.array(o, w, "libraries", arr)) return false;
  size_t i = 0;
  for (dom::element e : arr) {
    std::string lw = w + "/libraries/" + std::to_string(i++);
    dom::object lo;
    ChainLibrary l;
    if (!r.object(e, lw, lo) || !r.str(lo, lw, "name", l.name, true) || !r.str(lo, lw, "path", l.path, true) ||
        !r.str(lo, lw, "version_dir", l.version_dir))
      return false;
    dom::element del;
    if (!lo["deleted"].get(del) && del.get(l.deleted)) return r.fail(lw + "/deleted", "expected a boolean");
    p.libraries.push_back(std::move(l));
  }
  if (!r.array(o, w, "environment", arr)) return false;
  i = 0;
  for (dom::element e : arr) {
    std::string ew = w + "/environment/" + std::to_string(i++);
    dom::object eo;
    std::string name, value;
    if (!r.object(e, ew, eo) || !r.str(eo, ew, "name", name, true) || !r.str(eo, ew, "value", value, true))
      return false;
    p.environment.emplace_back(std::move(name), std::move(value));
  }
  if (!r.array(o, w, "mounts", arr)) return false;
  i = 0;
  for (dom::element e : arr) {
    std::string mw = w + "/mounts/" + std::to_string(i++);
    dom::object mo;
    ChainMount m;
    if (!r.object(e, mw, mo) || !r.str(mo, mw, "mount_point", m.mount_point, true) || !r.str(mo, mw, "root", m.root) ||
        !r.str(mo, mw, "source", m.source) || !r.str(mo, mw, "fstype", m.fstype))
      return false;
    p.mounts.push_back(std::move(m));
  }
  return true;
}

}  // namespace

bool looks_like_baseline(std::string_view head) {
  size_t i = head.find_first_not_of(" \t\r\n");
  return i != std::string_view::npos && head[i] == '{' &&
         head.find("\"ascend-triage-baseline/") != std::string_view::npos;
}

bool read_baseline(const std::string& path, Chain& c, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error = path + ": cannot open", false;
  // A baseline is tens of kilobytes; a huge file is not one (and is not read into memory).
  constexpr std::streamoff kMaxBytes = 64 << 20;
  in.seekg(0, std::ios::end);
  if (in.tellg() > kMaxBytes) return error = path + ": larger than 64 MiB, not a baseline", false;
  in.seekg(0);
  std::ostringstream text;
  text << in.rdbuf();
  dom::parser parser;
  dom::element doc;
  if (auto e = parser.parse(simdjson::padded_string(text.str())).get(doc))
    return error = path + ": not valid JSON (" + simdjson::error_message(e) + ")", false;
  Reader r;
  dom::object root;
  std::string schema;
  bool ok = r.object(doc, "", root) && r.str(root, "", "schema", schema, true);
  if (ok && schema != kBaselineSchema)
    ok = r.fail("/schema", "\"" + schema + "\" is not " + std::string(kBaselineSchema));
  ok = ok && r.str(root, "", "input", c.input) && r.str(root, "", "host", c.host) &&
       r.str(root, "", "collected_at", c.collected_at);
  dom::element kernel;
  dom::object ko;
  if (ok && !root["kernel"].get(kernel))
    ok = r.object(kernel, "/kernel", ko) && r.str(ko, "/kernel", "release", c.kernel_release);
  ok = ok && read_modules(r, root, c) && read_versions_wheels(r, root, c);
  dom::array procs;
  ok = ok && r.array(root, "", "processes", procs);
  size_t i = 0;
  if (ok)
    for (dom::element e : procs) {
      std::string w = "/processes/" + std::to_string(i++);
      dom::object o;
      ChainProcess p;
      if (!(ok = r.object(e, w, o) && read_process(r, o, w, p))) break;
      c.processes.push_back(std::move(p));
    }
  if (!ok) return error = path + ": not a valid baseline: " + r.problem, false;
  c.input = path;  // the diff names the file it was given, not the bundle it was made from
  return true;
}

}  // namespace triage
