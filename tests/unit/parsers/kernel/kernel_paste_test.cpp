// Kernel text as people paste it: driver messages without their dmesg time, with only a
// journal time, and with header and body on separate lines. Lines verbatim from public
// write-ups (code index ids 71232884015, 57759409653, 55810804903) and section 3.1 of the
// reference excerpts.
#include <catch2/catch.hpp>

#include "ingest/classify.h"
#include "bundle_test_util.h"
#include "parsers/kernel/kernel_line.h"

using namespace triage;
using namespace triage::testing;

namespace {

// id 71232884015: dmesg lines of a devmm pinning failure, wrapped by their author.
const char* kWrapped =
    "[ascend] [devmm] [ERROR] [devmm_pin_user_pages_fast 124]\n"
    "<VLLM::Worker_TP:670605,670605> Get_user_pages_fast fail.\n"
    "(va=0xfffc8c19e2e8; expected_page_num=1; real_got_page_num=0)\n"
    "\n"
    "[ascend] [devmm] [ERROR] [devmm_get_non_svm_addr_pa_list 1293]\n"
    "<VLLM::Worker_TP:670605,670605> Get user pages fail.\n"
    "(ret=-14; va=0xfffc8c19e2e8; size=0x200; num=1)\n"
    "\n"
    "[ascend] [devmm] [ERROR] [devmm_make_host_pa_node_list 1417]\n"
    "<VLLM::Worker_TP:670736,670736> Get pa list failed.\n"
    "(pin_flg=3; va=fffc8c19e2e8)\n";

// id 57759409653: `journalctl -k` lines with the host and `kernel:` cut away, wrapped.
const char* kJournalWrapped =
    "Aug 03 09:30:02 [ascend] [devmm] [ERROR]\n"
    "devmm_pin_user_pages_fast <VLLM::Worker_TP:3068957>\n"
    "Get_user_pages_fast fail. expected_page_num=512; real_got_page_num=0\n"
    "\n"
    "Aug 03 09:30:02 [ascend] [devmm] [ERROR]\n"
    "devmm_pin_user_pages_fast <VLLM::Worker_TP:3069323>\n"
    "Get_user_pages_fast fail. expected_page_num=512; real_got_page_num=0\n"
    "\n"
    "Aug 03 09:30:02 [ascend] [devmm] [ERROR]\n"
    "devmm_get_non_svm_addr_pa_list <VLLM::Worker_TP:3068957>\n"
    "Get user pages fail. ret=-14; size=0x200000; num=513\n";

// Kernel events are ordered by time after reading: look them up by their line.
const KernelEvent& at_line(const std::vector<KernelEvent>& events, uint64_t line) {
  for (const auto& e : events)
    if (e.evidence.line == line) return e;
  FAIL("no kernel event at line " << line);
  return events.front();
}

}  // namespace

TEST_CASE("an Ascend printk pasted without its time is a kernel line", "[kernel][paste]") {
  KernelLine k;
  REQUIRE(parse_kernel_line("[ascend] [devmm] [ERROR] Va is error, can not fault.", k) == KernelResult::parsed);
  CHECK(k.shape == KernelLineShape::no_time);
  CHECK(k.message == "[ascend] [devmm] [ERROR] Va is error, can not fault.");
  // near misses: the wrapped body lines, a kernel line of another driver without time
  CHECK(parse_kernel_line("(start=0x12c2bec00000, bitmap=0xa88)", k) == KernelResult::not_kernel);
  CHECK(parse_kernel_line("<VLLM::Worker_TP:670605,670605> Get_user_pages_fast fail.", k) == KernelResult::not_kernel);
  CHECK(parse_kernel_line("log_to_printk_and_ringbuf: 4 callbacks suppressed", k) == KernelResult::not_kernel);
  CHECK(parse_kernel_line("[ascended] x", k) == KernelResult::not_kernel);
}

TEST_CASE("the level tag after the module and a missing blank still read as the Ascend printk shape",
          "[kernel][paste]") {
  AscendPrintkView v;
  REQUIRE(parse_ascend_printk("[ascend] [devmm] [ERROR] [devmm_pin_user_pages_fast 124]", v));
  CHECK(v.error_tag);
  CHECK(v.module == "devmm");
  CHECK(v.function == "devmm_pin_user_pages_fast");
  CHECK(v.line == "124");
  // the usual order (3.1 of the reference excerpts), and without the blank after a tag
  REQUIRE(parse_ascend_printk("[ascend] [ERROR] [devmm] [devmm_pin_user_pages_fast 124] <VLLM::Worker_TP:670605,670605> "
                              "Get_user_pages_fast fail. (va=0xfffc8c19e2e8; expected_page_num=1; real_got_page_num=0)", v));
  CHECK(v.error_tag);
  CHECK(v.module == "devmm");
  REQUIRE(parse_ascend_printk("[ascend] [ERROR][devmm] [devmm_pin_user_pages_fast 124] <VLLM::Worker_TP:670605,670605> "
                              "Get_user_pages_fast fail.", v));
  CHECK(v.module == "devmm");
  CHECK(v.pid == "670605");
  CHECK_FALSE(parse_ascend_printk("[ascending] [devmm] x", v));
}

