#pragma once
// Names of input members: normalisation (never outside the bundle), the bundle root,
// and compressed-member suffixes.
#include <string>
#include <string_view>

namespace triage {

struct NormalisedName {
  std::string path;     // relative, '/'-separated, no "." or ".." components ("" = the root)
  bool unsafe = false;  // the stored name was absolute or used ".."
};

// "./a/b" -> "a/b"; "/etc/x" -> "etc/x" (unsafe); "../../x" -> "x" (unsafe);
// "a/../b" -> "b" (unsafe: a well-formed bundle never stores "..").
// Control bytes (C0 but none of them is kept, DEL) are written as \xNN: a member named with a
// newline would otherwise print a line of its own in every listing (issue 33).
NormalisedName normalise_member_name(std::string_view raw);

// The name with its control bytes as \xNN (as normalise_member_name writes them).
std::string escape_control_bytes(std::string_view name);

std::string_view first_component(std::string_view path);  // "" when path has one component
std::string_view strip_first_component(std::string_view path);
std::string_view base_name(std::string_view path);
bool is_bundle_root_name(std::string_view dir);  // "ascend-bundle-<host>-<ts>"

enum class Compression { none, gzip, zstd, xz, bzip2, lz4 };
std::string_view to_string(Compression c);
// By magic bytes (the first 10 bytes are enough); names are never trusted for this.
Compression detect_compression(std::string_view head);
// The name without its compression suffix when it carries the one the data has
// ("messages-20240101.gz" -> "messages-20240101"); unchanged otherwise.
std::string_view strip_compression_suffix(std::string_view name, Compression c);

}  // namespace triage
