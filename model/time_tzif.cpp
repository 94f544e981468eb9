// TZif (RFC 8536) reduced to its POSIX footer, with a fallback for files that have none.
#include <fmt/format.h>

#include "model/time.h"

namespace triage {
namespace {

uint32_t be32(std::string_view b, size_t at) {
  auto u = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(b[at + k])); };
  return (u(0) << 24) | (u(1) << 16) | (u(2) << 8) | u(3);
}

struct Header {
  uint64_t isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt;
  uint64_t data_size(int time_size) const {
    return timecnt * time_size + timecnt + typecnt * 6 + charcnt + leapcnt * (time_size + 4) +
           isstdcnt + isutcnt;
  }
};

bool read_header(std::string_view b, size_t at, Header& h, std::string& error) {
  if (b.size() < at + 44 || b.substr(at, 4) != "TZif") {
    error = at == 0 ? "not a TZif file (no TZif magic)" : "TZif file cut short (second header)";
    return false;
  }
  h = Header{be32(b, at + 20), be32(b, at + 24), be32(b, at + 28),
             be32(b, at + 32), be32(b, at + 36), be32(b, at + 40)};
  if (h.typecnt == 0 || h.typecnt > 256 || h.timecnt > 100000 || h.charcnt > 100000 ||
      h.leapcnt > 100000 || h.isstdcnt > 256 || h.isutcnt > 256) {
    error = "TZif header counts out of range";
    return false;
  }
  return true;
}

// The offset and abbreviation of the last transition's type (type 0 without transitions).
std::optional<ZoneRule> last_transition_zone(std::string_view b, size_t data, const Header& h,
                                             int time_size) {
  size_t idx_at = data + h.timecnt * time_size;
  size_t types_at = idx_at + h.timecnt;
  size_t chars_at = types_at + h.typecnt * 6;
  unsigned type = h.timecnt ? static_cast<unsigned char>(b[idx_at + h.timecnt - 1]) : 0;
  if (type >= h.typecnt) return std::nullopt;
  size_t t = types_at + type * 6;
  int32_t utoff = static_cast<int32_t>(be32(b, t));
  unsigned desig = static_cast<unsigned char>(b[t + 5]);
  std::string abbr;
  for (size_t k = chars_at + desig; k < chars_at + h.charcnt && b[k] != '\0'; ++k) abbr += b[k];
  if (utoff < -26 * 3600 || utoff > 26 * 3600) return std::nullopt;
  return ZoneRule::fixed(utoff, abbr);
}

}  // namespace

TzifZone parse_tzif(std::string_view b) {
  TzifZone out;
  Header h1;
  if (!read_header(b, 0, h1, out.error)) return out;
  char v = b[4];
  out.version = v == '\0' ? 1 : (v >= '2' && v <= '9' ? v - '0' : 0);
  if (out.version == 0) {
    out.error = fmt::format("unknown TZif version byte 0x{:02x}", static_cast<unsigned char>(v));
    return out;
  }
  size_t v1_end = 44 + h1.data_size(4);
  if (b.size() < v1_end) {
    out.error = "TZif file cut short (first data block)";
    return out;
  }
  Header last = h1;
  size_t last_data = 44;
  int time_size = 4;
  std::string_view footer;
  bool has_footer_block = false;
  if (out.version >= 2) {
    Header h2;
    if (!read_header(b, v1_end, h2, out.error)) return out;
    size_t data = v1_end + 44;
    size_t end = data + h2.data_size(8);
    if (b.size() < end) {
      out.error = "TZif file cut short (second data block)";
      return out;
    }
    last = h2, last_data = data, time_size = 8;
    // Footer: "\n" POSIX-TZ "\n"
    if (end < b.size() && b[end] == '\n') {
      size_t close = b.find('\n', end + 1);
      if (close != std::string_view::npos) {
        footer = b.substr(end + 1, close - end - 1);
        has_footer_block = true;
      }
    }
  }
  out.transitions = last.timecnt;
  out.footer = std::string(footer);
  if (!footer.empty()) {
    if (auto z = ZoneRule::from_posix(footer)) {
      out.zone = std::move(z);
      return out;
    }
  }
  out.zone = last_transition_zone(b, last_data, last, time_size);
  if (!out.zone) {
    out.error = "TZif local time types unreadable";
    return out;
  }
  out.from_last_transition = true;
  std::string why = out.version == 1        ? "a version 1 TZif file has no POSIX footer"
                    : !has_footer_block     ? "the TZif footer is missing"
                    : footer.empty()        ? "the TZif footer is empty"
                                            : fmt::format("the TZif footer '{}' is not a POSIX TZ "
                                                          "rule the analyzer understands", footer);
  out.note = fmt::format("{}: used the offset of the last transition ({}) for all times; "
                         "DST rules unknown",
                         why, format_offset(out.zone->std_offset()));
  return out;
}

}  // namespace triage
