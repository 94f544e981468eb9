#include "knowledge/literal_prefilter.h"

#include "knowledge/lazy_regex.h"
#include "knowledge/run_once.h"

#include <re2/filtered_re2.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace triage {

namespace {

constexpr unsigned kHashBits = 16;  // 8 KiB bitmap: stays in L1 beside the line
constexpr size_t kLongestMin = 8, kShortestMin = 4;  // the atoms' minimum length
constexpr size_t kLongestStride = 9;
constexpr size_t kMaxExactAtoms = 10;  // a regex's terms are enumerated up to this many atoms
constexpr int kMaxHits = 48;           // distinct atoms remembered per text; more: "may match"

// A coarse case fold of four bytes (bit 0x20 set in each): an upper-case ASCII letter and its
// lower case fold alike, which is all the index needs; atom_at() then compares exactly.
inline uint32_t fold4(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
  return w | 0x20202020u;
}

inline uint32_t hash_of(uint32_t gram) { return (gram * 0x9E3779B1u) >> (32 - kHashBits); }

inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + ('a' - 'A')) : c; }

// Whether `pattern` may turn case folding on: a flag group "(?i" / "(?smi:" and the like.
// Conservative: an escaped "\(?i" counts too, which costs only a scan for two lead bytes.
bool may_fold_case(const std::string& pattern) {
  for (size_t at = pattern.find("(?"); at != std::string::npos; at = pattern.find("(?", at + 2))
    for (size_t k = at + 2; k < pattern.size() && pattern[k] && std::strchr("imsU-", pattern[k]); ++k)
      if (pattern[k] == 'i') return true;
  return false;
}

bool usable_atom(const std::string& a) {
  if (a.size() < kShortestMin) return false;
  for (char c : a)
    if (static_cast<unsigned char>(c) >= 0x80 || (c >= 'A' && c <= 'Z')) return false;
  return true;
}

// The terms of one regex as lists of its atoms (each term: atoms that together let it pass
// RE2's prefilter; minimal ones). False when the regex has no usable atoms.
bool terms_of(const std::string& pattern, const RE2::Options& options, std::vector<std::string>& atoms,
              std::vector<std::vector<int>>& terms) {
  for (size_t len = kLongestMin; len >= kShortestMin; --len) {
    auto filter = std::make_unique<re2::FilteredRE2>(static_cast<int>(len));
    int id = 0;
    if (filter->Add(pattern, options, &id) != RE2::NoError) return false;
    atoms.clear();
    filter->Compile(&atoms);
    std::vector<int> potentials;
    auto passes = [&](const std::vector<int>& set) {
      filter->AllPotentials(set, &potentials);
      return !potentials.empty();
    };
    if (atoms.empty() || passes({})) continue;  // matches without any atom of this length
    if (!std::all_of(atoms.begin(), atoms.end(), usable_atom)) return false;
    terms.clear();
    std::vector<int> rest;
    for (int a = 0; a < static_cast<int>(atoms.size()); ++a) {
      if (passes({a}))
        terms.push_back({a});
      else
        rest.push_back(a);
    }
    if (rest.empty() || !passes(rest)) return true;  // one of the single atoms is needed
    if (rest.size() > kMaxExactAtoms) {              // any atom at all is needed
      for (int a : rest) terms.push_back({a});
      return true;
    }
    // Minimal passing subsets of the rest, smallest first (the prefilter is monotone).
    std::vector<unsigned> found;
    for (size_t size = 2; size <= rest.size(); ++size)
      for (unsigned mask = 1; mask < (1u << rest.size()); ++mask) {
        if (static_cast<size_t>(__builtin_popcount(mask)) != size) continue;
        if (std::any_of(found.begin(), found.end(), [&](unsigned f) { return (f & mask) == f; })) continue;
        std::vector<int> set;
        for (size_t k = 0; k < rest.size(); ++k)
          if (mask & (1u << k)) set.push_back(rest[k]);
        if (!passes(set)) continue;
        found.push_back(mask);
        terms.push_back(set);
      }
    return true;
  }
  return false;
}

}  // namespace

