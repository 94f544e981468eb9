#pragma once
// Streaming access to the bytes of one entry. Readers never hold a whole entry in memory.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace triage {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to n bytes into buf. Returns the count; 0 means end of data or an error
  // (error() is then non-empty: the data ended early, e.g. a truncated archive).
  virtual size_t read(char* buf, size_t n) = 0;
  const std::string& error() const { return error_; }
  // Called by LineReader for each line cut at its limit, so the input stage can report
  // overlong lines whichever parser read the entry.
  virtual void note_overlong_line(uint64_t line, uint64_t offset, uint64_t length) {}
  // Where the first byte sits in its entry: a segment of a mixed paste is parsed on its own,
  // and its lines keep the numbers and offsets they have in the file (evidence points there).
  virtual uint64_t first_line_number() const { return 1; }
  virtual uint64_t first_offset() const { return 0; }
  // A source whose bytes were hashed where they were read (the reader thread of read_ahead.h):
  // StoredSource then takes the digest from it instead of hashing the bytes again.
  virtual bool hashes_itself() const { return false; }
  // Once read to its end without error: the SHA-256 of every byte it gave.
  virtual std::string sha256_hex_of_all() { return {}; }

 protected:
  std::string error_;
};

// Bytes held in memory: for tests and for small in-memory documents.
class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string_view data) : data_(data) {}
  size_t read(char* buf, size_t n) override;

 private:
  std::string_view data_;
  size_t pos_ = 0;
};

// Reads a whole small source (manifest, version files) up to `limit` bytes.
// `truncated` is set when more data followed.
std::string read_all(ByteSource& src, size_t limit, bool* truncated = nullptr);

}  // namespace triage
