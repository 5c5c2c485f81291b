// The class server on loopback with real WebSocket clients (Boost.Beast, in this process; no GUI):
// 50 students join, follow 20 step changes in order and answer; a flooding client, a garbage
// client, an oversize frame, a binary frame and a foreign Origin are each closed and logged while
// the others go on; the histogram equals the answers sent; the teacher's state is what the teacher
// published. Files: only from the web root, with their content types; traversal gets 400/404 and
// no listing. Every wait is on a condition with a deadline (kTimeout), never a sleep.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>

#include "server/class_server.h"

namespace {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace websocket = boost::beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
using nlohmann::json;
using namespace bw::classroom;
using bw::server::ClassServer;
using bw::server::ServerOptions;

constexpr auto kTimeout = std::chrono::seconds(10);

// Polls `pred` until it holds or kTimeout passes (the server's thread changes what it reads).
template <class Pred>
bool WaitFor(Pred pred) {
  const auto until = std::chrono::steady_clock::now() + kTimeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::yield();
  }
  return true;
}

// A WebSocket student: each operation runs on its own io_context with a deadline.
class Student {
 public:
  explicit Student(unsigned short port) : port_(port) {}

  error_code Connect(const std::string& origin = "") {
    error_code ec = Run([&](auto h) { ws_.next_layer().async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_), h); });
    if (ec) return ec;
    const std::string o = origin.empty() ? "http://127.0.0.1:" + std::to_string(port_) : origin;
    ws_.set_option(websocket::stream_base::decorator([o](websocket::request_type& req) { req.set(http::field::origin, o); }));
    ws_.read_message_max(1 << 20);
    return Run([&](auto h) { ws_.async_handshake("127.0.0.1:" + std::to_string(port_), "/class", h); });
  }
  error_code Send(const std::string& text, bool binary = false) {
    ws_.binary(binary);
    return Run([&](auto h) { ws_.async_write(net::buffer(text), h); });
  }
  // The next frame, or nullopt when the connection ended (last_error says how).
  std::optional<std::string> Read() {
    buffer_.clear();
    last_error = Run([&](auto h) { ws_.async_read(buffer_, h); });
    if (last_error) return std::nullopt;
    return beast::buffers_to_string(buffer_.data());
  }
  // Reads until the server closes; true when it did (and within the deadline), with what came before.
  bool ReadUntilClosed(std::vector<std::string>* frames = nullptr) {
    for (int i = 0; i < 10000; ++i) {
      auto f = Read();
      if (!f) return last_error != net::error::timed_out;
      if (frames) frames->push_back(*f);
    }
    return false;
  }
  void Close() {
    Run([&](auto h) { ws_.async_close(websocket::close_code::normal, h); });
  }
  tcp::socket& socket() { return ws_.next_layer(); }
  error_code last_error;

 private:
  template <class Op>
  error_code Run(Op op) {
    std::optional<error_code> result;
    op([&result](error_code ec, auto&&...) { result = ec; });
    ioc_.restart();
    ioc_.run_for(kTimeout);
    if (!result) {
      error_code ignored;
      ws_.next_layer().close(ignored);
      ioc_.restart();
      ioc_.run();
      return net::error::timed_out;
    }
    return *result;
  }
  unsigned short port_;
  net::io_context ioc_;
  websocket::stream<tcp::socket> ws_{ioc_};
  beast::flat_buffer buffer_;
};

std::string JoinMsg(const std::string& code, const std::string& nickname = "") {
  json j{{"v", 1}, {"kind", "join"}, {"code", code}};
  if (!nickname.empty()) j["nickname"] = nickname;
  return j.dump();
}

std::string AnswerMsg(const std::string& q, const std::string& a) {
  return json{{"v", 1}, {"kind", "answer"}, {"question", q}, {"round", 1}, {"answer", a}}.dump();
}

bw::app::StepQuestion Question(const std::string& step) {
  bw::app::StepQuestion q;
  q.step_id = step;
  q.number = bw::view::ExpectedNumber{160.0 / 7, bw::engine::Rational(160, 7)};
  q.mistakes.push_back({"average", bw::view::ExpectedNumber{65.0 / 3, bw::engine::Rational(65, 3)}});
  return q;
}

TeacherState Step(const std::string& id, int event) {
  TeacherState t;
  t.lesson = "N50";
  t.step = id;
  t.position = "event:" + std::to_string(event + 1);
  t.event = event;
  return t;
}