struct LiteralPrefilter::Impl {
  struct Entry {
    uint32_t gram;    // the folded 4-byte window
    uint32_t atom;    // index into atoms
    uint32_t offset;  // where the window starts in the atom
    uint32_t next;    // the folded window after it (when the atom is that long), a cheap reject
    bool has_next;
  };
  bool unicode_folds = false;  // a (?i) regex: U+212A and U+017F fold to 'k' and 's'
  size_t min_len = kLongestStride + 3, stride = 1;
  std::vector<std::string> atoms;
  std::vector<uint64_t> bitmap;        // 1 << kHashBits bits
  std::vector<uint32_t> starts;        // hash -> first entry; size (1 << kHashBits) + 1
  std::vector<Entry> entries;          // sorted by hash
  std::vector<uint32_t> term_starts;   // term -> first of its atoms in term_atoms
  std::vector<uint32_t> term_atoms;
  std::vector<uint32_t> atom_term_starts;  // atom -> first of its terms in atom_terms
  std::vector<uint32_t> atom_terms;

  bool atom_in(std::string_view text, const std::string& atom) const {
    for (size_t i = 0; i + atom.size() <= text.size(); ++i)
      if (lower(text[i]) == atom[0] && atom_at(text, i, atom)) return true;
    return false;
  }
  bool atom_at(std::string_view text, size_t pos, const std::string& atom) const {
    if (pos + atom.size() > text.size()) return false;
    for (size_t i = 0; i < atom.size(); ++i)
      if (lower(text[pos + i]) != atom[i]) return false;
    return true;
  }
};

namespace {

// The prefilter of `patterns`, or null when it must stay off (see the header).
std::shared_ptr<const LiteralPrefilter::Impl> build_prefilter(const std::vector<std::string>& patterns,
                                                              const RE2::Options& options) {
  using Impl = LiteralPrefilter::Impl;
  if (patterns.empty()) return nullptr;
  auto impl = std::make_shared<Impl>();
  std::unordered_map<std::string, uint32_t> ids;
  std::vector<std::vector<uint32_t>> terms;
  for (const auto& p : patterns) {
    std::vector<std::string> atoms;
    std::vector<std::vector<int>> local;
    if (!terms_of(p, options, atoms, local)) return nullptr;  // stays off
    for (const auto& t : local) {
      std::vector<uint32_t> term;
      for (int a : t) {
        auto [it, added] = ids.emplace(atoms[static_cast<size_t>(a)], static_cast<uint32_t>(ids.size()));
        if (added) impl->atoms.push_back(it->first);
        term.push_back(it->second);
      }
      terms.push_back(std::move(term));
    }
  }
  // Each term is looked for by its longest atom (its trigger: the rarest, as a rule); the
  // others are searched for only in a text that holds the trigger. So ", stream_id=", which
  // most plog lines hold, is not scanned for: only "aicpu kernel execute failed, device_id="
  // beside it is. The stride is that of the shortest trigger (at most kLongestStride).
  std::vector<std::vector<uint32_t>> by_trigger(impl->atoms.size());
  std::vector<uint8_t> is_trigger(impl->atoms.size(), 0);
  for (uint32_t t = 0; t < terms.size(); ++t) {
    auto longest = std::max_element(terms[t].begin(), terms[t].end(), [&](uint32_t x, uint32_t y) {
      return impl->atoms[x].size() < impl->atoms[y].size();
    });
    std::iter_swap(terms[t].begin(), longest);  // the trigger first
    impl->term_starts.push_back(static_cast<uint32_t>(impl->term_atoms.size()));
    impl->term_atoms.insert(impl->term_atoms.end(), terms[t].begin(), terms[t].end());
    by_trigger[terms[t].front()].push_back(t);
    is_trigger[terms[t].front()] = 1;
  }
  impl->term_starts.push_back(static_cast<uint32_t>(impl->term_atoms.size()));
  for (const auto& ts : by_trigger) {
    impl->atom_term_starts.push_back(static_cast<uint32_t>(impl->atom_terms.size()));
    impl->atom_terms.insert(impl->atom_terms.end(), ts.begin(), ts.end());
  }
  impl->atom_term_starts.push_back(static_cast<uint32_t>(impl->atom_terms.size()));
  for (size_t a = 0; a < impl->atoms.size(); ++a)
    if (is_trigger[a]) impl->min_len = std::min(impl->min_len, impl->atoms[a].size());
  impl->stride = impl->min_len - 3;
  impl->unicode_folds = !options.case_sensitive() || std::any_of(patterns.begin(), patterns.end(), may_fold_case);
  // Index every 4-byte window that starts in a trigger's first `stride` bytes.
  for (size_t a = 0; a < impl->atoms.size(); ++a)
    if (is_trigger[a])
    for (size_t off = 0; off < impl->stride; ++off)
    {
      const std::string& atom = impl->atoms[a];
      const bool has_next = off + 8 <= atom.size();
      impl->entries.push_back({fold4(atom.data() + off), static_cast<uint32_t>(a), static_cast<uint32_t>(off),
                               has_next ? fold4(atom.data() + off + 4) : 0u, has_next});
    }
  std::sort(impl->entries.begin(), impl->entries.end(), [](const Impl::Entry& x, const Impl::Entry& y) {
    return hash_of(x.gram) < hash_of(y.gram);
  });
  impl->bitmap.assign((size_t{1} << kHashBits) / 64, 0);
  impl->starts.assign((size_t{1} << kHashBits) + 1, 0);
  for (const auto& e : impl->entries) {
    const uint32_t h = hash_of(e.gram);
    impl->bitmap[h >> 6] |= uint64_t{1} << (h & 63);
    ++impl->starts[h + 1];
  }
  for (size_t h = 1; h < impl->starts.size(); ++h) impl->starts[h] += impl->starts[h - 1];
  return impl;
}

}  // namespace

