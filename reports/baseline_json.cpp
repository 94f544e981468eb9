// The baseline document: the chain without evidence (a baseline outlives its bundle).
#include "reports/chain_render.h"
#include "reports/json_writer.h"

namespace triage {

namespace {

void modules(JsonWriter& w, const Chain& c) {
  w.key("modules").begin_array();
  for (const auto& m : c.modules) {
    w.begin_object().field("kernel", m.kver).field("name", m.name).key("files").begin_array();
    for (const auto& f : m.files)
      w.begin_object()
          .field("path", f.path)
          .field("type", f.type)
          .field("link_target", f.link_target)
          .field("resolved_path", f.resolved_path)
          .field("build_id", f.build_id)
          .field("srcversion", f.srcversion)
          .field("vermagic", f.vermagic)
          .end_object();
    w.end_array().field("next_load", m.next_load).key("resident");
    if (m.resident)
      w.begin_object().field("build_id", m.resident_build_id).field("srcversion", m.resident_srcversion).end_object();
    else
      w.null();
    w.end_object();
  }
  w.end_array();
}

void processes(JsonWriter& w, const Chain& c) {
  w.key("processes").begin_array();
  for (const auto& p : c.processes) {
    w.begin_object().field("key", p.key).field("cmdline", p.cmdline).field("pid", p.pid).key("libraries").begin_array();
    for (const auto& l : p.libraries)
      w.begin_object()
          .field("name", l.name)
          .field("path", l.path)
          .field("version_dir", l.version_dir)
          .field("deleted", l.deleted)
          .end_object();
    w.end_array().key("environment").begin_array();
    for (const auto& [k, v] : p.environment) w.begin_object().field("name", k).field("value", v).end_object();
    w.end_array().key("mounts").begin_array();
    for (const auto& m : p.mounts)
      w.begin_object()
          .field("mount_point", m.mount_point)
          .field("root", m.root)
          .field("source", m.source)
          .field("fstype", m.fstype)
          .end_object();
    w.end_array().end_object();
  }
  w.end_array();
}

}  // namespace

void render_baseline_json(const Chain& c, std::ostream& out) {
  JsonWriter w(out);
  w.begin_object()
      .field("schema", kBaselineSchema)
      .field("generator", "ascend-triage " ASCEND_TRIAGE_VERSION)
      .field("input", c.input)
      .field("host", c.host)
      .field("collected_at", c.collected_at);
  w.key("kernel").begin_object().field("release", c.kernel_release).end_object();
  modules(w, c);
  w.key("versions").begin_array();
  for (const auto& v : c.versions)
    w.begin_object()
        .field("component", v.component)
        .field("version", v.version)
        .field("dir", v.dir)
        .field("inner_version", v.inner_version)
        .field("compatible", v.compatible)
        .field("compatible_fw", v.compatible_fw)
        .end_object();
  w.end_array().key("wheels").begin_array();
  for (const auto& wh : c.wheels)
    w.begin_object()
        .field("scope", wh.scope)
        .field("name", wh.name)
        .field("version", wh.version)
        .field("location", wh.location)
        .end_object();
  w.end_array();
  processes(w, c);
  w.end_object();
  out << '\n';
}

}  // namespace triage