TEST_CASE("a driver message whose header and body stand on separate lines is one kernel event",
          "[kernel][paste]") {
  CHECK(sniff_content(kWrapped, true).kind == SourceKind::dmesg);
  TempDir dir;
  LoadResult r;
  const BundleFacts& b = load_one(dir, "dmesg-devmm.txt", kWrapped, r);
  const auto& events = b.logs.kernel_events;
  REQUIRE(events.size() == 3);
  const KernelEvent& first = at_line(events, 1);
  REQUIRE(first.ascend);
  CHECK(first.ascend->module == "devmm");
  CHECK(first.ascend->error_tag);
  CHECK(first.ascend->function == "devmm_pin_user_pages_fast");
  CHECK(first.ascend->comm == "VLLM::Worker_TP");
  CHECK(first.ascend->pid == 670605);
  CHECK(first.ascend->message == "Get_user_pages_fast fail.");
  REQUIRE(first.ascend->values.size() == 3);
  CHECK(first.ascend->values[0] == std::pair<std::string, std::string>{"va", "0xfffc8c19e2e8"});
  REQUIRE(at_line(events, 5).ascend);
  CHECK(at_line(events, 5).ascend->values[0] == std::pair<std::string, std::string>{"ret", "-14"});
  REQUIRE(at_line(events, 9).ascend);
  CHECK(at_line(events, 9).ascend->pid == 670736);
  const InventoryEntry& e = b.inventory.entries.at(0);
  CHECK(e.stats.lines == 11);
  CHECK(e.stats.parsed == 9);        // 3 headers, 6 continuation lines
  CHECK(e.stats.unrecognised == 2);  // the blank lines between them
}

TEST_CASE("journal lines without host and ident, wrapped, give their events with the journal time",
          "[kernel][paste]") {
  TempDir dir;
  LoadResult r;
  const BundleFacts& b = load_one(dir, "journal.txt", kJournalWrapped, r);
  const auto& events = b.logs.kernel_events;
  REQUIRE(events.size() == 3);
  const KernelEvent& first = at_line(events, 1);
  REQUIRE(first.ascend);
  CHECK(first.ascend->function == "devmm_pin_user_pages_fast");
  CHECK(first.ascend->pid == 3068957);
  CHECK(first.ascend->message == "Get_user_pages_fast fail. expected_page_num=512; real_got_page_num=0");
  CHECK(first.time.original == "Aug 03 09:30:02");
  REQUIRE(at_line(events, 9).ascend);
  CHECK(at_line(events, 9).ascend->function == "devmm_get_non_svm_addr_pa_list");
  CHECK(at_line(events, 9).ascend->pid == 3068957);
}

TEST_CASE("a wrapped tail is joined; an unrelated line after a header is not", "[kernel][paste]") {
  TempDir dir;
  LoadResult r;
  // id 55810804903: the header with its text, the (k=v) tail on the next line.
  const BundleFacts& b = load_one(dir, "va.txt",
                                  "[ascend] [devmm] [ERROR] Va is error, can not fault.\n"
                                  "(start=0x12c2bec00000, bitmap=0xa88)\n"
                                  "[ascend] [devmm] [ERROR] Va is error, can not fault.\n"
                                  "log_to_printk_and_ringbuf: 4 callbacks suppressed\n",
                                  r);
  const auto& events = b.logs.kernel_events;
  REQUIRE(events.size() == 2);
  const KernelEvent& joined = at_line(events, 1);
  REQUIRE(joined.ascend);
  CHECK(joined.ascend->message == "Va is error, can not fault.");
  REQUIRE(joined.ascend->values.size() == 2);
  CHECK(joined.ascend->values[1] == std::pair<std::string, std::string>{"bitmap", "0xa88"});
  REQUIRE(at_line(events, 3).ascend);
  CHECK(at_line(events, 3).ascend->values.empty());
  CHECK(b.inventory.entries.at(0).stats.unrecognised == 1);
}
