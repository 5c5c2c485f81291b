// class_load: the live class under load (issue 30's benchmark), and the scripted class of students
// the integration tests drive an external class server with. Students are real WebSocket clients
// (Boost.Beast), all asynchronous on ONE io_context on ONE thread — no thread per client — so 300
// of them run on a 2-core machine beside the server.
//
// class_load bench [--students 300] [--changes 200] [--questions 20] [--kill 50] [--interval-ms 5] [--verbose]
//   Starts a bw::server::ClassServer in this process (127.0.0.1, port 0, no web root), connects the
//   students (each joins with the code), then the teacher (the main thread) publishes `changes` step
//   changes with ClassServer::Publish, one every `interval-ms` at the soonest and each only after
//   every student has it (or a 10 s deadline: a miss). `questions` of them, spread evenly, open a
//   checked number question (160/7, with the named mistake 65/3 "average", as the server test's
//   Question()); every student answers each once on receiving it (by index: 160/7, 65/3 or 22.857),
//   and the teacher moves on once HistogramOf counts them all (or the deadline). Halfway, `kill`
//   students' sockets are closed without a WebSocket close (a Wi-Fi drop) and they rejoin at once
//   with their token. Prints a markdown table of:
//   - propagation latency: from the Publish() call (steady_clock, teacher's thread) to each student's
//     receipt of that state (steady_clock when its read completes, before parsing), p50 / p99 / max
//     over students × changes; and "fan-out complete": per change, the last student's latency;
//   - answers sent (counted on the client side) against HistogramOf's totals and verdicts: lost;
//   - server heap per client: bench/heap_counter.cpp counts every live malloc'd byte of the process
//     except those of the client thread, which calls SetThreadUncounted(true) first and creates every
//     client object itself (the students' result arrays are allocated by the main thread before the
//     baseline and only written later). So (heap after all joined − heap before the first connect) / N
//     is what the server holds per student: its session, Asio/Beast buffers, the ClassRoom's maps and
//     log lines; plus a few hundred bytes of the main thread's posts to the client thread (negligible).
//     Kernel socket buffers are not heap and are not counted. Measured again at the end (answers held);
//   - rejoin: from closing a student's socket to its receipt of the current state on the new
//     connection (connect, handshake, join with the token, welcome, state), p50 / p99 / max;
//   - the cost of one Publish() call on the teacher's thread (median and p99 µs), in wall time and in
//     the thread's CPU time (a call preempted by the bench's own threads waits but does not work): the
//     frame time the app adds when it publishes.
//   The only sleep is the pacing; every wait for correctness is on a condition with a deadline.
//   --verbose: one line per change on stderr (its Publish() and its last student's latency).
//   Exits 1 when an answer is lost, a student misses (or repeats) a state, or anything is refused.
//   Numbers and method: docs/performance.md, "Live class (loopback)"; scripts/bench-class runs it.
//
// class_load drive --url http://127.0.0.1:PORT/ --code CODE [--students 50] [--flood 1] [--garbage 1]
//                  [--answers "160/7,65/3,22.86"] --report FILE [--max-seconds 0]
//   Connects to an external class server (the teacher's app run with --class 127.0.0.1), joins N
//   students and prints "joined N" once every one has its welcome; then starts `flood` flooders (join,
//   then answers and follows as fast as the socket takes them) and `garbage` rounds of bad clients
//   (join, then one bad frame each: text that is not JSON, a "state" kind, a follow with "step", a
//   follow with "pacing_lock"). Each student records every state and answers each open question
//   (step, round) once, with answers[i % len]. On SIGTERM or SIGINT (asio::signal_set) it writes the
//   JSON report (atomically: FILE.tmp, then renamed) and exits 0 (2 when --max-seconds ran out first).
//   Report: {"students":[{"joined","token","states":[{seq,course,lesson,step,card,event,revealed,
//   question_open,round,pacing_lock}],"closed","refused":[…],"error"}], "flooder":{"closed",
//   "frames_sent"} (null with --flood 0), "garbage":{"closed","cases":[{"sent","closed","refused"}]}
//   (null with --garbage 0), "answers_sent":{"STEP":{"ANSWER":count}}, "joined":n}. "closed" always
//   means the server ended the connection (we close nothing before the report). The flooders and
//   garbage clients join too: the server counts students + flood + 4 × garbage students. A flooder's
//   answers name a step no lesson has ("FLOOD/none"), so they are refused and never counted.
#include <sys/resource.h>
#include <time.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "classroom/class_message.h"
#include "heap_counter.h"
#include "server/class_server.h"

