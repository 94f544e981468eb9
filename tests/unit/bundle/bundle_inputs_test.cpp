// The input stage end to end: every accepted input form, damage, safety and limits, on
// inputs generated in a temporary directory (archives written with libarchive's writer).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <sstream>

#include "bundle/sha256.h"
#include "bundle_test_util.h"
#include "correlator/correlate.h"
#include "parsers/common/parser.h"
#include "reports/render.h"

using namespace triage;
using namespace triage::testing;

namespace {

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
}

// The JSON of `inventory` and `analyze` with the input path taken out, and the input's form
// (directory, tar, zip...) dropped: everything else must not depend on the form.
std::string json_without_input(const LoadResult& loaded, const std::string& input) {
  std::ostringstream out;
  render_inventory_json(loaded.evidence, out);
  Report report = correlate(loaded.evidence, AnalyzeOptions{});
  render_json(report, loaded.evidence, RenderOptions{}, out);
  std::string s = out.str();
  replace_all(s, input + "!", "<INPUT>/");
  replace_all(s, input + "/", "<INPUT>/");
  replace_all(s, input, "<INPUT>");
  std::string kept;
  std::istringstream lines(s);
  std::string line;
  while (std::getline(lines, line))
    if (line.find("\"form\":") == std::string::npos) kept += line + "\n";
  return kept;
}

std::string kinds_of(const BundleFacts& b) {
  std::string out;
  for (const auto& e : b.inventory.entries) out += e.info.path + " " + std::string(to_string(e.kind)) + "\n";
  return out;
}

// A plog of about `bytes` bytes whose lines do not compress well.
std::string big_plog(size_t bytes) {
  std::mt19937_64 rng(42);
  std::string s;
  uint64_t n = 0;
  for (; s.size() < bytes; ++n)
    s += fmt::format("[INFO] RUNTIME(618,python3):2025-03-06-01:09:07.{:03}.{:03} [stream.cc:{}]618 Sync:stream_id={}, token={:016x}\n",
                     n % 1000, (n / 7) % 1000, n % 4000, n % 97, rng());
  return s;
}

std::vector<Member> reversed(std::vector<Member> m) {
  std::reverse(m.begin(), m.end());
  return m;
}

}  // namespace

TEST_CASE("the same content as directory, tar, tar.zst, tar.gz and zip gives the same JSON", "[bundle][inputs]") {
  TempDir tmp;
  auto members = sample_bundle();
  std::string dir = tmp / "bundle";
  write_tree(dir, members);
  LoadResult from_dir = load({dir});
  REQUIRE(from_dir.errors.empty());
  std::string expected = json_without_input(from_dir, dir);

  struct Form {
    const char* name;
    ArchiveFormat format;
    Filter filter;
  };
  for (Form f : {Form{"b.tar", ArchiveFormat::tar, Filter::none}, Form{"b.tar.zst", ArchiveFormat::tar, Filter::zstd},
                 Form{"b.tar.gz", ArchiveFormat::tar, Filter::gzip}, Form{"b.zip", ArchiveFormat::zip, Filter::none}}) {
    INFO(f.name);
    std::string path = tmp / f.name;
    write_archive(path, members, f.format, f.filter);
    LoadResult loaded = load({path});
    REQUIRE(loaded.errors.empty());
    CHECK(json_without_input(loaded, path) == expected);
  }

  const BundleFacts& b = from_dir.evidence.bundles.at(0);
  CHECK(b.inventory.input_form == "directory");
  CHECK(b.inventory.entries.size() == members.size());
  const InventoryEntry* gz = find_entry(b, "kernel/syslog/messages-20250301.gz");
  REQUIRE(gz);
  CHECK(gz->kind == SourceKind::syslog);
  CHECK(gz->info.decompressed_from == "gzip");
  CHECK(gz->stats.lines == 2);
  CHECK(gz->sha256 == sha256_hex(read_file(dir + "/kernel/syslog/messages-20250301.gz")));
  CHECK(gz->info.size == read_file(dir + "/kernel/syslog/messages-20250301.gz").size());
  CHECK(gz->stats.bytes > gz->info.size);  // decompressed
  CHECK(find_entry(b, "processes/618/environ")->kind == SourceKind::proc_environ);
  CHECK(find_entry(b, "extra/home/user/job.log")->kind == SourceKind::python_log);
  CHECK(find_entry(b, "extra/home/user/job.log")->classified_by == ClassifiedBy::content_sniff);
  CHECK(b.inventory.manifest_entry == "manifest.json");
  for (const auto& e : b.inventory.entries) {
    INFO(e.info.path);
    if (e.kind == SourceKind::symlink) CHECK(e.manifest_note == "not listed in the manifest");
    else CHECK(e.manifest_note.empty());  // sizes and hashes agree with the manifest
  }
  CHECK(from_dir.recognised_any);
}

