#pragma once
// Reader for the bundle contract's TSV files (kernels.tsv, tree.tsv, sysfs.tsv, paths.tsv,
// fd.tsv, ...): a header line first; columns taken by header name, unknown columns ignored;
// fields escape \\ \t \n \r; an empty field is unknown; booleans are 1/0.
//
// Streaming and allocation-free per line once warmed up: fields are views into the line
// reader's buffer, and unescaped text goes into per-column buffers that are reused.
//
// Counting: every line is counted in stats.lines; the header counts as parsed; blank lines
// as unrecognised; rows whose field count differs from the header's, or with a bad escape,
// as malformed (with samples) and are not handed out. The caller counts each row it gets
// as parsed, unrecognised or malformed (count_parsed(), ...).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bundle/line_reader.h"
#include "model/parse_stats.h"

namespace triage {

class TsvReader {
 public:
  TsvReader(ByteSource& src, ParseStats& stats, std::string_view entry,
            size_t max_line = LineReader::kDefaultMaxLine);

  // Reads the header. False when the entry is empty or holds a tool's error text
  // (stats.not_collected is then set); every remaining line has then been counted.
  bool read_header();
  // Index of a column by name; -1 when the header has no such column.
  int column(std::string_view name) const;
  const std::vector<std::string>& header() const { return header_; }

  // Advances to the next well-formed row; false at the end of the entry.
  bool next();
  // The current row's field, unescaped; "" when the column is absent (-1).
  std::string_view field(int col);
  // The field as stored (still escaped).
  std::string_view raw(int col) const;
  // Non-empty (empty = unknown).
  bool known(int col) const { return !raw(col).empty(); }
  // Integer fields; nullopt when unknown or not an integer (check known() to tell).
  std::optional<int64_t> integer(int col) const;
  // 1 / 0; nullopt when unknown or anything else.
  std::optional<bool> boolean(int col) const;
  const Line& line() const { return line_; }
  const std::string& entry() const { return entry_; }

  // The caller's verdict on the current row.
  void count_parsed() { ++stats_.parsed; }
  void count_unrecognised() { ++stats_.unrecognised; }
  void count_malformed(std::string_view why);
  // Counts every remaining line unrecognised (a header without the needed columns).
  void skip_rest_unrecognised();

  // Escaped TSV field -> text; false on a backslash not followed by \ t n r.
  static bool unescape(std::string_view raw, std::string& out);

 private:
  bool next_nonblank_line();
  bool split_current();
  LineReader reader_;
  ParseStats& stats_;
  std::string entry_;
  std::vector<std::string> header_;
  std::vector<std::string_view> fields_;
  std::vector<std::string> decoded_;
  Line line_;
};

}  // namespace triage
