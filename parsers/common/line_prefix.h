#pragma once
// The prefixes that launchers, container runtimes, grep and terminals put in front of a log
// line, recognised in one place for every line reader (job output, plog, kernel). Pure
// functions of one line: every field is a view into it, nothing is allocated (except, when
// the caller passes a scratch buffer, the copy of a body that has colour codes inside it).
//
// Forms, outermost first (each at most once, in this order):
//   UTF-8 BOM, ANSI colour codes, a trailing '\r'
//   quote      `> ` (Markdown's quote, nested `> > ` too; an issue or forum post)
//   backtick   one opening backtick of Markdown's inline code (also after a prose label)
//   prose      `报错如下：` (a reader's label in another script before what they pasted: only
//              non-ASCII text and blanks, up to 64 bytes, ending in `：` or `:`)
//   grep       `path:N:` `path:N-` `path-N-` (grep -rn, context lines), `N:` (grep -n of one
//              file), `path:` (grep -r / -H without -n), `   322\t` (cat -n, nl)
//   compose    `service-name  | ` (docker compose logs)
//   kubectl    `[pod/NAME/CONTAINER] ` (kubectl logs --prefix)
//   container  `2024-05-01T10:00:00.123456789Z stdout F ` (CRI log file),
//              `2024-05-01T10:00:00.123456789Z ` (docker logs -t, kubectl --timestamps)
//   pdsh       `worker-N: ` (DeepSpeed hostfile names), `10.0.0.5: ` (pdsh by address)
//   launcher   `[rankN]:` / `[defaultN]:` (torchrun), `(VllmWorker rank=N pid=N)`,
//              `(EngineCore_DP0 pid=553)`, `(train pid=8464, ip=10.0.0.5)` (Ray), up to 3
//   logger     `ERROR 09-07 01:11:09 [multiproc_executor.py:596] ` (vLLM; also the older
//              `ERROR 06-09 06:57:48 worker_base.py:581] `)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace triage {

struct LinePrefix {
  std::string_view body;            // the program's own line
  std::string_view label;           // launcher prefixes as printed (pdsh host, rank, process
                                    // tag, pod): the stream key; "" when none
  std::string_view grep_file;       // grep's file name ("" when none or grep -n of one file)
  uint64_t grep_line = 0;           // grep -n line number, 0 when none
  bool grep_context = false;        // a grep context line (`path-N-`, `path:N-`)
  std::string_view container_time;  // RFC 3339 time a container runtime put in front
  std::string_view container_stream;  // "stdout" / "stderr" of a CRI log line
  std::string_view pod, container;  // kubectl logs --prefix; container: also a compose service
  std::string_view host;            // pdsh host ("worker-3", "10.0.0.5")
  std::optional<int> worker;        // N of `worker-N: `
  std::optional<int> rank;          // `[rankN]:`, `[defaultN]:`, `(VllmWorker rank=N pid=M)`
  std::string_view process_name;    // "VllmWorker rank=0" of `(VllmWorker rank=0 pid=7)`
  std::optional<int64_t> pid;       // pid of a process tag
  std::string_view prose;           // the reader's label before the paste ("" when none)
  bool bom = false;                 // a UTF-8 byte-order mark was removed
  bool ansi = false;                // colour codes were removed
  bool logger_prefix = false;       // a vLLM logger prefix was removed (its time is not kept)
  std::string_view logger;          // that prefix as printed, its level first ("" when none):
                                    // the level reader (parsers/job) reads the line's level there

  bool has_grep() const { return grep_line > 0 || !grep_file.empty(); }
};

struct PrefixForms {
  bool grep = true;
  bool container = true;  // kubectl and container-runtime prefixes
  bool launcher = true;   // pdsh, torchrun, process tags
  bool logger = true;     // vLLM's logger prefix
  bool prose = true;      // a reader's label in another script (`报错如下：`)
};

// Splits the prefixes off `line`. With `scratch`, colour codes inside the body are removed
// too (the body then views `scratch`, which keeps its capacity from line to line).
LinePrefix split_line_prefix(std::string_view line, PrefixForms forms = {},
                             std::string* scratch = nullptr);

// The grep prefix alone: its length (0 when there is none) and its file and line.
size_t grep_prefix_length(std::string_view line, std::string_view& file, uint64_t& number,
                          bool& context);

// Removes ANSI SGR sequences; returns `s` itself when it has none, else a view of `scratch`.
std::string_view strip_ansi(std::string_view s, std::string& scratch);

}  // namespace triage
