// The reader thread and the replay of its calls (read_ahead.h). One mutex guards a queue of
// messages; member data travels in recycled 256 KiB chunks, so a member costs no allocation
// per chunk once the pool is warm and memory stays within `ahead_bytes`.
#include "bundle/read_ahead.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "bundle/sha256.h"

namespace triage {
namespace {

constexpr size_t kChunk = 256 * 1024;

enum class Kind { input, member, chunk, member_end, member_warning, damaged, done };

struct Message {
  Kind kind = Kind::done;
  MemberHeader header;          // member
  bool has_data = false;        // member
  InputDescription described;   // input, done
  std::vector<char> chunk;      // chunk (its size is the byte count)
  std::string text;             // member_end: the data's error; warning; damage message; done: result
  std::string last_member;      // damaged
  uint64_t offset = 0;          // damaged
  uint64_t member_seq = 0;      // member_warning: the member it was read with (1, 2, ...)
  std::string sha256;           // member_end: of every byte of the member, when all were read
};

// The memory a queued message holds: computed the same on push and pop (nothing changes a
// message while it is queued).
size_t cost_of(const Message& m) {
  return sizeof(Message) + m.chunk.capacity() + m.text.capacity() + m.last_member.capacity() +
         m.header.raw_name.capacity() + m.header.link_target.capacity() + m.header.warning.capacity() +
         m.header.read_error.capacity();
}

class Channel {
 public:
  explicit Channel(size_t ahead_bytes) : ahead_bytes_(ahead_bytes < kChunk ? kChunk : ahead_bytes) {}

  // Every message waits for room, counted by the memory it holds (a chunk's capacity, not its
  // byte count; the message itself): a member of 150 bytes once held a 256 KiB buffer counted
  // as 150 bytes, and 100k such members queued 1.8 GiB (issue 33). The wait ends also when
  // the consumer has nothing to read (then it waits on us).
  void push(Message m) {
    std::unique_lock lock(mu_);
    size_t cost = cost_of(m);
    room_.wait(lock, [&] { return in_flight_ + cost <= ahead_bytes_ || queue_.empty(); });
    queue_.push_back(std::move(m));  // may throw (out of memory): then nothing is counted
    in_flight_ += cost;
    ready_.notify_one();
  }

  // Takes everything queued at once: one lock and one wake-up per batch, not per message
  // (three per member: 300k one-line members took 2.3x longer on two threads than on one).
  // The batch taken leaves the count at once, so up to twice `ahead_bytes` may be held.
  Message pop() {
    if (taken_.empty()) {
      std::unique_lock lock(mu_);
      ready_.wait(lock, [&] { return !queue_.empty() || finished_; });
      if (queue_.empty()) return Message{};  // kind done: the reader ended without saying so
      taken_.swap(queue_);
      for (const auto& m : taken_) in_flight_ -= cost_of(m);
      room_.notify_one();
    }
    Message m = std::move(taken_.front());
    taken_.pop_front();
    return m;
  }

  // The reader thread has ended (it pushed `done`, or could not): pop no longer waits for it.
  void finish() {
    std::lock_guard lock(mu_);
    finished_ = true;
    ready_.notify_one();
  }
  // Returns a message the consumer took too early to the front of its batch.
  void put_back(Message m) { taken_.push_front(std::move(m)); }
  std::vector<char> take_buffer() {
    std::lock_guard lock(mu_);
    if (pool_.empty()) return {};
    std::vector<char> b = std::move(pool_.back());
    pool_.pop_back();
    return b;
  }

  // Only full-size buffers are kept: a small read's buffer is of its size (on_member).
  void give_back(std::vector<char> b) {
    std::lock_guard lock(mu_);
    if (pool_.size() >= 24 || b.capacity() < kChunk) return;
    try {
      pool_.push_back(std::move(b));
    } catch (const std::bad_alloc&) {  // the pool only saves allocations: without it, b is freed
    }
  }