bool AnyLogLine(const ClassServer& s, const std::string& part) {
  for (const auto& l : s.LogLines())
    if (l.find(part) != std::string::npos) return true;
  return false;
}

// One HTTP GET of `target` on a new connection: status, content type, body.
struct Got {
  int status = 0;
  std::string type, body;
};
Got Get(unsigned short port, const std::string& target) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  Got got;
  stream.expires_after(kTimeout);
  error_code ec;
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
  if (ec) return got;
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::async_write(stream, req, [&](error_code e, std::size_t) {
    if (!e) http::async_read(stream, buffer, res, [&](error_code, std::size_t) {});
  });
  ioc.run();
  got.status = static_cast<int>(res.result_int());
  got.type = std::string(res[http::field::content_type]);
  got.body = res.body();
  return got;
}

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() / ("bw_class_server_" + std::to_string(::getpid()) + "_" +
                                                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "web" / "sub");
    std::filesystem::create_directories(dir / "web" / "assets");
    Write(dir / "web" / "index.html", "<!doctype html><title>Blockwise</title>");
    Write(dir / "web" / "blockwise.js", "console.log(1)");
    Write(dir / "web" / "blockwise.wasm", std::string("\0asm", 4));
    Write(dir / "web" / "blockwise.data", "data");
    Write(dir / "web" / "style.css", "body{}");
    Write(dir / "web" / "assets" / "logo.png", "\x89PNG");
    Write(dir / "web" / "assets" / "a.json", "{}");
    Write(dir / "web" / "sub" / "x.txt", "x");
    Write(dir / "secret.txt", "SECRET");
    std::filesystem::create_symlink(dir / "secret.txt", dir / "web" / "link.txt");
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  static void Write(const std::filesystem::path& p, const std::string& s) { std::ofstream(p, std::ios::binary) << s; }
  std::filesystem::path dir;
};

