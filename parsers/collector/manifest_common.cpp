#include "parsers/collector/manifest_common.h"

#include <algorithm>
#include <new>

#include "model/time.h"

namespace triage {
namespace od = simdjson::ondemand;

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool read_hex4(std::string_view s, size_t at, uint32_t& out) {
  if (at + 4 > s.size()) return false;
  out = 0;
  for (size_t k = at; k < at + 4; ++k) {
    int h = hex_value(s[k]);
    if (h < 0) return false;
    out = out * 16 + static_cast<uint32_t>(h);
  }
  return true;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
  }
  out += static_cast<char>(0x80 | (cp & 0x3f));
}

bool is_type(od::value& v, od::json_type want) {
  od::json_type t;
  return !v.type().get(t) && t == want;
}

}  // namespace

bool decode_contract_string(std::string_view token, std::string& out) {
  out.clear();
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' ||
                            token.back() == '\r'))
    token.remove_suffix(1);
  if (token.size() < 2 || token.front() != '"' || token.back() != '"') return false;
  std::string_view s = token.substr(1, token.size() - 2);
  // Decoded, a string is never longer than its token: one allocation of the right size (a
  // string grown a byte at a time kept twice its size, 100,000 items' paths and sha256 alike).
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c != '\\') {
      size_t run = s.find('\\', i);
      if (run == std::string_view::npos) run = s.size();
      out.append(s.substr(i, run - i));
      i = run - 1;
      continue;
    }
    if (++i >= s.size()) return false;
    switch (s[i]) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        uint32_t cp;
        if (!read_hex4(s, i + 1, cp)) return false;
        i += 4;
        if (cp <= 0xff) {
          out += static_cast<char>(cp);  // the contract: a raw byte
        } else if (cp >= 0xd800 && cp <= 0xdbff) {
          uint32_t low;
          if (i + 2 >= s.size() || s[i + 1] != '\\' || s[i + 2] != 'u' ||
              !read_hex4(s, i + 3, low) || low < 0xdc00 || low > 0xdfff)
            return false;
          i += 6;
          append_utf8(out, 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00));
        } else if (cp >= 0xdc00 && cp <= 0xdfff) {
          return false;
        } else {
          append_utf8(out, cp);
        }
        break;
      }
      default: return false;
    }
  }
  return true;
}

bool read_contract_text(od::value v, std::string& out) {
  if (is_type(v, od::json_type::null)) {
    out.clear();
    return true;
  }
  if (!is_type(v, od::json_type::string)) return false;
  return decode_contract_string(v.raw_json_token(), out);
}

bool read_contract_int(od::value v, std::optional<int64_t>& out) {
  out.reset();
  if (is_type(v, od::json_type::null)) return true;
  if (!is_type(v, od::json_type::number)) return false;
  int64_t i;
  if (!v.get_int64().get(i)) {
    out = i;
    return true;
  }
  double d;
  if (v.get_double().get(d) || d != d || d > 9.2e18 || d < -9.2e18) return false;
  out = static_cast<int64_t>(d);
  return true;
}

bool read_contract_bool(od::value v, std::optional<bool>& out) {
  out.reset();
  if (is_type(v, od::json_type::null)) return true;
  bool b;
  if (v.get_bool().get(b)) return false;
  out = b;
  return true;
}

bool read_contract_time(od::value v, std::optional<int64_t>& utc_us) {
  utc_us.reset();
  if (is_type(v, od::json_type::null)) return true;
  if (is_type(v, od::json_type::number)) {
    double d;
    if (v.get_double().get(d) || d != d || d < 0 || d > 1e11) return false;
    utc_us = static_cast<int64_t>(d * 1e6);
    return true;
  }
  std::string text;
  if (!read_contract_text(v, text)) return false;
  if (text.empty()) return true;
  utc_us = parse_iso8601_utc_us(text);
  return utc_us.has_value();
}