 private:
  std::mutex mu_;
  std::condition_variable ready_, room_;
  std::deque<Message> queue_;
  std::deque<Message> taken_;  // the consumer's batch, touched by it alone
  std::vector<std::vector<char>> pool_;
  size_t in_flight_ = 0;
  bool finished_ = false;
  const size_t ahead_bytes_;
};

// Shared between the two threads.
struct Shared {
  explicit Shared(size_t ahead) : channel(ahead) {}
  Channel channel;
  std::atomic<bool> stop{false};          // the sink stopped reading: the reader winds down
  std::atomic<uint64_t> skip_member{0};   // the sink left this member: the reader stops reading it
};

// On the reader thread: turns each sink call into messages.
class Forwarder final : public MemberSink {
 public:
  explicit Forwarder(Shared& s) : s_(s) {}

  void on_input(const InputDescription& input) override {
    Message m;
    m.kind = Kind::input;
    m.described = input;
    s_.channel.push(std::move(m));
  }

  bool on_member(const MemberHeader& header, ByteSource* data) override {
    uint64_t seq = ++seq_;  // counted even when refused: its warning must not pass as another's
    if (s_.stop) return false;
    Message start;
    start.kind = Kind::member;
    start.header = header;
    start.has_data = data != nullptr;
    s_.channel.push(std::move(start));
    if (!data) return !s_.stop;
    Sha256 sha;
    bool whole = false;
    while (!s_.stop && s_.skip_member != seq) {
      // One buffer stays here at full size: taking and resizing one per read zero-filled
      // 256 KiB for every member, a third of the time of 300k one-line members.
      std::vector<char>& buf = buf_;
      if (buf.size() != kChunk) {
        buf = s_.channel.take_buffer();
        buf.resize(kChunk);
      }
      size_t k = data->read(buf.data(), buf.size());
      if (k == 0) {
        whole = data->error().empty();
        break;
      }
      sha.update(buf.data(), k);
      Message c;
      c.kind = Kind::chunk;
      if (k < kChunk / 8) {
        // A small read travels in a buffer of its size: the queue then holds many small
        // members ahead within the same memory, and the big buffer is used again at once.
        c.chunk.assign(buf.data(), buf.data() + k);
      } else {
        buf.resize(k);
        c.chunk = std::move(buf);
        buf.clear();  // moved from: taken from the pool again at the next read
      }
      s_.channel.push(std::move(c));
    }
    Message end;
    end.kind = Kind::member_end;
    end.text = data->error();
    if (whole) end.sha256 = sha.hex_digest();
    s_.channel.push(std::move(end));
    return !s_.stop;
  }

  void on_member_warning(std::string_view message) override {
    Message m;
    m.kind = Kind::member_warning;
    m.text = std::string(message);
    m.member_seq = seq_;
    s_.channel.push(std::move(m));
  }

  void on_input_damaged(std::string_view last_member, uint64_t offset,
                        std::string_view message) override {
    Message m;
    m.kind = Kind::damaged;
    m.last_member = std::string(last_member);
    m.offset = offset;
    m.text = std::string(message);
    s_.channel.push(std::move(m));
  }

 private:
  Shared& s_;
  uint64_t seq_ = 0;
  std::vector<char> buf_;  // the read buffer, kept at kChunk while reads stay small
};

// On the calling thread: the data of the current member, chunk after chunk.
class ReplaySource final : public ByteSource {
 public:
  explicit ReplaySource(Channel& c) : channel_(c) {}
  ~ReplaySource() override {
    if (!chunk_.empty()) channel_.give_back(std::move(chunk_));
  }

  size_t read(char* buf, size_t n) override {
    while (pos_ == chunk_.size()) {
      if (ended_) return 0;
      next();
    }
    size_t k = std::min(n, chunk_.size() - pos_);
    std::memcpy(buf, chunk_.data() + pos_, k);
    pos_ += k;
    return k;
  }
  bool hashes_itself() const override { return true; }
  std::string sha256_hex_of_all() override { return sha256_; }
  bool ended() const { return ended_; }
  // Takes the rest of the member off the channel (the reader was asked to stop reading it).
  void discard_rest() {
    while (!ended_) next();
  }