TEST_CASE("the order of archive members never changes the outcome", "[bundle][inputs]") {
  TempDir tmp;
  auto members = sample_bundle();
  write_archive(tmp / "fwd.tar", members, ArchiveFormat::tar, Filter::none);
  write_archive(tmp / "rev.tar", reversed(members), ArchiveFormat::tar, Filter::none);
  CHECK(json_without_input(load({tmp / "fwd.tar"}), tmp / "fwd.tar") ==
        json_without_input(load({tmp / "rev.tar"}), tmp / "rev.tar"));
}

TEST_CASE("the bundle root directory is not part of entry paths", "[bundle][inputs]") {
  TempDir tmp;
  auto members = sample_bundle();
  std::string plain = kinds_of(load({[&] {
                                 write_archive(tmp / "plain.tar", members, ArchiveFormat::tar, Filter::none);
                                 return tmp / "plain.tar";
                               }()}).evidence.bundles.at(0));
  for (std::string root : {"ascend-bundle-node-a-20250305T173000Z", "renamed-bundle"}) {
    INFO(root);
    auto rooted = members;
    for (auto& m : rooted) m.name = root + "/" + m.name;
    rooted.insert(rooted.begin(), Member{root, "", EntryType::directory});
    write_archive(tmp / "rooted.tar.zst", rooted, ArchiveFormat::tar, Filter::zstd);
    LoadResult loaded = load({tmp / "rooted.tar.zst"});
    const BundleFacts& b = loaded.evidence.bundles.at(0);
    CHECK(kinds_of(b) == plain);
    CHECK(find_entry(b, "system/uname.txt")->info.raw_path == root + "/system/uname.txt");
  }
  SECTION("a directory holding the bundle directory") {
    write_tree(tmp / "ticket/ascend-bundle-node-a-20250305T173000Z", members);
    CHECK(kinds_of(load({tmp / "ticket"}).evidence.bundles.at(0)) == plain);
  }
}

