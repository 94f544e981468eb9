#include "bundle/member_name.h"

#include <vector>

namespace triage {

NormalisedName normalise_member_name(std::string_view raw) {
  NormalisedName out;
  out.unsafe = !raw.empty() && raw.front() == '/';
  std::vector<std::string_view> parts;
  size_t pos = 0;
  while (pos <= raw.size()) {
    size_t slash = raw.find('/', pos);
    if (slash == std::string_view::npos) slash = raw.size();
    std::string_view part = raw.substr(pos, slash - pos);
    pos = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      out.unsafe = true;
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out.path += '/';
    out.path += escape_control_bytes(parts[i]);
  }
  return out;
}

std::string escape_control_bytes(std::string_view name) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(name.size());
  for (char ch : name) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

std::string_view first_component(std::string_view path) {
  size_t slash = path.find('/');
  return slash == std::string_view::npos ? std::string_view{} : path.substr(0, slash);
}

std::string_view strip_first_component(std::string_view path) {
  size_t slash = path.find('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view base_name(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool is_bundle_root_name(std::string_view dir) {
  return dir.size() > 14 && dir.substr(0, 14) == "ascend-bundle-";
}

std::string_view to_string(Compression c) {
  switch (c) {
    case Compression::none: return "none";
    case Compression::gzip: return "gzip";
    case Compression::zstd: return "zstd";
    case Compression::xz: return "xz";
    case Compression::bzip2: return "bzip2";
    case Compression::lz4: return "lz4";
  }
  return "none";
}

Compression detect_compression(std::string_view h) {
  auto starts = [&](std::string_view magic) { return h.substr(0, magic.size()) == magic; };
  if (starts("\x1f\x8b\x08")) return Compression::gzip;
  if (starts("\x28\xb5\x2f\xfd")) return Compression::zstd;
  if (starts(std::string_view("\xfd" "7zXZ\0", 6))) return Compression::xz;
  if (starts("\x04\x22\x4d\x18")) return Compression::lz4;
  // "BZh" + block size digit + the block magic (pi in BCD): text starting "BZh9" is not bzip2.
  if (h.size() >= 10 && starts("BZh") && h[3] >= '1' && h[3] <= '9' &&
      h.substr(4, 6) == "\x31\x41\x59\x26\x53\x59")
    return Compression::bzip2;
  return Compression::none;
}

std::string_view strip_compression_suffix(std::string_view name, Compression c) {
  std::string_view suffixes[3];
  switch (c) {
    case Compression::gzip: suffixes[0] = ".gz"; suffixes[1] = ".z"; break;
    case Compression::zstd: suffixes[0] = ".zst"; suffixes[1] = ".zstd"; break;
    case Compression::xz: suffixes[0] = ".xz"; break;
    case Compression::bzip2: suffixes[0] = ".bz2"; break;
    case Compression::lz4: suffixes[0] = ".lz4"; break;
    case Compression::none: return name;
  }
  for (auto s : suffixes)
    if (!s.empty() && name.size() > s.size() && name.substr(name.size() - s.size()) == s)
      return name.substr(0, name.size() - s.size());
  return name;
}

}  // namespace triage