LiteralPrefilter::LiteralPrefilter(std::vector<std::string> patterns, const RE2::Options& options)
    : lazy_(std::make_shared<Lazy>()) {
  lazy_->patterns = std::move(patterns);
  lazy_->options = options;
}

const LiteralPrefilter::Impl* LiteralPrefilter::built() const {
  if (!lazy_) return nullptr;
  Lazy& l = *lazy_;
  run_once(l.done, l.mu, [&l] {
    require_compile_headroom();
    l.impl = build_prefilter(l.patterns, l.options);
    l.patterns = {};
  });
  return l.impl.get();
}

size_t LiteralPrefilter::min_len() const { return built() ? built()->min_len : 0; }

std::vector<std::string> LiteralPrefilter::atoms() const {
  return built() ? built()->atoms : std::vector<std::string>{};
}

bool LiteralPrefilter::may_match(std::string_view text) const {
  const Impl* impl = built();
  if (!impl) return true;
  const Impl& f = *impl;
  const size_t n = text.size();
  if (n < f.min_len) return false;
  if (f.unicode_folds && (std::memchr(text.data(), 0xE2, n) || std::memchr(text.data(), 0xC5, n)))
    return true;  // U+212A and U+017F fold to 'k' and 's' under (?i)
  uint32_t hits[kMaxHits];
  int n_hits = 0;
  auto hit = [&](uint32_t a) { return std::find(hits, hits + n_hits, a) != hits + n_hits; };
  const char* data = text.data();
  for (size_t q = 0; q + 4 <= n; q += f.stride) {
    const uint32_t gram = fold4(data + q);
    const uint32_t h = hash_of(gram);
    if (!((f.bitmap[h >> 6] >> (h & 63)) & 1)) continue;
    for (uint32_t k = f.starts[h]; k < f.starts[h + 1]; ++k) {
      const Impl::Entry& e = f.entries[k];
      if (e.gram != gram || e.offset > q) continue;
      if (e.has_next && (q + 8 > n || fold4(data + q + 4) != e.next)) continue;
      if (hit(e.atom) || !f.atom_at(text, q - e.offset, f.atoms[e.atom])) continue;
      if (n_hits == kMaxHits) return true;
      hits[n_hits++] = e.atom;
      for (uint32_t t = f.atom_term_starts[e.atom]; t < f.atom_term_starts[e.atom + 1]; ++t) {
        const uint32_t term = f.atom_terms[t];
        bool complete = true;  // the trigger is term_atoms[term_starts[term]]
        for (uint32_t i = f.term_starts[term] + 1; i < f.term_starts[term + 1] && complete; ++i)
          complete = f.atom_in(text, f.atoms[f.term_atoms[i]]);
        if (complete) return true;
      }
    }
  }
  return false;
}

}  // namespace triage