TEST_CASE("links are recorded as data and never followed", "[bundle][inputs]") {
  TempDir tmp;
  std::string dir = tmp / "loose";
  write_file(dir + "/usr/local/Ascend/ascend-toolkit/8.5.0/version.cfg",
             "runtime_running_version=[7.6.T13.0.B094:8.5.0]\n");
  std::filesystem::create_symlink("8.5.0", dir + "/usr/local/Ascend/ascend-toolkit/latest");
  std::filesystem::create_symlink("/etc", dir + "/etc-link");
  std::filesystem::create_symlink("usr", dir + "/usr-again");
  LoadResult loaded = load({dir});
  const BundleFacts& b = loaded.evidence.bundles.at(0);
  const InventoryEntry* latest = find_entry(b, "usr/local/Ascend/ascend-toolkit/latest");
  REQUIRE(latest);
  CHECK(latest->kind == SourceKind::symlink);
  CHECK(latest->classified_by == ClassifiedBy::file_type);
  CHECK(latest->info.link_target == "8.5.0");
  CHECK(latest->reason == "symbolic link -> 8.5.0");
  CHECK(find_entry(b, "etc-link")->info.link_target == "/etc");
  CHECK(b.inventory.entries.size() == 4);  // version.cfg and three links: nothing behind them
  CHECK(loaded.recognised_any);             // version.cfg

  SECTION("a directory of links alone holds no recognised evidence") {
    std::filesystem::remove(dir + "/usr/local/Ascend/ascend-toolkit/8.5.0/version.cfg");
    CHECK_FALSE(load({dir}).recognised_any);
  }
  SECTION("links in archives") {
    write_archive(tmp / "l.tar", {{"ascend/cann/latest", "", EntryType::symlink, "8.5.0"},
                                  {"a/hard", "", EntryType::file}},
                  ArchiveFormat::tar, Filter::none);
    LoadResult loaded_t = load({tmp / "l.tar"});
    const BundleFacts& t = loaded_t.evidence.bundles.at(0);
    CHECK(find_entry(t, "ascend/cann/latest")->kind == SourceKind::symlink);
    CHECK(find_entry(t, "ascend/cann/latest")->info.link_target == "8.5.0");
  }
}

