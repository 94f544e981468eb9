#pragma once
// Small allocation-free helpers shared by the log parsers: key=value lookup in messages,
// path facts (device id, pid from a file name), hashing.
#include <cstdint>
#include <optional>
#include <string_view>

namespace triage {

// The integer after `key` (which includes its '=' or ':' and any blank), at a word start:
// find_int("report_stream_id=3, stream_id=5", "stream_id=") is 5. Hex (0x..) is read too.
std::optional<int64_t> find_int(std::string_view text, std::string_view key);

// The token after `key` up to one of ", ;)]" (or the end).
std::string_view find_token(std::string_view text, std::string_view key);

// The text inside [...] after `key` ("desc=[" -> "aicore exception").
std::string_view find_bracketed(std::string_view text, std::string_view key);

// Position of `key` in `text` at a word start (not preceded by [A-Za-z0-9_]); npos if none.
size_t find_word(std::string_view text, std::string_view key);

// Device id from a log path: a directory `device-<id>` (not `device-<pid>_<time>.log`),
// `dev-os-<id>` or `device-os-<id>`.
std::optional<int64_t> device_id_from_path(std::string_view path);

// pid from `plog-<pid>_<time>.log` or `device-<pid>_<time>.log`.
std::optional<int64_t> pid_from_log_name(std::string_view path);

uint64_t fnv1a(std::string_view s, uint64_t h = 1469598103934665603ULL);
inline uint64_t mix64(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

// FNV-1a of a kernel message with each run of blanks read as one space: the key that pairs
// copies of one kernel line in two sources (finalize_kernel_facts).
uint64_t kernel_message_hash(std::string_view msg);

// FNV-1a of a message's template: decimal digits and the hex digits of 0x values left out,
// so "serial number is 12, pc: 0x1a2b" and "serial number is 7, pc: 0xff" are one template.
uint64_t message_template_key(std::string_view msg);

// A tool's error text instead of the content ("Permission denied", "command not found",
// "Operation not permitted", ...): the reason, or "" when the line is not such text.
std::string_view tool_error_reason(std::string_view line);

}  // namespace triage