namespace {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace websocket = boost::beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using Clock = std::chrono::steady_clock;
using nlohmann::json;
namespace cr = bw::classroom;

constexpr auto kHandshakeTimeout = std::chrono::seconds(10);

// [SECTION] One WebSocket connection to the class (both subcommands)

// Where the class server is: the TCP endpoint, and the host:port the Origin and Host headers name.
struct Target {
  tcp::endpoint endpoint;
  std::string authority;  // "127.0.0.1:8080"
  std::string Origin() const { return "http://" + authority; }
};

// Connect, handshake (Origin: the server's own), a queue of text frames to send, a read loop. Its
// handlers hold it alive (shared_from_this); Abort() closes the socket at once and silences it:
// nothing is reported after that, so its owner can replace it with a new one straight away.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  struct Handlers {
    std::function<void()> on_open;                                       // handshake done
    std::function<void(const std::string&, Clock::time_point)> on_frame;  // a text frame, when its read completed
    std::function<void(error_code, bool opened)> on_end;                 // the connection ended (not after Abort)
    std::function<void()> on_sent;                                       // a frame was written (flooder)
  };
  Connection(net::io_context& ioc, Target target, Handlers h) : ws_(ioc), target_(std::move(target)), h_(std::move(h)) {}

  void Start() {
    beast::get_lowest_layer(ws_).expires_after(kHandshakeTimeout);
    beast::get_lowest_layer(ws_).async_connect(target_.endpoint, [self = shared_from_this()](error_code ec) { self->OnConnect(ec); });
  }
  // Queues one text frame (sent once the handshake is done, in order).
  void Send(std::string text) {
    if (ended_ || silenced_) return;
    queue_.push_back(std::move(text));
    if (open_ && !writing_) Write();
  }
  void Abort() {
    silenced_ = true;
    beast::get_lowest_layer(ws_).close();
  }
  bool open() const { return open_ && !ended_; }
  bool idle() const { return !writing_ && queue_.empty(); }

 private:
  void OnConnect(error_code ec) {
    if (ec) return End(ec);
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ec);
    beast::get_lowest_layer(ws_).expires_never();  // the websocket's own handshake timeout from here
    websocket::stream_base::timeout t{};
    t.handshake_timeout = kHandshakeTimeout;
    t.idle_timeout = websocket::stream_base::none();
    t.keep_alive_pings = false;
    ws_.set_option(t);
    ws_.set_option(websocket::stream_base::decorator(
        [o = target_.Origin()](websocket::request_type& req) { req.set(http::field::origin, o); }));
    ws_.read_message_max(1 << 20);
    ws_.async_handshake(target_.authority, "/class", [self = shared_from_this()](error_code e) { self->OnHandshake(e); });
  }
  void OnHandshake(error_code ec) {
    if (silenced_) return;
    if (ec) return End(ec);
    open_ = true;
    if (h_.on_open) h_.on_open();
    Read();
    if (!queue_.empty() && !writing_ && !ended_) Write();
  }
  void Read() {
    ws_.async_read(buffer_, [self = shared_from_this()](error_code ec, std::size_t) { self->OnRead(ec); });
  }
  void OnRead(error_code ec) {
    const auto t = Clock::now();  // first: the receipt time, before any of our own work
    if (silenced_) return;
    if (ec) return End(ec);
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (h_.on_frame) h_.on_frame(text, t);
    if (!ended_ && !silenced_) Read();
  }
  void Write() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front()), [self = shared_from_this()](error_code ec, std::size_t) { self->OnWrite(ec); });
  }
  void OnWrite(error_code ec) {
    writing_ = false;
    if (silenced_ || ended_) return;
    if (ec) return End(ec);  // the read side reports it too; End is once only
    queue_.pop_front();
    if (h_.on_sent) h_.on_sent();  // may Send() (and so start the next write itself)
    if (!queue_.empty() && !writing_ && !ended_ && !silenced_) Write();
  }
  void End(error_code ec) {
    if (ended_ || silenced_) return;
    ended_ = true;
    queue_.clear();
    error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    if (h_.on_end) h_.on_end(ec, open_);
  }

  websocket::stream<beast::tcp_stream> ws_;
  Target target_;
  Handlers h_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  bool open_ = false, writing_ = false, ended_ = false, silenced_ = false;
};

// 300 students and the server's sockets need ~2 descriptors each: lift the soft limit to the hard one.
void RaiseFileLimit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

// The calling thread's CPU time: a Publish() preempted by the bench's own threads (2 cores, three
// busy threads) costs the teacher wall time but not CPU time.
double ThreadCpuMicros() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

std::string Describe(error_code ec) { return ec ? ec.message() : "ok"; }

// [SECTION] bench: the server in this process under N students

struct BenchOptions {
  int students = 300;
  int changes = 200;
  int questions = 20;
  int kill = 50;
  int interval_ms = 5;
  bool verbose = false;  // one line per change on stderr: its fan-out time
};

const char* const kBenchAnswers[] = {"160/7", "65/3", "22.857"};  // right, the named mistake, right (a decimal)

bw::app::StepQuestion CheckedQuestion(const std::string& step) {  // as tests/classroom/class_server_test.cpp's Question()
  bw::app::StepQuestion q;
  q.step_id = step;
  q.number = bw::view::ExpectedNumber{160.0 / 7, bw::engine::Rational(160, 7)};
  q.mistakes.push_back({"average", bw::view::ExpectedNumber{65.0 / 3, bw::engine::Rational(65, 3)}});
  return q;
}

// One simulated student of the bench. Everything here is written on the client thread only; the
// vectors are sized by the main thread before the baseline and never grow.
struct BenchStudent {
  int index = 0;
  std::shared_ptr<Connection> conn;
  std::string token;
  bool joined = false;
  std::uint64_t last_seq = 0;
  std::vector<Clock::time_point> got;      // by event (change k has event k): when it arrived
  std::vector<signed char> answered;       // by question: index into kBenchAnswers, −1 none
  bool rejoining = false;
  Clock::time_point killed_at{};
  double rejoin_ms = -1;
  std::vector<std::string> errors;
};

