#pragma once
// manifest.json read as it streams in: the top-level object is split into its fields, and
// the "items" array into its elements, each handed over alone (issue 35: a 100,000-item
// manifest is 42 MB; parsed whole, simdjson's index alone took 169 MiB). Only the value being
// handed over (up to a cap) and a read chunk are held. The splitter knows JSON's strings,
// escapes and nesting, not its grammar inside a value: the caller parses each value with
// simdjson, which checks it.
#include <cstdint>
#include <string>
#include <string_view>

#include "bundle/byte_source.h"

namespace triage {

class ManifestSplitter {
 public:
  struct Part {
    // items: an "items" array begins (its elements follow as `item` parts).
    enum class Kind { field, items, item, end, damaged };
    Kind kind = Kind::end;
    std::string_view key;     // field: the key's raw token, quotes included
    std::string_view text;    // field, item: the value's bytes; damaged: what is wrong
    std::string_view window;  // item: up to window_bytes from its first byte (may run past it)
    uint64_t offset = 0;      // the value's first byte (damaged: where the damage was found)
    uint64_t line = 1;        // 1-based line of `offset`
    size_t index = 0;         // item: 1-based position in its array
    bool not_object = false;  // damaged: the document does not start with '{'
  };

  // max_value_bytes caps one value (a field's or an item's); keep_bytes: the whole text is
  // also kept when it is no longer than this (kept()); max_bytes: reading stops there.
  ManifestSplitter(ByteSource& src, size_t max_value_bytes, size_t window_bytes, size_t keep_bytes,
                   size_t max_bytes);

  // The next part; parts end with one `end` or `damaged`, after which next() returns false.
  // The views stay valid until the next call.
  bool next(Part& part);

  // Reads to the end of the source (or max_bytes), counting; then the totals.
  void drain();
  uint64_t bytes() const { return total_; }
  uint64_t lines() const;  // newlines, plus one for a last line without one
  bool over_max() const { return over_max_; }
  // The whole text, when it was no longer than keep_bytes (nullptr otherwise). Complete only
  // after drain().
  const std::string* kept() const { return keep_ ? &kept_ : nullptr; }

 private:
  enum class State { start, object, after_value, items, after_item, done };
  bool fill();         // drops what is no longer held, reads one chunk; false at the end
  bool skip_blanks();  // false at the end of the data
  void step() { line_ += buf_[pos_++] == '\n'; }
  // Scans one value from the cursor (held from hold_). 0: complete; 1: the data ended
  // inside it; 2: longer than the cap.
  int scan_value();
  bool damaged(Part& part, std::string_view what, bool not_object = false);
  bool damaged_at(Part& part, std::string_view what, uint64_t offset, uint64_t line);

  ByteSource& src_;
  size_t max_value_, window_, keep_limit_, max_bytes_;
  std::string buf_;         // bytes from absolute offset base_
  std::string chunk_;       // one read
  uint64_t base_ = 0;
  size_t pos_ = 0;          // the cursor, an index into buf_
  uint64_t line_ = 1;       // the line at the cursor
  size_t hold_ = 0;         // while holding_: the first byte of the value being scanned
  bool holding_ = false;
  uint64_t total_ = 0, newlines_ = 0;  // every byte read (past max_bytes too, by drain())
  char last_ = '\n';
  bool eof_ = false, over_max_ = false;
  std::string kept_;
  bool keep_ = true;
  State state_ = State::start;
  bool first_ = true, first_item_ = true;
  size_t item_index_ = 0;
  std::string key_, reason_;
};

}  // namespace triage