TEST_F(ServerTest, FiftyStudentsFollowTwentyStepsAnswerAndTheBadClientsAreClosed) {
  ServerOptions o;
  o.web_root = dir / "web";
  o.state_file = dir / "class-state.json";
  ClassServer server(o);
  ASSERT_EQ(server.Start(), "");
  ASSERT_NE(server.port(), 0);
  const std::string code = server.code();
  server.Publish(Step("N50/s0", 0), std::nullopt);

  constexpr int kStudents = 50;
  const std::vector<std::string> typed = {"160/7", "65/3", "22.857", "320/14", "23"};
  std::vector<std::string> steps_published;
  for (int k = 1; k <= 19; ++k) steps_published.push_back("N50/s" + std::to_string(k));
  steps_published.push_back("N50/w1");  // the 20th change opens the question

  std::mutex mu;
  std::condition_variable cv;
  int ready = 0;
  bool finish = false;
  std::vector<std::vector<std::string>> seen(kStudents);
  std::vector<std::string> failures(kStudents);
  std::vector<std::thread> threads;
  for (int i = 0; i < kStudents; ++i) {
    threads.emplace_back([&, i] {
      Student s(server.port());
      auto fail = [&](const std::string& why) {
        failures[i] = why;
        std::lock_guard<std::mutex> lock(mu);
        ++ready;
        cv.notify_all();
      };
      if (auto ec = s.Connect()) return fail("connect: " + ec.message());
      if (auto ec = s.Send(JoinMsg(code, "s" + std::to_string(i)))) return fail("join: " + ec.message());
      auto welcome = s.Read();
      auto state = s.Read();
      if (!welcome || json::parse(*welcome).at("kind") != "welcome") return fail("no welcome");
      if (!state || json::parse(*state).at("kind") != "state") return fail("no state");
      std::uint64_t last_seq = json::parse(*state).at("seq");
      {
        std::lock_guard<std::mutex> lock(mu);
        ++ready;
        cv.notify_all();
      }
      while (seen[i].empty() || seen[i].back() != "N50/w1") {
        auto f = s.Read();
        if (!f) return void(failures[i] = "read: " + s.last_error.message());
        const auto j = json::parse(*f);
        if (j.at("kind") != "state") return void(failures[i] = "unexpected " + *f);
        if (j.at("seq").get<std::uint64_t>() <= last_seq) continue;  // a repeat of one already seen
        last_seq = j.at("seq");
        seen[i].push_back(j.at("step"));
        if (j.at("step") == "N50/w1" && !j.at("question_open").get<bool>()) return void(failures[i] = "question not open");
      }
      if (auto ec = s.Send(AnswerMsg("N50/w1", typed[static_cast<size_t>(i) % typed.size()]))) return void(failures[i] = ec.message());
      std::unique_lock<std::mutex> lock(mu);
      cv.wait_for(lock, kTimeout, [&] { return finish; });
      lock.unlock();
      s.Close();
    });
  }
  {
    std::unique_lock<std::mutex> lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, kTimeout, [&] { return ready == kStudents; }));
  }
  ASSERT_EQ(server.counts().students, kStudents);

  // The bad clients, while the teacher teaches.
  std::thread flood_thread, garbage_thread;
  bool flood_closed = false, flood_refused = false, garbage_closed = false, garbage_refused = false;
  flood_thread = std::thread([&] {
    Student s(server.port());
    if (s.Connect() || s.Send(JoinMsg(code))) return;
    for (int k = 0; k < 200; ++k)
      if (s.Send(R"({"v":1,"kind":"follow"})")) break;  // the server may close mid-flood
    std::vector<std::string> frames;
    flood_closed = s.ReadUntilClosed(&frames);
    for (const auto& f : frames) flood_refused = flood_refused || f.find("messages at once") != std::string::npos;
  });
  garbage_thread = std::thread([&] {
    Student s(server.port());
    if (s.Connect() || s.Send(JoinMsg(code))) return;
    if (s.Send("}{ not JSON at all")) return;
    std::vector<std::string> frames;
    garbage_closed = s.ReadUntilClosed(&frames);
    for (const auto& f : frames) garbage_refused = garbage_refused || f.find("\"refused\"") != std::string::npos;
  });

  for (int k = 0; k < 20; ++k) {
    const bool question = k == 19;
    server.Publish(Step(steps_published[static_cast<size_t>(k)], k + 1), question ? std::optional(Question("N50/w1")) : std::nullopt);
  }
  const TeacherState published = Step("N50/w1", 20);

  // Oversize and binary frames, and a page from somewhere else.
  {
    Student big(server.port());
    ASSERT_FALSE(big.Connect());
    ASSERT_FALSE(big.Send(JoinMsg(code)));
    big.Read();
    big.Read();
    big.Send(std::string(R"({"v":1,"kind":"follow","pad":")") + std::string(6000, 'x') + "\"}");
    EXPECT_TRUE(big.ReadUntilClosed());
    Student utf8(server.port());
    ASSERT_FALSE(utf8.Connect());
    utf8.Send("{\"v\":1,\"kind\":\"follow\xFF\"}");  // a text frame that is not UTF-8
    EXPECT_TRUE(utf8.ReadUntilClosed());
    Student bin(server.port());
    ASSERT_FALSE(bin.Connect());
    bin.Send(std::string("\x01\x02\x03", 3), /*binary=*/true);
    EXPECT_TRUE(bin.ReadUntilClosed());
    Student foreign(server.port());
    EXPECT_TRUE(foreign.Connect("http://evil.example"));  // the handshake is refused (403)
  }

  flood_thread.join();
  garbage_thread.join();
  EXPECT_TRUE(flood_closed);
  EXPECT_TRUE(flood_refused);
  EXPECT_TRUE(garbage_closed);
  EXPECT_TRUE(garbage_refused);

  ASSERT_TRUE(WaitFor([&] { return server.HistogramOf("N50/w1", 1) && server.HistogramOf("N50/w1", 1)->total == kStudents; }))
      << "answers counted: " << (server.HistogramOf("N50/w1", 1) ? server.HistogramOf("N50/w1", 1)->total : -1);
  {
    std::lock_guard<std::mutex> lock(mu);
    finish = true;
    cv.notify_all();
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < kStudents; ++i) {
    EXPECT_EQ(failures[i], "") << "student " << i;
    EXPECT_EQ(seen[i], steps_published) << "student " << i;  // every change, in order, once
  }

  const auto h = *server.HistogramOf("N50/w1", 1);
  EXPECT_EQ(h.total, 50);
  EXPECT_EQ(h.right, 30);       // 160/7, 320/14, 22.857
  EXPECT_EQ(h.wrong, 10);       // 65/3
  EXPECT_EQ(h.too_coarse, 10);  // 23
  ASSERT_EQ(h.mistakes.size(), 1u);
  EXPECT_EQ(h.mistakes[0].count, 10);
  std::map<std::string, int> by_answer;
  for (const auto& a : h.answers) by_answer[a.answer] = a.count;
  EXPECT_EQ(by_answer, (std::map<std::string, int>{{"160/7", 20}, {"65/3", 10}, {"22.857", 10}, {"23", 10}}));

  EXPECT_EQ(server.teacher_state(), published);  // the bad clients changed nothing
  EXPECT_GE(server.counts().closed_hostile, 6);
  EXPECT_TRUE(AnyLogLine(server, "messages at once"));
  EXPECT_TRUE(AnyLogLine(server, "malformed JSON"));
  EXPECT_TRUE(AnyLogLine(server, "a message over 4096 bytes"));
  EXPECT_TRUE(AnyLogLine(server, "a binary frame"));
  EXPECT_TRUE(AnyLogLine(server, "evil.example"));

  // The state file was written while the class ran; a restarted server resumes the same class.
  server.Stop();
  ASSERT_TRUE(std::filesystem::exists(o.state_file));
  const ClassRoom resumed = ClassRoom::Resume(o.state_file);
  EXPECT_EQ(resumed.code(), code);
  EXPECT_EQ(*resumed.HistogramOf("N50/w1", 1), h);
  EXPECT_EQ(resumed.teacher_state(), published);
}