struct Bench {
  BenchOptions opt;
  bw::server::ClassServer* server = nullptr;
  Target target;
  std::string code;
  net::io_context ioc{1};
  std::vector<BenchStudent> students;
  std::vector<int> question_of_event;      // −1, or the question opened by change k
  // Client thread → teacher: progress, each under `mu` when it completes a wait's condition.
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<int> joined{0}, rejoined{0}, failed{0};
  std::unique_ptr<std::atomic<int>[]> received;  // by event: students that have it

  void Bump(std::atomic<int>& counter, int goal) {
    if (counter.fetch_add(1) + 1 >= goal) {
      std::lock_guard<std::mutex> lock(mu);
      cv.notify_all();
    }
  }
  void Fail(BenchStudent& s, std::string why) {
    s.errors.push_back(std::move(why));
    if (failed.fetch_add(1) == 0) {
      std::lock_guard<std::mutex> lock(mu);
      cv.notify_all();
    }
  }
  // Client thread: a new connection for student s, joining (with its token when it has one).
  void Connect(BenchStudent& s) {
    Connection::Handlers h;
    h.on_open = [this, &s] {
      cr::JoinMessage m;
      m.code = code;
      m.nickname = "s" + std::to_string(s.index);
      if (!s.token.empty()) m.token = s.token;
      s.conn->Send(cr::JoinMessageText(m));
    };
    h.on_frame = [this, &s](const std::string& text, Clock::time_point t) { OnFrame(s, text, t); };
    h.on_end = [this, &s](error_code ec, bool opened) {
      Fail(s, std::string(opened ? "connection ended: " : "could not connect: ") + Describe(ec));
    };
    s.conn = std::make_shared<Connection>(ioc, target, std::move(h));
    s.conn->Start();
  }
  void OnFrame(BenchStudent& s, const std::string& text, Clock::time_point t) {
    cr::ServerMessage m;
    try {
      m = cr::ParseServerMessage(text);
    } catch (const std::exception& e) {
      return Fail(s, std::string("unreadable frame: ") + e.what());
    }
    if (const auto* w = std::get_if<cr::WelcomeReceived>(&m)) {
      if (s.rejoining && w->token != s.token) return Fail(s, "rejoined with another token");
      s.token = w->token;
      return;
    }
    const auto* st = std::get_if<cr::StateReceived>(&m);
    if (!st) return Fail(s, "unexpected frame " + text.substr(0, 200));
    if (!s.joined) {  // the state that comes with the welcome
      s.joined = true;
      s.last_seq = st->seq;
      return Bump(joined, opt.students);
    }
    if (s.rejoining) {  // the current state, on the new connection
      if (st->seq != s.last_seq) return Fail(s, "rejoined to seq " + std::to_string(st->seq) + ", not " + std::to_string(s.last_seq));
      s.rejoining = false;
      s.rejoin_ms = std::chrono::duration<double, std::milli>(t - s.killed_at).count();
      return Bump(rejoined, opt.kill);
    }
    if (st->seq != s.last_seq + 1)
      return Fail(s, "seq " + std::to_string(st->seq) + " after " + std::to_string(s.last_seq) + " (a state missed or repeated)");
    s.last_seq = st->seq;
    const int k = st->state.event;
    if (k < 1 || k > opt.changes || s.got[static_cast<size_t>(k)] != Clock::time_point{})
      return Fail(s, "state of event " + std::to_string(k) + " unexpected");
    s.got[static_cast<size_t>(k)] = t;
    const int q = question_of_event[static_cast<size_t>(k)];
    if (st->question_open != (q >= 0)) return Fail(s, "question_open " + std::to_string(st->question_open) + " at event " + std::to_string(k));
    if (q >= 0 && s.answered[static_cast<size_t>(q)] < 0) {
      const int a = s.index % 3;
      s.answered[static_cast<size_t>(q)] = static_cast<signed char>(a);
      s.conn->Send(cr::AnswerMessageText({st->state.step, st->state.round, kBenchAnswers[a]}));
    }
    Bump(received[static_cast<size_t>(k)], opt.students);
  }
  // Client thread: `kill` students (spread over the class) lose their socket and rejoin at once.
  void KillAndRejoin() {
    const int n = opt.students, k = opt.kill;
    for (int j = 0; j < k; ++j) {
      BenchStudent& s = students[static_cast<size_t>(static_cast<long long>(j) * n / k)];
      s.rejoining = true;
      s.killed_at = Clock::now();
      s.conn->Abort();
      Connect(s);
    }
  }
};

template <class Pred>
bool WaitUntil(Bench& b, Clock::time_point deadline, Pred pred) {
  std::unique_lock<std::mutex> lock(b.mu);
  return b.cv.wait_until(lock, deadline, [&] { return pred() || b.failed.load() > 0; }) && pred();
}