TEST_CASE("device nodes, FIFOs and sockets are listed and skipped", "[bundle][inputs]") {
  TempDir tmp;
  SECTION("in an archive") {
    write_archive(tmp / "d.tar", {{"system/uname.txt", "Linux node-a 5.10.0 #1 SMP aarch64 GNU/Linux\n"},
                                  {"dev/davinci0", "", EntryType::device},
                                  {"run/pipe", "", EntryType::fifo}},
                  ArchiveFormat::tar, Filter::none);
    LoadResult loaded_b = load({tmp / "d.tar"});
    const BundleFacts& b = loaded_b.evidence.bundles.at(0);
    CHECK(b.inventory.entries.size() == 1);
    REQUIRE(b.inventory.skipped.size() == 2);
    CHECK(b.inventory.skipped[0].info.path == "dev/davinci0");
    CHECK(b.inventory.skipped[0].reason == "device node: not read");
    CHECK(b.inventory.skipped[1].reason == "FIFO: not read");
  }
  SECTION("in a directory: a FIFO is never opened (it would block)") {
    std::string dir = tmp / "loose";
    write_file(dir + "/uname.txt", "Linux node-a 5.10.0 #1 SMP aarch64 GNU/Linux\n");
    REQUIRE(mkfifo((dir + "/fifo").c_str(), 0600) == 0);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::string sock = dir + "/sock";
    REQUIRE(sock.size() < sizeof addr.sun_path);
    std::copy(sock.begin(), sock.end(), addr.sun_path);
    REQUIRE(bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    LoadResult loaded_b = load({dir});
    const BundleFacts& b = loaded_b.evidence.bundles.at(0);
    close(s);
    CHECK(b.inventory.entries.size() == 1);
    REQUIRE(b.inventory.skipped.size() == 2);
    CHECK(b.inventory.skipped[0].reason == "FIFO: not read");
    CHECK(b.inventory.skipped[1].reason == "socket: not read");
  }
}

TEST_CASE("absolute and ../ member names are normalised and flagged", "[bundle][inputs]") {
  TempDir tmp;
  write_archive(tmp / "evil.tar",
                {{"../../etc/passwd", "root:x:0:0:root:/root:/bin/bash\n"},
                 {"/system/uname.txt", "Linux node-a 5.10.0 #1 SMP aarch64 GNU/Linux\n"},
                 {"kernel/../kernel/dmesg.txt", "[    1.000000] Linux version 5.10.0\n"}},
                ArchiveFormat::tar, Filter::none);
  LoadResult loaded = load({tmp / "evil.tar"});
  const BundleFacts& b = loaded.evidence.bundles.at(0);
  const InventoryEntry* passwd = find_entry(b, "etc/passwd");
  REQUIRE(passwd);
  CHECK(passwd->info.unsafe_name);
  CHECK(passwd->info.raw_path == "../../etc/passwd");
  CHECK(find_entry(b, "system/uname.txt")->kind == SourceKind::uname);  // still classified
  CHECK(find_entry(b, "kernel/dmesg.txt")->kind == SourceKind::dmesg);
  const Finding* f = find_finding(b, "input-damaged/unsafe-name");
  REQUIRE(f);
  CHECK(f->severity == Severity::warning);
  REQUIRE(f->evidence.size() == 3);
  CHECK_THAT(f->evidence[0].excerpt, Catch::Contains("'../../etc/passwd'"));
  CHECK(*f->find_value("count") == "3");
  CHECK_FALSE(std::filesystem::exists(tmp.path() + "/../etc/passwd"));
}

TEST_CASE("a truncated tar.zst keeps everything read before the cut", "[bundle][inputs]") {
  TempDir tmp;
  std::vector<Member> members = sample_bundle();
  members.resize(3);  // manifest, uname, time
  std::string plog = big_plog(3 << 20);
  members.push_back({"logs/host/root/ascend/log/debug/plog/plog-618_20250306010906978.log", plog});
  members.push_back({"kernel/dmesg.txt", "[    1.000000] Linux version 5.10.0\n"});
  write_archive(tmp / "full.tar.zst", members, ArchiveFormat::tar, Filter::zstd);
  std::string bytes = read_file(tmp / "full.tar.zst");
  write_file(tmp / "cut.tar.zst", bytes.substr(0, bytes.size() * 6 / 10));

  LoadResult loaded = load({tmp / "cut.tar.zst"});
  REQUIRE(loaded.errors.empty());
  CHECK(loaded.recognised_any);
  const BundleFacts& b = loaded.evidence.bundles.at(0);
  CHECK(find_entry(b, "system/uname.txt")->stats.lines == 1);
  CHECK(find_entry(b, "system/time.txt")->kind == SourceKind::time_txt);
  const InventoryEntry* cut = find_entry(b, members[3].name);
  REQUIRE(cut);
  CHECK(cut->kind == SourceKind::plog);
  CHECK(cut->stats.bytes > 0);
  CHECK(cut->stats.bytes < plog.size());
  CHECK(cut->sha256.empty());
  CHECK_FALSE(find_entry(b, "kernel/dmesg.txt"));
  const Finding* f = find_finding(b, "input-damaged");
  REQUIRE(f);
  CHECK(f->severity == Severity::warning);
  CHECK(*f->find_value("entry") == members[3].name);
  CHECK(*f->find_value("offset") == std::to_string(cut->stats.bytes));
  REQUIRE(f->evidence.size() == 1);
  CHECK(f->evidence[0].entry == tmp / "cut.tar.zst" + "!" + members[3].name);
  CHECK_FALSE(f->does_not_prove.empty());
}

TEST_CASE("corrupt gzip: damage reported, what was decoded before it kept", "[bundle][inputs]") {
  TempDir tmp;
  std::string plog = big_plog(1 << 20);
  std::string gz = compress(plog, Filter::gzip);
  for (size_t i = 0; i < 32; ++i) gz[gz.size() / 2 + i] ^= 0x5a;
  SECTION("a single .gz file") {
    write_file(tmp / "plog-618.log.gz", gz);
    LoadResult loaded = load({tmp / "plog-618.log.gz"});
    const BundleFacts& b = loaded.evidence.bundles.at(0);
    REQUIRE(b.inventory.entries.size() == 1);
    const InventoryEntry& e = b.inventory.entries[0];
    CHECK(e.info.path == "plog-618.log.gz");
    CHECK(e.info.display == tmp / "plog-618.log.gz");
    CHECK(e.kind == SourceKind::plog);
    CHECK(e.stats.lines > 1000);
    CHECK(e.sha256 == sha256_hex(gz));  // the stored bytes were all read
    const Finding* f = find_finding(b, "input-damaged");
    REQUIRE(f);
    CHECK(f->severity == Severity::warning);
    CHECK(loaded.recognised_any);
  }
  SECTION("damage at the start of the deflate data: nothing decoded, the hash still covers the file") {
    std::string early = compress(plog, Filter::gzip);
    for (size_t i = 0; i < 16; ++i) early[100 + i] ^= 0xa5;
    write_file(tmp / "early.gz", early);
    LoadResult loaded = load({tmp / "early.gz"});
    const BundleFacts& b = loaded.evidence.bundles.at(0);
    REQUIRE(find_finding(b, "input-damaged"));
    CHECK(b.inventory.entries.at(0).sha256 == sha256_hex(early));
    CHECK(b.inventory.entries.at(0).info.size == early.size());
  }
  SECTION("a rotated log inside a bundle directory") {
    auto members = sample_bundle();
    std::string dir = tmp / "b";
    write_tree(dir, members);
    write_file(dir + "/kernel/syslog/messages-20250301.gz", gz);
    LoadResult loaded_b = load({dir});
    const BundleFacts& b = loaded_b.evidence.bundles.at(0);
    const InventoryEntry* e = find_entry(b, "kernel/syslog/messages-20250301.gz");
    CHECK(e->kind == SourceKind::syslog);
    const Finding* f = find_finding(b, "input-damaged");
    REQUIRE(f);
    CHECK(*f->find_value("entry") == "kernel/syslog/messages-20250301.gz");
    CHECK_THAT(e->manifest_note, Catch::Contains("the manifest says"));  // size and hash changed
    CHECK(find_entry(b, "system/uname.txt")->kind == SourceKind::uname);
  }
}

TEST_CASE("single files: plain, .zst and .gz", "[bundle][inputs]") {
  TempDir tmp;
  std::string dmesg = "[ 2081.843939] [ascend] [devmm] [devmm_alloc_svm_proc_set_to_file 662] <main:42394,42394> x\n";
  write_file(tmp / "kern.txt", dmesg);
  write_file(tmp / "kern.txt.zst", compress(dmesg, Filter::zstd));
  write_file(tmp / "renamed.bin", compress(dmesg, Filter::gzip));
  for (const char* name : {"kern.txt", "kern.txt.zst", "renamed.bin"}) {
    INFO(name);
    LoadResult loaded = load({tmp / name});
    const BundleFacts& b = loaded.evidence.bundles.at(0);
    CHECK(b.inventory.input_form == "file");
    REQUIRE(b.inventory.entries.size() == 1);
    CHECK(b.inventory.entries[0].kind == SourceKind::dmesg);
    CHECK(b.inventory.entries[0].info.path == name);
    CHECK(b.inventory.entries[0].stats.lines == 1);
    CHECK(b.input_findings.empty());
  }
}

TEST_CASE("several paths are read in the order given, one bundle each", "[bundle][inputs]") {
  TempDir tmp;
  write_tree(tmp / "b", sample_bundle());
  write_file(tmp / "kern.txt", "[    1.000000] Linux version 5.10.0\n");
  LoadResult loaded = load({tmp / "kern.txt", tmp / "b"});
  REQUIRE(loaded.evidence.bundles.size() == 2);
  CHECK(loaded.evidence.bundles[0].input == tmp / "kern.txt");
  CHECK(loaded.evidence.bundles[1].input == tmp / "b");
  SECTION("an input that does not exist is an error") {
    LoadResult bad = load({tmp / "b", tmp / "missing.tar"});
    REQUIRE(bad.errors.size() == 1);
    CHECK(bad.errors[0] == tmp / "missing.tar" + ": no such file or directory");
  }
}

TEST_CASE("nothing recognised: empty files and random bytes", "[bundle][inputs]") {
  TempDir tmp;
  write_file(tmp / "empty.log", "");
  LoadResult empty = load({tmp / "empty.log"});
  CHECK_FALSE(empty.recognised_any);
  CHECK(empty.evidence.bundles.at(0).inventory.entries.at(0).reason == "empty");
  std::mt19937 rng(7);
  for (int i = 0; i < 5; ++i) {
    std::string noise(4096, '\0');
    for (auto& c : noise) c = static_cast<char>(rng());
    write_file(tmp / "noise/f" + std::to_string(i), noise);
  }
  LoadResult noise = load({tmp / "noise"});
  CHECK_FALSE(noise.recognised_any);
  for (const auto& e : noise.evidence.bundles.at(0).inventory.entries) CHECK_THAT(e.reason, Catch::Contains("binary"));
}

TEST_CASE("a renamed file in a loose directory classifies as in the bundle", "[bundle][inputs]") {
  TempDir tmp;
  auto members = sample_bundle();
  write_tree(tmp / "b", members);
  int n = 0;
  for (const auto& m : members)
    if (m.type == EntryType::file) write_file(tmp / "loose/file" + std::to_string(n++), m.data);
  LoadResult bundle = load({tmp / "b"});
  LoadResult loose = load({tmp / "loose"});
  n = 0;
  for (const auto& m : members) {
    if (m.type != EntryType::file) continue;
    INFO(m.name);
    const InventoryEntry* in_bundle = find_entry(bundle.evidence.bundles[0], m.name);
    const InventoryEntry* renamed = find_entry(loose.evidence.bundles[0], "file" + std::to_string(n++));
    REQUIRE(in_bundle);
    REQUIRE(renamed);
    CHECK(to_string(renamed->kind) == to_string(in_bundle->kind));
    CHECK(renamed->classified_by == ClassifiedBy::content_sniff);
  }
}

TEST_CASE("the manifest is reconciled with what was read", "[bundle][inputs]") {
  TempDir tmp;
  std::string uname = "Linux node-a 5.10.0 #1 SMP aarch64 GNU/Linux\n";
  std::string dmesg = "[    1.000000] Linux version 5.10.0\n";
  std::string out = "Mar  5 17:09:07 node-a kernel: x\n";
  std::string manifest = fmt::format(
      R"({{"format": "ascend-bundle", "format_version": 1, "items": [
  {{"path": "system/uname.txt", "exec": ["uname", "-a"], "status": "ok", "bytes": {}, "sha256": "{}"}},
  {{"path": "kernel/dmesg.txt", "exec": ["dmesg", "-T"], "status": "ok", "bytes": {}, "sha256": "{}"}},
  {{"path": "extra/out.txt", "exec": ["journalctl", "-k", "-b", "0"], "status": "ok"}},
  {{"path": "system/boot.txt", "exec": null, "status": "ok", "bytes": 80}},
  {{"path": "system/devices.txt", "exec": ["ls", "-l"], "status": "absent", "reason": "source_missing"}}]}})",
      uname.size(), sha256_hex("something else"), dmesg.size(), sha256_hex(dmesg));
  std::string dir = tmp / "b";
  write_tree(dir, {{"manifest.json", manifest}, {"system/uname.txt", uname}, {"kernel/dmesg.txt", dmesg},
                   {"extra/out.txt", out}, {"notes.txt", "hello\n"}});
  LoadResult loaded_b = load({dir});
  const BundleFacts& b = loaded_b.evidence.bundles.at(0);
  CHECK_THAT(find_entry(b, "system/uname.txt")->manifest_note, Catch::Contains("sha256"));
  const InventoryEntry* d = find_entry(b, "kernel/dmesg.txt");
  CHECK(d->kind == SourceKind::dmesg);
  CHECK(d->manifest_note == "the manifest item (written by `dmesg -T`) suggests dmesg_human; the layout path wins");
  const InventoryEntry* o = find_entry(b, "extra/out.txt");
  CHECK(o->kind == SourceKind::journal_text);  // the manifest decides before the content
  CHECK(o->classified_by == ClassifiedBy::manifest);
  CHECK(o->manifest_note.empty());
  CHECK(find_entry(b, "notes.txt")->manifest_note == "not listed in the manifest");
  REQUIRE(b.inventory.manifest_notes.size() == 1);
  CHECK(b.inventory.manifest_notes[0].path == "system/boot.txt");
  CHECK(b.inventory.manifest_notes[0].note == "listed as collected (status ok) but not in the input");
}