 private:
  void next() {
    if (!chunk_.empty()) channel_.give_back(std::move(chunk_));
    chunk_.clear();
    pos_ = 0;
    Message m = channel_.pop();
    if (m.kind == Kind::chunk) {
      chunk_ = std::move(m.chunk);
    } else if (m.kind == Kind::done) {
      // The reader ended inside this member (an exception, e.g. out of memory, thrown while
      // it read): the member ends here, and `done` stays for read_ahead's loop, which would
      // otherwise wait for it forever.
      ended_ = true;
      error_ = "the reader stopped before the end of this member";
      channel_.put_back(std::move(m));
    } else {  // member_end: the only other message inside a member
      ended_ = true;
      error_ = std::move(m.text);
      sha256_ = std::move(m.sha256);
    }
  }

  Channel& channel_;
  std::vector<char> chunk_;
  size_t pos_ = 0;
  bool ended_ = false;
  std::string sha256_;
};

}  // namespace

std::string read_ahead(const InputWalk& walk, MemberSink& sink, InputDescription& described,
                       size_t ahead_bytes) {
  Shared shared(ahead_bytes);
  std::exception_ptr walk_error;
  std::thread reader([&] {
    Message done;
    done.kind = Kind::done;
    try {
      Forwarder forward(shared);
      done.text = walk(forward, done.described);
    } catch (...) {
      walk_error = std::current_exception();
    }
    try {
      shared.channel.push(std::move(done));
    } catch (...) {  // out of memory even for that: finish() below ends the consumer's wait
      if (!walk_error) walk_error = std::current_exception();
    }
    shared.channel.finish();
  });

  // Replays until the reader is done; on an exception of the sink, drains so the reader ends.
  std::string result;
  std::exception_ptr sink_error;
  bool stopped = false;
  uint64_t seq = 0, stopped_at = 0;
  // Out of memory outside a sink call (a copy of the description, the buffer pool) must not
  // leave this scope with the reader running: a joinable std::thread's destructor terminates
  // (exit 134 under a 66 MiB limit, robustness.hostile_inputs.oom). It stops the reader,
  // drains the channel without allocating, and the join below ends it.
  try {
    while (true) {
      Message m = shared.channel.pop();
      if (m.kind == Kind::done) {
        result = std::move(m.text);
        described = m.described;
        break;
      }
      if (m.kind == Kind::member) ++seq;
      // The one-thread readers still pass on the warning of the member whose sink call said stop.
      bool deliver = !stopped || (m.kind == Kind::member_warning && m.member_seq == stopped_at);
      if (!deliver || sink_error) {
        if (m.kind == Kind::chunk) shared.channel.give_back(std::move(m.chunk));
        continue;
      }
      try {
        switch (m.kind) {
          case Kind::input: sink.on_input(m.described); break;
          case Kind::member: {
            bool go_on;
            if (m.has_data) {
              ReplaySource src(shared.channel);
              go_on = sink.on_member(m.header, &src);
              if (!src.ended()) {
                shared.skip_member = seq;
                src.discard_rest();
              }
            } else {
              go_on = sink.on_member(m.header, nullptr);
            }
            if (!go_on) {
              stopped = true;
              stopped_at = seq;
              shared.stop = true;
            }
            break;
          }
          case Kind::member_warning: sink.on_member_warning(m.text); break;
          case Kind::damaged: sink.on_input_damaged(m.last_member, m.offset, m.text); break;
          case Kind::chunk:  // only inside a member, which ReplaySource reads
          case Kind::member_end:
          case Kind::done: break;
        }
      } catch (...) {
        sink_error = std::current_exception();
        shared.stop = true;
      }
    }
  } catch (...) {
    if (!sink_error) sink_error = std::current_exception();
    shared.stop = true;
    while (shared.channel.pop().kind != Kind::done) {
    }
  }
  reader.join();
  if (sink_error) std::rethrow_exception(sink_error);
  if (walk_error) std::rethrow_exception(walk_error);
  return result;
}

}  // namespace triage