struct Stats {
  double p50 = 0, p99 = 0, max = 0;
  size_t n = 0;
};
Stats StatsOf(std::vector<double> v) {
  Stats s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  auto at = [&](double p) { return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5))]; };
  s.p50 = at(0.50);
  s.p99 = at(0.99);
  s.max = v.back();
  return s;
}
std::string Fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}
std::string Triple(const Stats& s, int digits) { return Fixed(s.p50, digits) + " / " + Fixed(s.p99, digits) + " / " + Fixed(s.max, digits); }

int RunBench(const BenchOptions& opt) {
  if (opt.students < 1 || opt.changes < 1 || opt.questions < 0 || opt.questions > opt.changes || opt.kill < 0 ||
      opt.kill > opt.students || opt.interval_ms < 0) {
    std::cerr << "class_load bench: need students ≥ 1, changes ≥ 1, 0 ≤ questions ≤ changes, 0 ≤ kill ≤ students\n";
    return 2;
  }
  RaiseFileLimit();
  constexpr auto kDeadline = std::chrono::seconds(10);

  bw::server::ServerOptions so;
  so.room.max_students = std::max(cr::kDefaultMaxStudents, opt.students);
  so.max_connections = so.room.max_students + 100;
  bw::server::ClassServer server(so);
  if (const std::string why = server.Start(); !why.empty()) {
    std::cerr << "class_load bench: " << why << "\n";
    return 1;
  }
  auto step_state = [](const std::string& step, int event) {
    cr::TeacherState t;
    t.course = "fa";
    t.lesson = "N50";
    t.step = step;
    t.position = "event:" + std::to_string(event + 1);
    t.event = event;
    return t;
  };
  server.Publish(step_state("N50/s0", 0), std::nullopt);  // where the class starts: event 0

  Bench b;
  b.opt = opt;
  b.server = &server;
  b.code = server.code();
  b.target.endpoint = tcp::endpoint(net::ip::make_address("127.0.0.1"), server.port());
  b.target.authority = "127.0.0.1:" + std::to_string(server.port());
  // Questions spread over the changes: one in the middle of each stretch of changes/questions.
  b.question_of_event.assign(static_cast<size_t>(opt.changes) + 1, -1);
  std::vector<std::string> question_step(static_cast<size_t>(opt.questions));
  for (int q = 0; q < opt.questions; ++q) {
    const int stride = opt.changes / opt.questions;
    const int k = q * stride + stride / 2 + 1;
    b.question_of_event[static_cast<size_t>(k)] = q;
    question_step[static_cast<size_t>(q)] = "N50/w" + std::to_string(q + 1);
  }
  b.received = std::make_unique<std::atomic<int>[]>(static_cast<size_t>(opt.changes) + 1);
  b.students.resize(static_cast<size_t>(opt.students));
  for (int i = 0; i < opt.students; ++i) {
    auto& s = b.students[static_cast<size_t>(i)];
    s.index = i;
    s.got.assign(static_cast<size_t>(opt.changes) + 1, Clock::time_point{});
    s.answered.assign(static_cast<size_t>(opt.questions), -1);
    s.errors.reserve(4);
  }

  // The client thread: uncounted by the heap counter from its first instruction.
  auto work = net::make_work_guard(b.ioc);
  std::thread client_thread([&b] {
    bw::bench::SetThreadUncounted(true);
    b.ioc.run();
  });
  const long long heap_before = bw::bench::HeapNow();
  net::post(b.ioc, [&b] {
    for (auto& s : b.students) b.Connect(s);
  });
  const auto join_start = Clock::now();
  const bool all_joined = WaitUntil(b, Clock::now() + std::chrono::seconds(30), [&] { return b.joined.load() >= opt.students; });
  const double join_ms = std::chrono::duration<double, std::milli>(Clock::now() - join_start).count();
  const long long heap_joined = bw::bench::HeapNow();

  // The teacher teaches.
  std::vector<Clock::time_point> published(static_cast<size_t>(opt.changes) + 1);
  std::vector<double> publish_us, publish_cpu_us;  // wall time; the teacher thread's CPU time
  publish_us.reserve(static_cast<size_t>(opt.changes));
  publish_cpu_us.reserve(static_cast<size_t>(opt.changes));
  int missed_changes = 0, unanswered_questions = 0;
  bool killed = false, all_rejoined = opt.kill == 0;
  const int kill_after = std::max(1, opt.changes / 2);
  Clock::time_point next = Clock::now();
  for (int k = 1; all_joined && k <= opt.changes && b.failed.load() == 0; ++k) {
    std::this_thread::sleep_until(next);  // pacing only: every wait for correctness is on a condition
    const int q = b.question_of_event[static_cast<size_t>(k)];
    const auto state = step_state(q >= 0 ? question_step[static_cast<size_t>(q)] : "N50/s" + std::to_string(k), k);
    std::optional<bw::app::StepQuestion> question;
    if (q >= 0) question = CheckedQuestion(state.step);  // built before the clock starts: the app has it ready
    const double cpu0 = ThreadCpuMicros();
    const auto t0 = Clock::now();
    server.Publish(state, std::move(question));
    const auto t1 = Clock::now();
    publish_cpu_us.push_back(ThreadCpuMicros() - cpu0);
    published[static_cast<size_t>(k)] = t0;
    publish_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    next = t0 + std::chrono::milliseconds(opt.interval_ms);
    if (!WaitUntil(b, t0 + kDeadline, [&] { return b.received[static_cast<size_t>(k)].load() >= opt.students; })) {
      ++missed_changes;
      break;
    }
    if (q >= 0) {
      // The histogram is the server's, behind its mutex: polled (every 0.2 ms) until it counts every
      // student or the deadline passes.
      const auto until = t0 + kDeadline;
      for (;;) {
        const auto h = server.HistogramOf(state.step, 1);
        if (h && h->total >= opt.students) break;
        if (Clock::now() > until) {
          ++unanswered_questions;
          break;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    }
    if (k == kill_after && opt.kill > 0) {
      killed = true;
      net::post(b.ioc, [&b] { b.KillAndRejoin(); });
      all_rejoined = WaitUntil(b, Clock::now() + kDeadline, [&] { return b.rejoined.load() >= opt.kill; });
      if (!all_rejoined) break;
      next = Clock::now() + std::chrono::milliseconds(opt.interval_ms);
    }
  }
  const long long heap_end = bw::bench::HeapNow();
  const auto counts = server.counts();

  // Answers: what the students sent, against what the server counted.
  long long sent = 0, counted = 0, verdicts_off = 0;
  for (int q = 0; q < opt.questions; ++q) {
    int n_sent = 0, right = 0, wrong = 0;
    for (const auto& s : b.students) {
      const int a = s.answered[static_cast<size_t>(q)];
      if (a < 0) continue;
      ++n_sent;
      (a == 1 ? wrong : right) += 1;
    }
    sent += n_sent;
    const auto h = server.HistogramOf(question_step[static_cast<size_t>(q)], 1);
    const int total = h ? h->total : 0;
    counted += total;
    if (h && (h->right != right || h->wrong != wrong || h->mistakes.empty() || h->mistakes[0].count != wrong)) ++verdicts_off;
  }

  // Every connection closed, then the client thread ends.
  net::post(b.ioc, [&b] {
    for (auto& s : b.students)
      if (s.conn) s.conn->Abort();
  });
  work.reset();
  client_thread.join();
  server.Stop();

  std::vector<double> latency, fanout;
  latency.reserve(static_cast<size_t>(opt.students) * static_cast<size_t>(opt.changes));
  int missing_receipts = 0;
  for (int k = 1; k <= opt.changes; ++k) {
    if (published[static_cast<size_t>(k)] == Clock::time_point{}) {
      missing_receipts += opt.students;
      continue;
    }
    double last = 0;
    for (const auto& s : b.students) {
      const auto t = s.got[static_cast<size_t>(k)];
      if (t == Clock::time_point{}) {
        ++missing_receipts;
        continue;
      }
      const double ms = std::chrono::duration<double, std::milli>(t - published[static_cast<size_t>(k)]).count();
      latency.push_back(ms);
      last = std::max(last, ms);
    }
    fanout.push_back(last);
    if (opt.verbose)
      std::cerr << "change " << k << (b.question_of_event[static_cast<size_t>(k)] >= 0 ? " (question)" : "")
                << (k == kill_after + 1 && killed ? " (first after the rejoins)" : "") << ": Publish() " << Fixed(publish_us[static_cast<size_t>(k - 1)], 1) << " µs (CPU "
                << Fixed(publish_cpu_us[static_cast<size_t>(k - 1)], 1) << " µs), last student after " << Fixed(last, 2) << " ms\n";
  }
  std::vector<double> rejoin;
  for (const auto& s : b.students)
    if (s.rejoin_ms >= 0) rejoin.push_back(s.rejoin_ms);
  std::vector<std::string> errors;
  for (const auto& s : b.students)
    for (const auto& e : s.errors) errors.push_back("student " + std::to_string(s.index) + ": " + e);

  const Stats lat = StatsOf(latency), fan = StatsOf(fanout), rj = StatsOf(rejoin), pub = StatsOf(publish_us),
              pub_cpu = StatsOf(publish_cpu_us);
  const double per_client_joined = static_cast<double>(heap_joined - heap_before) / opt.students;
  const double per_client_end = static_cast<double>(heap_end - heap_before) / opt.students;
  const long long lost = sent - counted;

  std::cout << "| measure | value |\n|---|---:|\n";
  std::cout << "| students (one client thread, async Beast) | " << opt.students << " |\n";
  std::cout << "| all joined (connect, handshake, join, welcome + state) | " << Fixed(join_ms, 1) << " ms |\n";
  std::cout << "| step changes published (≥ " << opt.interval_ms << " ms apart, each awaited) | " << published.size() - 1 - static_cast<size_t>(std::count(published.begin() + 1, published.end(), Clock::time_point{})) << " of " << opt.changes << " |\n";
  std::cout << "| propagation latency p50 / p99 / max (Publish() → a student's receipt) | " << Triple(lat, 2) << " ms |\n";
  std::cout << "| fan-out complete p50 / p99 / max (Publish() → the last student's receipt) | " << Triple(fan, 2) << " ms |\n";
  std::cout << "| states missed or repeated | " << missing_receipts << " |\n";
  std::cout << "| answers sent / counted by HistogramOf / lost (" << opt.questions << " questions) | " << sent << " / " << counted << " / " << lost << " |\n";
  std::cout << "| histograms whose right / wrong / named-mistake counts differ from those sent | " << verdicts_off << " |\n";
  std::cout << "| server heap per client, all joined | " << Fixed(per_client_joined / 1024, 1) << " KiB |\n";
  std::cout << "| server heap per client, end of run (answers held) | " << Fixed(per_client_end / 1024, 1) << " KiB |\n";
  std::cout << "| rejoin after a dropped socket p50 / p99 / max (" << rj.n << " of " << opt.kill << ") | " << Triple(rj, 1) << " ms |\n";
  std::cout << "| one Publish() on the teacher's thread, wall median / p99 | " << Fixed(pub.p50, 1) << " / " << Fixed(pub.p99, 1) << " µs |\n";
  std::cout << "| one Publish(), the teacher thread's CPU time median / p99 | " << Fixed(pub_cpu.p50, 1) << " / " << Fixed(pub_cpu.p99, 1) << " µs |\n";
  std::cout << "| server at the end: students / connected | " << counts.students << " / " << counts.connected << " |\n";
  std::cout.flush();

  bool ok = true;
  auto problem = [&](const std::string& why) {
    std::cerr << "class_load bench: " << why << "\n";
    ok = false;
  };
  if (!all_joined) problem(std::to_string(b.joined.load()) + " of " + std::to_string(opt.students) + " students joined");
  if (missed_changes) problem("a change did not reach every student within 10 s");
  if (missing_receipts) problem(std::to_string(missing_receipts) + " states missed");
  if (lost != 0 || unanswered_questions) problem(std::to_string(lost) + " answers lost (" + std::to_string(unanswered_questions) + " questions not fully counted)");
  if (sent != static_cast<long long>(opt.students) * opt.questions) problem(std::to_string(sent) + " answers sent, not " + std::to_string(opt.students * opt.questions));
  if (verdicts_off) problem(std::to_string(verdicts_off) + " histograms with other verdicts than sent");
  if (killed && !all_rejoined) problem(std::to_string(b.rejoined.load()) + " of " + std::to_string(opt.kill) + " killed students rejoined");
  for (size_t i = 0; i < errors.size() && i < 20; ++i) problem(errors[i]);
  if (errors.size() > 20) problem("… " + std::to_string(errors.size() - 20) + " more");
  return ok ? 0 : 1;
}

// [SECTION] drive: a scripted class against an external server

struct DriveOptions {
  std::string url, code, report;
  int students = 50;
  int flood = 1;
  int garbage = 1;
  std::string answers = "160/7,65/3,22.86";
  int max_seconds = 0;
};

// "http://HOST:PORT/…" → HOST and PORT ("[::1]" for IPv6); std::nullopt when it is not one.
std::optional<std::pair<std::string, std::string>> SplitUrl(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0) return std::nullopt;
  const std::string authority = url.substr(scheme.size(), url.find('/', scheme.size()) - scheme.size());
  if (authority.empty()) return std::nullopt;
  std::string host, port = "80";
  if (authority[0] == '[') {
    const auto close = authority.find(']');
    if (close == std::string::npos) return std::nullopt;
    host = authority.substr(0, close + 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      port = authority.substr(close + 2);
    }
  } else {
    const auto colon = authority.rfind(':');
    host = authority.substr(0, colon);
    if (colon != std::string::npos) port = authority.substr(colon + 1);
  }
  if (host.empty() || port.empty() || port.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::make_pair(host, port);
}

struct DriveStudent {
  int index = 0;
  std::shared_ptr<Connection> conn;
  bool joined = false, closed = false;
  std::string token, error;
  json states = json::array();
  std::vector<std::string> refused;
  std::set<std::pair<std::string, int>> answered;  // (step, round)
};

struct BadClient {
  std::shared_ptr<Connection> conn;
  std::string bad_frame;  // garbage: the frame sent after the welcome ("" for a flooder)
  bool joined = false, closed = false, refused = false;
  long long frames_sent = 0;  // flood frames written (the join not counted)
  long long writes_done = 0;
  std::string error;
};

class Drive {
 public:
  Drive(DriveOptions opt, Target target, std::vector<std::string> answers)
      : opt_(std::move(opt)), target_(std::move(target)), answers_(std::move(answers)), signals_(ioc_, SIGINT, SIGTERM), limit_(ioc_) {}

  int Run() {
    signals_.async_wait([this](error_code ec, int) {
      if (!ec) Finish(0);
    });
    if (opt_.max_seconds > 0) {
      limit_.expires_after(std::chrono::seconds(opt_.max_seconds));
      limit_.async_wait([this](error_code ec) {
        if (!ec) {
          std::cerr << "class_load drive: --max-seconds ran out before a signal\n";
          Finish(2);
        }
      });
    }
    students_.resize(static_cast<size_t>(opt_.students));
    for (int i = 0; i < opt_.students; ++i) {
      students_[static_cast<size_t>(i)].index = i;
      ConnectStudent(students_[static_cast<size_t>(i)]);
    }
    if (opt_.students == 0) AllJoined();
    ioc_.run();
    return exit_code_;
  }

 private:
  std::string JoinText(const std::string& nickname) const {
    cr::JoinMessage m;
    m.code = opt_.code;
    m.nickname = nickname;
    return cr::JoinMessageText(m);
  }

  void ConnectStudent(DriveStudent& s) {
    Connection::Handlers h;
    h.on_open = [this, &s] { s.conn->Send(JoinText("s" + std::to_string(s.index))); };
    h.on_frame = [this, &s](const std::string& text, Clock::time_point) { OnStudentFrame(s, text); };
    h.on_end = [&s](error_code ec, bool opened) {
      if (opened) s.closed = true;
      if (!opened || (ec != websocket::error::closed && ec != net::error::eof)) s.error = (opened ? "ended: " : "could not connect: ") + Describe(ec);
    };
    s.conn = std::make_shared<Connection>(ioc_, target_, std::move(h));
    s.conn->Start();
  }

  void OnStudentFrame(DriveStudent& s, const std::string& text) {
    cr::ServerMessage m;
    try {
      m = cr::ParseServerMessage(text);
    } catch (const std::exception& e) {
      s.error = std::string("unreadable frame: ") + e.what();
      return;
    }
    if (const auto* w = std::get_if<cr::WelcomeReceived>(&m)) {
      if (!s.joined) {
        s.joined = true;
        s.token = w->token;
        if (++joined_ == opt_.students) AllJoined();
      }
      return;
    }
    if (const auto* r = std::get_if<cr::RefusedReceived>(&m)) return s.refused.push_back(r->reason);
    const auto* st = std::get_if<cr::StateReceived>(&m);
    if (!st) return;  // class_full, ended: the close that follows is recorded
    const auto& t = st->state;
    s.states.push_back({{"seq", st->seq}, {"course", t.course}, {"lesson", t.lesson}, {"step", t.step}, {"card", t.card},
                        {"event", t.event}, {"revealed", t.revealed}, {"question_open", st->question_open},
                        {"round", t.round}, {"pacing_lock", t.pacing_lock}});
    if (st->question_open && !t.step.empty() && s.answered.insert({t.step, t.round}).second) {
      const std::string& a = answers_[static_cast<size_t>(s.index) % answers_.size()];
      s.conn->Send(cr::AnswerMessageText({t.step, t.round, a}));
      ++answers_sent_[t.step][a];
    }
  }

  void AllJoined() {
    std::cout << "joined " << joined_ << std::endl;  // the test script waits for this line
    StartBadClients();
  }
  void StartBadClients() {
    for (int i = 0; i < opt_.flood; ++i) StartBad(flooders_.emplace_back(), "flood" + std::to_string(i));
    static const char* const kGarbage[] = {
        "}{ not JSON at all",
        R"({"v":1,"kind":"state","seq":99,"course":"","lesson":"N50","step":"N50/w9","card":"","position":"event:1","event":0,"revealed":true,"pacing_lock":false,"round":1,"question_open":false})",
        R"({"v":1,"kind":"follow","step":"N50/w9"})",
        R"({"v":1,"kind":"follow","pacing_lock":false})",
    };
    for (int i = 0; i < opt_.garbage; ++i)
      for (const char* frame : kGarbage) {
        auto& c = garbage_.emplace_back();
        c.bad_frame = frame;
        StartBad(c, "garbage" + std::to_string(garbage_.size()));
      }
  }

  // A flooder (bad_frame empty): after its welcome, answers and follows back to back, each written
  // as soon as the one before it is, until the server closes it. A garbage client: its bad frame.
  void StartBad(BadClient& c, const std::string& nickname) {
    Connection::Handlers h;
    const bool flood = c.bad_frame.empty();
    h.on_open = [this, &c, nickname] { c.conn->Send(JoinText(nickname)); };
    h.on_frame = [this, &c, flood](const std::string& text, Clock::time_point) {
      if (text.find("\"refused\"") != std::string::npos) c.refused = true;
      if (c.joined || text.find("\"welcome\"") == std::string::npos) return;
      c.joined = true;
      if (flood) {
        if (c.conn->idle()) FloodOne(c);  // else on_sent starts it
      } else {
        c.conn->Send(c.bad_frame);
      }
    };
    if (flood)
      h.on_sent = [this, &c] {
        if (c.writes_done++ > 0) ++c.frames_sent;  // the first write is the join
        if (c.joined && c.conn->idle()) FloodOne(c);
      };
    h.on_end = [&c](error_code ec, bool opened) {
      if (opened) c.closed = true;
      else c.error = "could not connect: " + Describe(ec);
    };
    c.conn = std::make_shared<Connection>(ioc_, target_, std::move(h));
    c.conn->Start();
  }
  void FloodOne(BadClient& c) {
    // A question no step has (refused, never counted) and follows, alternately.
    if (c.frames_sent % 2 == 0) {
      c.conn->Send(cr::AnswerMessageText({"FLOOD/none", 1, "160/7"}));
    } else {
      c.conn->Send(cr::FollowMessageText());
    }
  }

  void Finish(int code) {
    if (finished_) return;
    finished_ = true;
    exit_code_ = code;
    json report;
    report["joined"] = joined_;
    json students = json::array();
    for (const auto& s : students_) {
      json j{{"joined", s.joined}, {"token", s.token}, {"states", s.states}, {"closed", s.closed}, {"refused", s.refused}};
      if (!s.error.empty()) j["error"] = s.error;
      students.push_back(std::move(j));
    }
    report["students"] = std::move(students);
    if (opt_.flood > 0) {
      bool closed = !flooders_.empty();
      long long sent = 0;
      for (const auto& f : flooders_) {
        closed = closed && f.closed;
        sent += f.frames_sent;
      }
      report["flooder"] = {{"closed", closed}, {"frames_sent", sent}, {"count", opt_.flood}, {"started", !flooders_.empty()}};
    } else {
      report["flooder"] = nullptr;
    }
    if (opt_.garbage > 0) {
      bool closed = !garbage_.empty();
      json cases = json::array();
      for (const auto& g : garbage_) {
        closed = closed && g.closed;
        cases.push_back({{"sent", g.bad_frame}, {"joined", g.joined}, {"closed", g.closed}, {"refused", g.refused}});
      }
      report["garbage"] = {{"closed", closed}, {"cases", std::move(cases)}};
    } else {
      report["garbage"] = nullptr;
    }
    json sent = json::object();
    for (const auto& [step, by] : answers_sent_)
      for (const auto& [a, n] : by) sent[step][a] = n;
    report["answers_sent"] = std::move(sent);
    const std::filesystem::path file(opt_.report), tmp(opt_.report + ".tmp");
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << report.dump(1) << "\n";
      if (!out) {
        std::cerr << "class_load drive: cannot write " << tmp << "\n";
        exit_code_ = 1;
      }
    }
    std::error_code ec;
    if (exit_code_ != 1) std::filesystem::rename(tmp, file, ec);
    if (ec) {
      std::cerr << "class_load drive: cannot write " << file << ": " << ec.message() << "\n";
      exit_code_ = 1;
    }
    ioc_.stop();  // the sockets close when the process exits
  }

  DriveOptions opt_;
  Target target_;
  std::vector<std::string> answers_;
  net::io_context ioc_{1};
  net::signal_set signals_;
  net::steady_timer limit_;
  std::deque<DriveStudent> students_;  // deques: the handlers hold references to their elements
  std::deque<BadClient> flooders_, garbage_;
  std::map<std::string, std::map<std::string, long long>> answers_sent_;
  int joined_ = 0;
  bool finished_ = false;
  int exit_code_ = 0;
};

int RunDrive(const DriveOptions& opt) {
  const auto split = SplitUrl(opt.url);
  if (!split) {
    std::cerr << "class_load drive: --url must be http://HOST:PORT/ (got \"" << opt.url << "\")\n";
    return 2;
  }
  std::vector<std::string> answers;
  {
    std::stringstream in(opt.answers);
    for (std::string a; std::getline(in, a, ',');)
      if (!a.empty()) answers.push_back(a);
  }
  if (answers.empty() || opt.students < 0 || opt.flood < 0 || opt.garbage < 0) {
    std::cerr << "class_load drive: need at least one answer and counts ≥ 0\n";
    return 2;
  }
  RaiseFileLimit();
  Target target;
  {
    net::io_context ioc;
    tcp::resolver resolver(ioc);
    error_code ec;
    std::string host = split->first;
    if (host.front() == '[') host = host.substr(1, host.size() - 2);
    const auto results = resolver.resolve(host, split->second, ec);
    if (ec || results.empty()) {
      std::cerr << "class_load drive: " << split->first << ": " << Describe(ec) << "\n";
      return 1;
    }
    target.endpoint = results.begin()->endpoint();
    target.authority = split->first + ":" + split->second;
  }
  Drive drive(opt, target, answers);
  return drive.Run();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"class_load: the live class under load (bench), or a scripted class against a running server (drive)"};
  app.require_subcommand(1);

  BenchOptions bo;
  auto* bench = app.add_subcommand("bench", "start a class server in this process, load it, print a markdown table");
  bench->add_option("--students", bo.students, "simulated students")->capture_default_str();
  bench->add_option("--changes", bo.changes, "step changes the teacher publishes")->capture_default_str();
  bench->add_option("--questions", bo.questions, "of them, open questions every student answers")->capture_default_str();
  bench->add_option("--kill", bo.kill, "students whose socket is closed abruptly halfway, who rejoin with their token")->capture_default_str();
  bench->add_option("--interval-ms", bo.interval_ms, "at least this long between two publishes")->capture_default_str();
  bench->add_flag("--verbose", bo.verbose, "one line per change on stderr: when its last student had it");

  DriveOptions d;
  auto* drive = app.add_subcommand("drive", "join students to a running class server; on SIGTERM/SIGINT write a JSON report");
  drive->add_option("--url", d.url, "the class's address, http://HOST:PORT/")->required();
  drive->add_option("--code", d.code, "the join code")->required();
  drive->add_option("--students", d.students, "students")->capture_default_str();
  drive->add_option("--flood", d.flood, "flooders (join, then messages as fast as possible)")->capture_default_str();
  drive->add_option("--garbage", d.garbage, "rounds of garbage clients (4 bad frames each)")->capture_default_str();
  drive->add_option("--answers", d.answers, "answers, comma-separated: student i answers answers[i % count]")->capture_default_str();
  drive->add_option("--report", d.report, "the JSON report, written on SIGTERM/SIGINT")->required();
  drive->add_option("--max-seconds", d.max_seconds, "write the report and exit 2 after this long without a signal (0: never)")->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  if (*bench) return RunBench(bo);
  return RunDrive(d);
}