TEST_F(ServerTest, FilesComeOnlyFromTheWebRootWithTheirTypes) {
  ServerOptions o;
  o.web_root = dir / "web";
  ClassServer server(o);
  ASSERT_EQ(server.Start(), "");
  const auto p = server.port();
  for (const auto& [target, type] : std::vector<std::pair<std::string, std::string>>{
           {"/", "text/html; charset=utf-8"}, {"/index.html", "text/html; charset=utf-8"},
           {"/blockwise.js", "text/javascript; charset=utf-8"}, {"/blockwise.wasm", "application/wasm"},
           {"/blockwise.data", "application/octet-stream"}, {"/style.css", "text/css; charset=utf-8"},
           {"/assets/logo.png", "image/png"}, {"/assets/a.json", "application/json"},
           {"/index.html?class=K7QX2M", "text/html; charset=utf-8"}}) {
    const Got g = Get(p, target);
    EXPECT_EQ(g.status, 200) << target;
    EXPECT_EQ(g.type, type) << target;
  }
  EXPECT_EQ(Get(p, "/blockwise.wasm").body, std::string("\0asm", 4));
  for (const std::string target : {"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/sub/../../secret.txt",
                                   "/..%2fsecret.txt", "/%2e%2e%2fsecret.txt", "/sub/%2e%2e/%2e%2e/secret.txt",
                                   "//etc/passwd", "/./index.html", "/a%00b", "/%zz", "/%2", "/\\..\\secret.txt",
                                   "http://127.0.0.1/../secret.txt", "*"}) {
    const Got g = Get(p, target);
    EXPECT_TRUE(g.status == 400 || g.status == 404) << target << " → " << g.status;
    EXPECT_EQ(g.body.find("SECRET"), std::string::npos) << target;
  }
  for (const std::string target : {"/sub/", "/sub", "/assets/", "/link.txt", "/missing.html", "/etc/passwd"}) {
    const Got g = Get(p, target);
    EXPECT_EQ(g.status, 404) << target;  // a folder without index.html is not listed; a link out is not followed
    EXPECT_EQ(g.body.find("x.txt"), std::string::npos) << target;
    EXPECT_EQ(g.body.find("SECRET"), std::string::npos) << target;
  }
  EXPECT_EQ(Get(p, "/%2e%2e/secret.txt").status, 400);
  EXPECT_EQ(Get(p, "http://127.0.0.1/../secret.txt").status, 400);
  // The WebSocket path only upgrades; other paths do not.
  EXPECT_EQ(Get(p, "/class").status, 404);
}

