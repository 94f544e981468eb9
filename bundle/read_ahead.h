#pragma once
// Reading on a second thread (`--threads 2`): the reader (directory walk, archive decompression,
// the SHA-256 of each stored member) runs ahead on its own thread while the calling thread
// parses. The sink sees exactly the calls, bytes and errors the one-thread run gives it, in the
// same order, so reports cannot depend on the thread count (docs/performance.md).
#include <functional>
#include <string>

#include "bundle/input_reader.h"

namespace triage {

// What read_input and read_stdin look like: walks an input, calling the sink.
using InputWalk = std::function<std::string(MemberSink&, InputDescription&)>;

// Runs `walk` on a reader thread and replays its calls to `sink` on this thread. At most
// `ahead_bytes` of member data wait between the two. Returns what `walk` returned; an
// exception of the walk is rethrown here.
std::string read_ahead(const InputWalk& walk, MemberSink& sink, InputDescription& described,
                       size_t ahead_bytes = 4u << 20);

}  // namespace triage
