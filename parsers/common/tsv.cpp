#include "parsers/common/tsv.h"

#include <charconv>

#include "model/strings.h"
#include "parsers/common/tool_error.h"

namespace triage {
TsvReader::TsvReader(ByteSource& src, ParseStats& stats, std::string_view entry, size_t max_line)
    : reader_(src, max_line), stats_(stats), entry_(entry) {
  fields_.reserve(32);
}

// Next non-blank line into line_ (blank lines are counted unrecognised); false at the end.
bool TsvReader::next_nonblank_line() {
  while (reader_.next(line_)) {
    ++stats_.lines;
    stats_.bytes = reader_.bytes_read();
    if (!line_.text.empty()) return true;
    ++stats_.unrecognised;
  }
  stats_.bytes = reader_.bytes_read();
  return false;
}

bool TsvReader::read_header() {
  if (!next_nonblank_line()) return false;
  if (line_.text.find('\t') == std::string_view::npos && note_tool_error(line_.text, stats_)) {
    ++stats_.unrecognised;
    skip_rest_unrecognised();
    return false;
  }
  ++stats_.parsed;
  split_into(line_.text, '\t', fields_);
  header_.assign(fields_.begin(), fields_.end());
  fields_.clear();
  decoded_.resize(header_.size());
  return true;
}

int TsvReader::column(std::string_view name) const {
  for (size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return static_cast<int>(i);
  return -1;
}

bool TsvReader::unescape(std::string_view raw, std::string& out) {
  out.clear();
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= raw.size()) return false;
    switch (raw[i]) {
      case '\\': out += '\\'; break;
      case 't': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      default: return false;
    }
  }
  return true;
}

// Splits line_ into fields_; false (counted malformed) for a damaged row.
bool TsvReader::split_current() {
  split_into(line_.text, '\t', fields_);
  if (line_.overlong) {
    count_malformed("overlong line");
    return false;
  }
  if (fields_.size() != header_.size()) {
    count_malformed("field count differs from the header");
    return false;
  }
  for (std::string_view f : fields_) {
    for (size_t i = f.find('\\'); i != std::string_view::npos; i = f.find('\\', i + 2)) {
      char n = i + 1 < f.size() ? f[i + 1] : '\0';
      if (n != '\\' && n != 't' && n != 'n' && n != 'r') {
        count_malformed("bad escape");
        return false;
      }
    }
  }
  return true;
}

bool TsvReader::next() {
  while (next_nonblank_line())
    if (split_current()) return true;
  return false;
}

std::string_view TsvReader::raw(int col) const {
  if (col < 0 || static_cast<size_t>(col) >= fields_.size()) return {};
  return fields_[col];
}

std::string_view TsvReader::field(int col) {
  std::string_view r = raw(col);
  if (r.find('\\') == std::string_view::npos) return r;
  std::string& out = decoded_[col];
  unescape(r, out);  // escapes were checked when the row was split
  return out;
}

std::optional<int64_t> TsvReader::integer(int col) const {
  std::string_view r = raw(col);
  if (r.empty()) return std::nullopt;
  int64_t v = 0;
  auto [p, ec] = std::from_chars(r.data(), r.data() + r.size(), v);
  if (ec != std::errc() || p != r.data() + r.size()) return std::nullopt;
  return v;
}

std::optional<bool> TsvReader::boolean(int col) const {
  std::string_view r = raw(col);
  if (r == "1") return true;
  if (r == "0") return false;
  return std::nullopt;
}

void TsvReader::count_malformed(std::string_view why) {
  ++stats_.malformed;
  if (stats_.samples_of_malformed.size() < ParseStats::kMaxMalformedSamples) {
    EvidenceRef e = make_evidence(entry_, line_.number, line_.offset, line_.text);
    e.excerpt = std::string(why) + ": " + e.excerpt;
    stats_.samples_of_malformed.push_back(std::move(e));
  }
}

void TsvReader::skip_rest_unrecognised() {
  while (reader_.next(line_)) {
    ++stats_.lines;
    ++stats_.unrecognised;
  }
  stats_.bytes = reader_.bytes_read();
}

}  // namespace triage