TEST_F(ServerTest, ARejoinRestoresTheStudentRemovedDevicesAndTheEndAreFinal) {
  ServerOptions o;
  o.state_file = dir / "class-state.json";
  ClassServer server(o);
  ASSERT_EQ(server.Start(), "");
  const std::string code = server.code();
  server.Publish(Step("N50/s3", 3), std::nullopt);
  auto a = std::make_unique<Student>(server.port());
  Student b(server.port());
  ASSERT_FALSE(a->Connect());
  ASSERT_FALSE(a->Send(JoinMsg(code, "Ann")));
  const std::string token_a = json::parse(*a->Read()).at("token");
  a->Read();
  ASSERT_FALSE(a->Send(R"({"v":1,"kind":"detach"})"));
  ASSERT_FALSE(b.Connect());
  ASSERT_FALSE(b.Send(JoinMsg(code)));
  const std::string token_b = json::parse(*b.Read()).at("token");
  b.Read();
  ASSERT_TRUE(WaitFor([&] { return server.counts().following == 1; }));
  // Ann's Wi-Fi drops (the socket dies without a close frame) while the class moves on.
  a->socket().close();
  a.reset();
  server.Publish(Step("N50/s4", 4), std::nullopt);
  ASSERT_TRUE(WaitFor([&] { return std::filesystem::exists(o.state_file); }));  // written while the class runs
  Student again(server.port());
  ASSERT_FALSE(again.Connect());
  ASSERT_FALSE(again.Send(json{{"v", 1}, {"kind", "join"}, {"code", code}, {"token", token_a}}.dump()));
  const auto welcome = json::parse(*again.Read());
  EXPECT_EQ(welcome.at("token"), token_a);
  EXPECT_EQ(welcome.at("following"), false);  // still exploring, as before the drop
  EXPECT_EQ(json::parse(*again.Read()).at("step"), "N50/s4");  // and told where the class is now
  EXPECT_EQ(server.counts().students, 2);
  // The teacher removes b's device: it is told and closed, and its token cannot come back.
  ASSERT_TRUE(server.RemoveDevice(token_b));
  EXPECT_FALSE(server.RemoveDevice("ffffffffffffffffffffffffffffffff"));
  std::vector<std::string> frames;
  EXPECT_TRUE(b.ReadUntilClosed(&frames));
  ASSERT_FALSE(frames.empty());
  EXPECT_NE(frames.back().find("removed"), std::string::npos) << frames.back();
  Student b2(server.port());
  ASSERT_FALSE(b2.Connect());
  ASSERT_FALSE(b2.Send(json{{"v", 1}, {"kind", "join"}, {"code", code}, {"token", token_b}}.dump()));
  EXPECT_EQ(json::parse(*b2.Read()).at("kind"), "refused");
  EXPECT_TRUE(b2.ReadUntilClosed());
  // The end: everyone is told, the state file goes.
  server.EndClass();
  frames.clear();
  EXPECT_TRUE(again.ReadUntilClosed(&frames));
  ASSERT_FALSE(frames.empty());
  EXPECT_EQ(json::parse(frames.back()).at("kind"), "ended");
  EXPECT_TRUE(WaitFor([&] { return !std::filesystem::exists(o.state_file); }));
  server.Stop();
  EXPECT_FALSE(std::filesystem::exists(o.state_file));
}

TEST_F(ServerTest, AStalledReaderIsDroppedAndTheOthersGoOn) {
  ServerOptions o;
  o.send_buffer_bytes = 4096;  // the kernel holds little of what the stalled reader does not read
  ClassServer server(o);
  ASSERT_EQ(server.Start(), "");
  const std::string code = server.code();
  Student stalled(server.port()), reader(server.port());
  stalled.socket().open(tcp::v4());
  stalled.socket().set_option(net::socket_base::receive_buffer_size(1024));
  ASSERT_FALSE(stalled.Connect());
  ASSERT_FALSE(stalled.Send(JoinMsg(code)));
  ASSERT_TRUE(stalled.Read() && stalled.Read());
  ASSERT_FALSE(reader.Connect());
  ASSERT_FALSE(reader.Send(JoinMsg(code)));
  ASSERT_TRUE(reader.Read() && reader.Read());

  std::atomic<std::uint64_t> last_seq{1};
  std::thread t([&] {
    for (;;) {
      auto f = reader.Read();
      if (!f) return;
      last_seq = json::parse(*f).at("seq").get<std::uint64_t>();
    }
  });
  // The teacher goes on publishing, in bursts the bounded queue holds; the reader keeps up after
  // each; the stalled client, whose frames pile up, is dropped.
  std::uint64_t seq = 1;
  bool dropped = false;
  const auto until = std::chrono::steady_clock::now() + kTimeout;
  while (!dropped && std::chrono::steady_clock::now() < until) {
    for (int k = 0; k < 16; ++k, ++seq) server.Publish(Step("S/" + std::to_string(seq % 7), static_cast<int>(seq)), std::nullopt);
    ASSERT_TRUE(WaitFor([&] { return last_seq == seq; })) << "the reader is at " << last_seq << " of " << seq;
    dropped = AnyLogLine(server, "a reader that stopped reading");
  }
  EXPECT_TRUE(dropped) << seq << " states published";
  EXPECT_EQ(server.counts().connected, 1);
  server.Stop();  // closes the reader too
  t.join();
  EXPECT_EQ(server.counts().students, 2);
}

}  // namespace