TEST_CASE("limits cut reading with findings naming the flag", "[bundle][inputs]") {
  TempDir tmp;
  auto members = sample_bundle();
  std::string dir = tmp / "b";
  write_tree(dir, members);
  std::string big = big_plog(200000);
  write_file(dir + "/extra/big.log", big);
  SECTION("--max-entry-bytes") {
    AnalyzeOptions o;
    o.limits.max_entry_bytes = 1000;
    LoadResult loaded_b = load({dir}, o);
    const BundleFacts& b = loaded_b.evidence.bundles.at(0);
    const InventoryEntry* e = find_entry(b, "extra/big.log");
    CHECK(e->stats.bytes == 1000);
    CHECK(e->sha256.empty());
    CHECK(e->info.size == big.size());
    CHECK(find_entry(b, "system/uname.txt")->stats.bytes < 1000);
    const Finding* f = find_finding(b, "input-limit/entry-bytes");
    REQUIRE(f);
    CHECK(f->severity == Severity::warning);
    CHECK_THAT(f->next_checks.at(0), Catch::Contains("--max-entry-bytes"));
  }
  SECTION("--max-entries") {
    AnalyzeOptions o;
    o.limits.max_entries = 3;
    LoadResult loaded = load({dir, tmp / "b"}, o);
    const BundleFacts& b = loaded.evidence.bundles.at(0);
    CHECK(b.inventory.entries.size() == 3);
    const Finding* f = find_finding(b, "input-limit/entries");
    REQUIRE(f);
    CHECK_THAT(f->title, Catch::Contains("--max-entries"));
    CHECK(*f->find_value("inputs_not_read") == "1");
  }
  SECTION("--max-total-bytes") {
    AnalyzeOptions o;
    o.limits.max_total_bytes = 5000;
    LoadResult loaded = load({dir, tmp / "b"}, o);
    REQUIRE(loaded.evidence.bundles.size() == 1);
    const Finding* f = find_finding(loaded.evidence.bundles[0], "input-limit/total-bytes");
    REQUIRE(f);
    CHECK_THAT(f->title, Catch::Contains("--max-total-bytes"));
    uint64_t read = 0;
    for (const auto& e : loaded.evidence.bundles[0].inventory.entries) read += e.stats.bytes;
    CHECK(read == 5000);
  }
  SECTION("--max-line-bytes cuts lines and counts them malformed") {
    write_file(dir + "/extra/wide.txt", "a\n" + std::string(5000, 'w') + "\nb\n");
    AnalyzeOptions o;
    o.limits.max_line_bytes = 100;
    LoadResult loaded_b = load({dir}, o);
    const BundleFacts& b = loaded_b.evidence.bundles.at(0);
    const InventoryEntry* e = find_entry(b, "extra/wide.txt");
    CHECK(e->stats.lines == 3);
    CHECK(e->stats.malformed == 1);
    REQUIRE(e->stats.samples_of_malformed.size() == 1);
    CHECK(e->stats.samples_of_malformed[0].line == 2);
    const Finding* f = find_finding(b, "input-limit/line-bytes");
    REQUIRE(f);
    CHECK(f->severity == Severity::info);
  }
}
