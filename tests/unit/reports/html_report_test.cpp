// The HTML report: every bundle string comes out inert (asserted on the HTML text with a
// small tag scanner: only the renderer's own tags and attributes, no event handler, no link
// leaving the page but the knowledge's source pages), the page is self-contained, and the SVG timeline shows lanes, the stall
// span, errors, reboots and installs.
#include <catch2/catch.hpp>

#include <cctype>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ingest/load.h"
#include "correlator/summaries/bundle_summary.h"
#include "correlator/correlate.h"
#include "knowledge/source_links.h"
#include "reports/html_escape.h"
#include "reports/render.h"
#include "reports/timeline_lane_keys.h"

using namespace triage;

namespace {

// The payloads a hostile (or just unlucky) plog line may carry.
const std::string kScript = "<script>document.body.setAttribute('data-xss','1')</script>";
const std::string kImg = "<img src=x onerror=alert(1)>";
const std::string kQuote = "a\" onmouseover=\"alert(1)\" x=\"";
const std::string kCdata = "]]><script>alert(1)</script><![CDATA[";
const std::string kJsUrl = "javascript:alert(document.cookie)";
const std::string kAll = kScript + " " + kImg + " " + kQuote + " " + kCdata + " " + kJsUrl;

struct Tag {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
};

// Reads every tag of the page. Attribute values are double-quoted by the renderer; a tag
// that does not parse that way fails the test (an escaping bug shows up as a broken tag).
std::vector<Tag> scan_tags(const std::string& html) {
  std::vector<Tag> tags;
  size_t i = 0;
  auto in_raw_text = [&](const std::string& name) { return name == "style"; };
  while ((i = html.find('<', i)) != std::string::npos) {
    size_t j = i + 1;
    if (html.compare(i, 4, "<!--") == 0) FAIL("comment in the page at " << i);
    if (html.compare(i, 9, "<!DOCTYPE") == 0) {
      i = html.find('>', i);
      continue;
    }
    Tag t;
    bool closing = j < html.size() && html[j] == '/';
    if (closing) ++j;
    while (j < html.size() && (std::isalnum(static_cast<unsigned char>(html[j])) || html[j] == '-')) t.name += html[j++];
    INFO("tag at offset " << i << ": " << html.substr(i, 80));
    REQUIRE(!t.name.empty());
    for (;;) {
      while (j < html.size() && std::isspace(static_cast<unsigned char>(html[j]))) ++j;
      REQUIRE(j < html.size());
      if (html[j] == '>') break;
      if (html.compare(j, 2, "/>") == 0) {
        ++j;
        break;
      }
      std::string name;
      while (j < html.size() && (std::isalnum(static_cast<unsigned char>(html[j])) || html[j] == '-' || html[j] == ':'))
        name += html[j++];
      REQUIRE(!name.empty());
      std::string value;
      if (html[j] == '=') {
        REQUIRE(html[j + 1] == '"');
        size_t close = html.find('"', j + 2);
        REQUIRE(close != std::string::npos);
        value = html.substr(j + 2, close - j - 2);
        REQUIRE(value.find('<') == std::string::npos);
        REQUIRE(value.find('>') == std::string::npos);
        j = close + 1;
      }
      t.attributes.emplace_back(name, value);
    }
    i = j + 1;
    if (in_raw_text(t.name) && !closing) {  // raw text up to its end tag
      size_t end = html.find("</" + t.name + ">", i);
      REQUIRE(end != std::string::npos);
      i = end;
    }
    tags.push_back(std::move(t));
  }
  return tags;
}

// The page holds only the renderer's own markup: known tags, no event handlers, no style
// attribute, no script and no external resource; links go to anchors inside the page or, with
// rel="noreferrer noopener", to a public page of the knowledge's finding sources (never to a
// URL from a bundle).
void require_inert(const std::string& html) {
  std::set<std::string> source_urls;
  for (const auto& s : finding_sources_for("")) source_urls.insert(html::escape(s.url));
  size_t external = 0;
  static const std::set<std::string> kTags = {
      "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "div", "section",
      "span", "a", "ul", "ol", "li", "details", "summary", "pre", "code", "dl", "dt", "dd",
      "table", "tr", "th", "td", "b", "i", "br", "footer", "svg", "g", "rect", "circle",
      "line", "polygon", "text"};
  for (const auto& t : scan_tags(html)) {
    INFO("tag " << t.name);
    CHECK(kTags.count(t.name) == 1);
    for (const auto& [name, value] : t.attributes) {
      INFO("attribute " << name << "=\"" << value << '"');
      CHECK(name.rfind("on", 0) != 0);
      CHECK(name != "style");
      CHECK(name != "src");
      if (name == "href") {
        REQUIRE(!value.empty());
        if (value[0] == '#') continue;
        ++external;
        CHECK(t.name == "a");
        CHECK(source_urls.count(value) == 1);
        bool no_referrer = false;
        for (const auto& [n, v] : t.attributes) no_referrer = no_referrer || (n == "rel" && v == "noreferrer noopener");
        CHECK(no_referrer);
      }
    }
  }
  std::string lower = html;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  CHECK(lower.find("<script") == std::string::npos);
  CHECK(lower.find("<img") == std::string::npos);
  CHECK(lower.find("<![cdata[") == std::string::npos);
  CHECK(html.find("]]>") == std::string::npos);
  CHECK(lower.find("href=\"javascript") == std::string::npos);
  CHECK(lower.find("http://") == lower.find("http://www.w3.org/2000/svg"));  // the SVG namespace only
  size_t https = 0;
  for (size_t at = lower.find("https://"); at != std::string::npos; at = lower.find("https://", at + 1)) ++https;
  CHECK(https == external);  // every https:// is one of the source links
}

EvidenceRef ref(std::string entry, uint64_t line, std::string excerpt) {
  EvidenceRef e;
  e.entry = std::move(entry);
  e.line = line;
  e.excerpt = std::move(excerpt);
  return e;
}

constexpr int64_t kT0 = 1788484800LL * 1000000;  // 2026-09-04T01:20:00Z
constexpr int64_t kMin = 60LL * 1000000;

// A report as the correlator would build it, every bundle string holding the payloads.
Report hostile_report() {
  Report r;
  Finding f;
  f.id = "stream-stall";
  f.severity = Severity::error;
  f.confidence = Confidence::high;
  f.host = "node-" + kScript;
  f.title = "Stream 47 stalled " + kImg;
  f.observed = "observed " + kQuote;
  f.does_not_prove = "limits " + kCdata;
  f.next_checks = {"grep -n x " + kJsUrl};
  f.value("stream", kImg);
  f.evidence.push_back(ref("logs/" + kQuote + "/plog-1.log", 12, "[EVENT] RUNTIME(1,python3): " + kAll));
  r.findings.push_back(f);
  Finding g;
  g.id = "observation-point";
  g.severity = Severity::warning;
  g.title = "observation";
  g.evidence.push_back(ref("extra/train.log", 3, "RuntimeError " + kJsUrl));
  r.findings.push_back(g);

  Hypothesis h;
  h.id = "host-driver-installation";
  h.title = "Host driver install residue " + kImg;
  h.confidence = Confidence::high;
  h.score = 3.5;
  h.rationale = kQuote;
  h.supporting.push_back({"stream-stall", 0, "stall " + kScript});
  h.contradicting.push_back({"observation-point", 7, "index out of range: linked by id"});
  h.consequences.push_back({"no-such-finding", 0, "not in the report"});
  r.verdict.ranked.push_back(h);
  r.verdict.summary = "Summary " + kCdata;
  r.verdict.next_check = {"a vs b", "look " + kImg, "modinfo -n drv_pcie_host; echo '" + kScript + "'"};

  TimelineEvent stall;
  stall.first_utc_us = kT0 + 5 * kMin;
  stall.last_utc_us = kT0 + 23 * kMin;
  stall.count = 7;
  stall.source = "plog";
  stall.kind = "stall-span";
  stall.severity = Severity::error;
  stall.message = "stream 47 stalled " + kAll;
  stall.host = f.host;
  stall.local_offset_seconds = 8 * 3600;
  stall.evidence = f.evidence[0];
  stall.finding_ids = {"stream-stall"};
  r.timeline.events.push_back(stall);
  TimelineEvent err = stall;
  err.first_utc_us = err.last_utc_us = kT0 + 25 * kMin;
  err.count = 1;
  err.kind = "signature:runtime/task-timeout";
  err.message = "GetError " + kImg;
  r.timeline.events.push_back(err);
  TimelineEvent install;
  install.first_utc_us = install.last_utc_us = kT0 - 11 * 60 * kMin;
  install.source = "install-log";
  install.kind = "install";
  install.message = "driver 26.0.rc1 installed " + kQuote;
  install.evidence = ref("ascend/seclog/ascend_install.log", 40, kCdata);
  r.timeline.events.push_back(install);
  TimelineEvent kernel;
  kernel.first_utc_us = kT0 + 40 * kMin;
  kernel.last_utc_us = kT0 + 41 * kMin;
  kernel.count = 36;
  kernel.source = "dmesg <" + kScript;
  kernel.kind = "log-line";
  kernel.severity = Severity::critical;
  kernel.message = "Unknown symbol " + kJsUrl;
  r.timeline.events.push_back(kernel);
  BootMark boot;
  boot.host = f.host;
  boot.boot_id = "b-" + kImg;
  boot.start_utc_us = kT0 + 30 * kMin;
  boot.after_previous = true;
  r.timeline.boots.push_back(boot);
  r.timeline.collection_utc_us = kT0 + 45 * kMin;
  ClockSkew skew;
  skew.host = f.host;
  skew.source_a = "journal";
  skew.source_b = "dmesg";
  skew.b_minus_a_seconds = 37.25;
  skew.pairs = 4;
  skew.method = "same kernel line " + kQuote;
  r.timeline.skews.push_back(skew);
  return r;
}

std::string render(const Report& r, const EvidenceSet& set = {}) {
  std::ostringstream out;
  render_html(r, set, RenderOptions{}, out);
  return out.str();
}

size_t count(const std::string& s, std::string_view needle) {
  size_t n = 0;
  for (size_t i = s.find(needle); i != std::string::npos; i = s.find(needle, i + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("html escape: markup, quotes, control bytes and invalid UTF-8", "[html]") {
  CHECK(html::escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  CHECK(html::escape("]]>") == "]]&gt;");
  CHECK(html::escape("a\tb\nc\x01\x7f") == "a\tb\\x0ac\\x01\\x7f");
  CHECK(html::escape("a\nb", true) == "a\nb");
  CHECK(html::escape("\xe6\xa0\x88 ok") == "\xe6\xa0\x88 ok");          // valid UTF-8 kept
  CHECK(html::escape("\xff\xc0\xaf") == "\\xff\\xc0\\xaf");             // invalid, overlong
  CHECK(html::escape("\xed\xa0\x80") == "\\xed\\xa0\\x80");             // a surrogate
  CHECK(html::escape("\xe6\xa0") == "\\xe6\\xa0");                      // truncated sequence
  CHECK(html::anchor("f", 12) == "f-12");
}

TEST_CASE("html report: bundle strings in every position come out inert", "[html]") {
  Report r = hostile_report();
  EvidenceSet set;
  BundleFacts b;
  b.input = "samples/" + kQuote;
  b.host = "node-" + kScript;
  set.bundles.push_back(b);
  r.bundles.push_back(summarize_bundle(b));  // as correlate() does
  std::string html = render(r, set);
  require_inert(html);
  // The payloads are shown as text, not dropped.
  CHECK(html.find("&lt;script&gt;document.body.setAttribute(&#39;data-xss&#39;,&#39;1&#39;)&lt;/script&gt;") !=
        std::string::npos);
  CHECK(html.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
  CHECK(html.find("a&quot; onmouseover=&quot;alert(1)&quot; x=&quot;") != std::string::npos);
  CHECK(html.find("]]&gt;&lt;script&gt;") != std::string::npos);
  CHECK(html.find("javascript:alert(document.cookie)") != std::string::npos);  // as text only
  // The host name in the page title and heading.
  CHECK(html.find("<title>ascend-triage report: node-&lt;script&gt;") != std::string::npos);
  // The entry path of the evidence, with its line.
  CHECK(html.find("<div class=\"ev-ref\">logs/a&quot; onmouseover=&quot;alert(1)&quot; x=&quot;/plog-1.log:12</div>") !=
        std::string::npos);
  // SVG hover text of the stall carries the escaped message.
  CHECK(html.find("<title>2026-09-04T01:25:00Z to 2026-09-04T01:43:00Z (7 times) [error] stall-span on node-&lt;script&gt;") !=
        std::string::npos);
}

TEST_CASE("html report: self-contained, with a strict Content-Security-Policy", "[html]") {
  std::string html = render(hostile_report());
  CHECK(html.rfind("<!DOCTYPE html>\n", 0) == 0);
  CHECK(count(html, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                    "style-src 'unsafe-inline'; img-src data:\">") == 1);
  // The policy comes before anything that could load or run.
  CHECK(html.find("Content-Security-Policy") < html.find("<style>"));
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("@import") == std::string::npos);
  CHECK(html.find("url(") == std::string::npos);
  CHECK(html.find("</html>\n") == html.size() - 8);
}

TEST_CASE("html report: verdict links go to the findings they name", "[html]") {
  std::string html = render(hostile_report());
  CHECK(html.find("<section class=\"finding sev-error\" id=\"f-0\">") != std::string::npos);
  CHECK(html.find("<section class=\"finding sev-warning\" id=\"f-1\">") != std::string::npos);
  CHECK(html.find("<a href=\"#f-0\" class=\"mono\">stream-stall</a>: stall &lt;script&gt;") != std::string::npos);
  // A link whose index is wrong is resolved by its id; an unknown id is text, not a link.
  CHECK(html.find("<a href=\"#f-1\" class=\"mono\">observation-point</a>") != std::string::npos);
  CHECK(html.find("<span class=\"mono\">no-such-finding</span>") != std::string::npos);
  CHECK(html.find("href=\"#f-7\"") == std::string::npos);
  // The next check's command is shown as code.
  CHECK(html.find("<pre><code>modinfo -n drv_pcie_host; echo &#39;&lt;script&gt;") != std::string::npos);
  // Evidence is collapsible.
  CHECK(html.find("<details><summary>Evidence (1 line)</summary>") != std::string::npos);
}

TEST_CASE("html report: SVG timeline shows lanes, the stall, errors, reboots and installs", "[html]") {
  Report r = hostile_report();
  std::string html = render(r);
  // Lanes in reading order: plog, then install-log, then the unknown source (escaped).
  size_t plog = html.find(">plog (2)</text>"), install = html.find(">install-log (1)</text>"),
         other = html.find(">dmesg &lt;&lt;scri... (1)</text>");  // shortened to fit; full in <title>
  REQUIRE(plog != std::string::npos);
  REQUIRE(install != std::string::npos);
  REQUIRE(other != std::string::npos);
  CHECK(plog < install);
  CHECK(install < other);
  CHECK(html.find("<g><title>dmesg &lt;&lt;script&gt;document.body") != std::string::npos);
  // A mark's fill is its source (src-N, N its place in model/timeline_lanes.h), its outline its severity.
  // Install eleven hours before the stall: the overview plus a zoomed incident window.
  CHECK(count(html, "<svg ") == 2);
  CHECK(html.find("<h3>Incident window: ") != std::string::npos);
  CHECK(html.find("1 event row(s) lie outside this window") != std::string::npos);  // the install
  CHECK(count(html, "class=\"tl-stall\"") == 2);
  CHECK(html.find("class=\"tl-stall-label\"") != std::string::npos);  // wide enough in the zoom
  CHECK(html.find(">stall 18 min</text>") != std::string::npos);
  CHECK(count(html, "<polygon class=\"tl-install\"") == 1);           // only in the overview
  // ... and named at the focus chart's left edge with its time.
  CHECK(count(html, "class=\"tl-edge-label\"") == 1);
  CHECK(html.find("text-anchor=\"start\">\u25c0 2026-09-03T14:20:00Z install: driver 26.0.rc1 installed") !=
        std::string::npos);
  CHECK(count(html, "<line class=\"tl-reboot\"") == 2);
  CHECK(count(html, ">reboot</text>") == 2);
  CHECK(count(html, "class=\"tl-collect\"") == 1);                 // after the incident window
  CHECK(count(html, "<circle class=\"tl-ev error src-0\"") == 2);     // the task timeout, from plog
  CHECK(count(html, "class=\"tl-ev tl-span critical src-11\"") >= 1);  // 36 collapsed lines, other source
  // Events link to their finding; the axis is UTC with the host's local time below.
  CHECK(html.find("<a href=\"#f-0\"><g><title>") != std::string::npos);
  CHECK(html.find(">host local +08:00</text>") != std::string::npos);
  CHECK(html.find("Axis in UTC; second row: the host's local time (UTC+08:00)") != std::string::npos);
  // The skew is shown, not applied.
  CHECK(html.find("<td>+37.250 s</td><td>4</td>") != std::string::npos);
  // Every event is in the table, with UTC and host local time.
  CHECK(html.find("<td class=\"mono\">2026-09-04T01:25:00Z &rarr; 2026-09-04T01:43:00Z</td><td class=\"mono\">"
                  "2026-09-04T09:25:00+08:00</td>") != std::string::npos);
}

TEST_CASE("html report: axis ticks are the same whatever the analyst's zone", "[html]") {
  // Ticks are whole UTC steps; the local row is the host's offset (not the process's zone).
  Report r = hostile_report();
  std::string html = render(r);
  CHECK(html.find(">01:30</text>") == std::string::npos);  // labels carry the date at this step
  CHECK(html.find(">09-04 01:30</text>") != std::string::npos);
  CHECK(html.find(">09-04 09:30</text>") != std::string::npos);
}

TEST_CASE("html report: empty timeline and verdict say so", "[html]") {
  Report r;
  std::string html = render(r);
  require_inert(html);
  CHECK(html.find("No dated events.") != std::string::npos);
  CHECK(html.find("No hypothesis was ranked.") != std::string::npos);
  CHECK(html.find("<p class=\"muted\">No findings.</p>") != std::string::npos);
  CHECK(html.find("<svg") == std::string::npos);
}

TEST_CASE("html report: the XSS fixture bundle analysed end to end", "[html]") {
  AnalyzeOptions options;
  LoadResult loaded = load_evidence({std::string(TEST_DATA_DIR) + "/data/xss-bundle"}, options);
  REQUIRE(loaded.errors.empty());
  Report report = correlate(loaded.evidence, options);
  // The plog's payload lines became a device-exception finding with them as evidence.
  const Finding* f = nullptr;
  for (const auto& x : report.findings)
    if (x.id.rfind("device-exception/", 0) == 0) f = &x;
  REQUIRE(f != nullptr);
  REQUIRE(f->evidence.size() >= 2);
  std::string html = render(report, loaded.evidence);
  require_inert(html);
  CHECK(html.find("desc=[&lt;script&gt;document.body.setAttribute(&#39;data-xss&#39;,&#39;1&#39;)&lt;/script&gt;]") !=
        std::string::npos);
  CHECK(html.find("errorStr: &lt;img src=x onerror=&quot;document.title=&#39;XSS-MARKER&#39;&quot;&gt; ]]&gt; "
                  "&lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;") != std::string::npos);
  // The manifest's host name and collector arguments, escaped in the title and summary.
  CHECK(html.find("<title>ascend-triage report: xss-node&quot;&gt;&lt;script&gt;") != std::string::npos);
  CHECK(html.find("javascript:document.title=&#39;XSS-MARKER&#39;") != std::string::npos);
}

TEST_CASE("html report: In short, then the timeline, then the verdict", "[html]") {
  Report r = hostile_report();
  r.verdict.reply = "Most likely cause: `npu-smi info` shows **no device**.\nWhere: host h.";
  std::string html = render(r);
  size_t in_short = html.find("<h2 id=\"in-short\">"), timeline = html.find("<h2 id=\"timeline\">"),
         verdict = html.find("<h2 id=\"verdict\">");
  REQUIRE(in_short != std::string::npos);
  CHECK(in_short < timeline);
  CHECK(timeline < verdict);
  // Markdown of the reply is markup, not text.
  CHECK(html.find("Most likely cause: <code>npu-smi info</code> shows <b>no device</b>.<br>") != std::string::npos);
}

TEST_CASE("html inline markup: code and bold pairs, unpaired marks and escaping", "[html]") {
  CHECK(html::inline_markup("run `a <b>` now") == "run <code>a &lt;b&gt;</code> now");
  CHECK(html::inline_markup("**x** and `y`") == "<b>x</b> and <code>y</code>");
  CHECK(html::inline_markup("a ` b") == "a ` b");          // unpaired: not Markdown, kept
  CHECK(html::inline_markup("``") == "``");                // empty pair: kept
  CHECK(html::inline_markup("2 ** 3") == "2 ** 3");
  CHECK(html::inline_markup("`**not bold**`") == "<code>**not bold**</code>");
  CHECK(html::inline_markup("<script>") == "&lt;script&gt;");
}

TEST_CASE("html report: lanes per rank from the process's environment, source as colour", "[html]") {
  Report r = hostile_report();
  for (auto& e : r.timeline.events)
    if (e.source == "plog") e.pid = 4242;
  EvidenceSet set;
  BundleFacts b;
  b.host = r.timeline.events[0].host;
  ProcessInfo p;
  p.pid = 4242;
  p.has_environ = true;
  p.environ = {{"LOCAL_RANK", "1"}, {"RANK", "5"}};
  b.processes.by_pid[4242] = p;
  set.bundles.push_back(b);
  std::string html = render(r, set);
  require_inert(html);
  CHECK(html.find(">rank 5 (2)</text>") != std::string::npos);   // the stall and the timeout
  CHECK(html.find(">plog (") == std::string::npos);
  CHECK(count(html, "<circle class=\"tl-ev error src-0\"") == 2);  // still coloured as plog
  CHECK(html.find("<span><i class=\"src-0\"></i>plog</span>") != std::string::npos);  // legend
}
