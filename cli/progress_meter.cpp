#include "cli/progress_meter.h"

#include "reports/display_width.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

namespace triage::cli {
namespace {

constexpr int64_t kQuietMs = 1000;   // short runs show nothing
constexpr int64_t kRedrawMs = 250;   // at most four redraws a second

// The coarse clock costs a few nanoseconds: on_bytes runs once per chunk read.
int64_t now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

std::string size_text(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.1f} {}", bytes, units[u]);
}

int terminal_columns(int fd) {
  winsize ws{};
  if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 80;
}

// Entry names come from the input: control bytes would drive the terminal. Long names keep
// their end (the file name), cut at a UTF-8 character boundary.
void append_entry_name(std::string& out, std::string_view name, size_t room) {
  size_t cut = 0;
  if (name.size() > room) {
    cut = name.size() - (room > 3 ? room - 3 : 0);
    while (cut < name.size() && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) ++cut;
    out += "...";
  }
  // Written straight to the terminal, past the output guard: shown printable here (C1 and
  // bidi controls too), then cut to the room.
  std::string shown = printable_utf8(name.substr(cut));
  if (size_t keep = name.size() - cut; shown.size() > keep) {
    while (keep > 0 && (static_cast<unsigned char>(shown[keep]) & 0xC0) == 0x80) --keep;
    shown.resize(keep);
  }
  out += shown;
}

}  // namespace

bool want_progress(bool quiet) { return !quiet && isatty(STDERR_FILENO); }

ProgressMeter::ProgressMeter(int fd) : fd_(fd), start_ms_(now_ms()) {}

void ProgressMeter::on_entry(std::string_view display) {
  ++entries_;
  entry_.assign(display);
  maybe_draw();
}

void ProgressMeter::on_bytes(uint64_t total_bytes) {
  bytes_ = total_bytes;
  maybe_draw();
}

void ProgressMeter::maybe_draw() {
  int64_t now = now_ms();
  if (now - start_ms_ < kQuietMs || now - last_draw_ms_ < kRedrawMs) return;
  last_draw_ms_ = now;
  double seconds = static_cast<double>(now - start_ms_) / 1000.0;
  line_.assign("\r\x1b[K");
  fmt::format_to(std::back_inserter(line_), "reading: {} {}, {}, {}/s: ", entries_,
                 entries_ == 1 ? "entry" : "entries",
                 size_text(static_cast<double>(bytes_)),
                 size_text(static_cast<double>(bytes_) / seconds));
  size_t used = line_.size() - 4;  // the escape sequence takes no column
  size_t columns = static_cast<size_t>(terminal_columns(fd_));
  append_entry_name(line_, entry_, columns > used + 8 ? columns - used - 1 : 8);
  drawn_ = ::write(fd_, line_.data(), line_.size()) > 0 || drawn_;
}

void ProgressMeter::finish() {
  if (!drawn_) return;
  drawn_ = false;
  static constexpr char kErase[] = "\r\x1b[K";
  [[maybe_unused]] auto n = ::write(fd_, kErase, sizeof kErase - 1);
}

}  // namespace triage::cli