bool read_contract_strings(od::value v, std::optional<std::vector<std::string>>& out) {
  out.reset();
  if (is_type(v, od::json_type::null)) return true;
  od::array a;
  if (v.get_array().get(a)) return false;
  std::vector<std::string> list;
  for (auto element : a) {
    od::value e;
    if (std::move(element).get(e)) return false;
    std::string s;
    if (is_type(e, od::json_type::string)) {
      if (!read_contract_text(e, s)) return false;
    } else if (is_type(e, od::json_type::number)) {
      std::string_view tok = e.raw_json_token();
      while (!tok.empty() && (tok.back() == ' ' || tok.back() == '\n' || tok.back() == '\t' ||
                              tok.back() == '\r'))
        tok.remove_suffix(1);
      s = std::string(tok);
    } else {
      return false;
    }
    list.push_back(std::move(s));
  }
  out = std::move(list);
  return true;
}

namespace {

bool read_ranges(od::value v, std::vector<std::pair<uint64_t, uint64_t>>& out) {
  out.clear();
  if (is_type(v, od::json_type::null)) return true;
  od::array a;
  if (v.get_array().get(a)) return false;
  for (auto element : a) {
    od::array pair;
    if (element.get_array().get(pair)) return false;
    uint64_t bounds[2] = {0, 0};
    size_t n = 0;
    for (auto b : pair) {
      uint64_t x;
      if (n >= 2 || b.get_uint64().get(x)) return false;
      bounds[n++] = x;
    }
    if (n != 2 || bounds[1] < bounds[0]) return false;
    out.emplace_back(bounds[0], bounds[1]);
  }
  return true;
}

}  // namespace

bool read_manifest_item(od::object obj, ManifestItem& item, std::string& error) {
  bool has_path = false;
  for (auto f : obj) {
    od::field field;
    std::string_view key;
    if (std::move(f).get(field) || field.unescaped_key().get(key)) {
      error = "unreadable field";
      return false;
    }
    od::value v = field.value();
    bool ok = true;
    if (key == "path") ok = read_contract_text(v, item.path), has_path = ok && !item.path.empty();
    else if (key == "source") ok = read_contract_text(v, item.source);
    else if (key == "exec") ok = read_contract_strings(v, item.exec);
    else if (key == "status") {
      ok = read_contract_text(v, item.status_text);
      item.status = parse_item_status(item.status_text);
    } else if (key == "reason") ok = read_contract_text(v, item.reason);
    else if (key == "error") ok = read_contract_text(v, item.error);
    else if (key == "rc") ok = read_contract_int(v, item.rc);
    else if (key == "started_utc") ok = read_contract_time(v, item.started_utc_us);
    else if (key == "duration_ms") ok = read_contract_int(v, item.duration_ms);
    else if (key == "bytes") ok = read_contract_int(v, item.bytes);
    else if (key == "sha256") {
      ok = read_contract_text(v, item.sha256);
      for (char& c : item.sha256)
        if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    } else if (key == "source_mtime_utc") ok = read_contract_time(v, item.source_mtime_utc_us);
    else if (key == "truncated") {
      std::optional<bool> b;
      ok = read_contract_bool(v, b);
      item.truncated = b.value_or(false);
    } else if (key == "kept_ranges") ok = read_ranges(v, item.kept_ranges);
    // unknown fields: a newer collector's additions, ignored
    if (!ok) {
      error = "bad value for \"" + std::string(key) + "\"";
      return false;
    }
  }
  if (!has_path) {
    error = "item without a path";
    return false;
  }
  return true;
}

void reserve_items(std::vector<ManifestItem>& items, uint64_t entry_size, uint64_t first_offset,
                   uint64_t offset, size_t count) {
  if (count < 2 || entry_size <= offset || offset <= first_offset) return;
  uint64_t per = (offset - first_offset) / (count - 1);
  if (per == 0) return;
  uint64_t more = (entry_size - offset) / per;
  uint64_t total = std::min<uint64_t>(count + more + more / 16, entry_size / 64 + count);
  try {
    items.reserve(items.size() + static_cast<size_t>(total));
  } catch (const std::bad_alloc&) {  // a guess too large for this process: grow as before
  }
}

}  // namespace triage
