// The teacher's side of a live class (issue 30) without a window: app::LiveClass on loopback, driven
// the way the notes window drives it (AppState::ui.live_class.want), with real WebSocket students.
//   - locking pacing reaches every student and refuses their detach;
//   - answers reach the teacher's histogram and its bars (65/3 named as the plain mean), by round;
//   - "vote again" opens round 2, and round 1's line stays in the notes;
//   - the distribution is never projected before the reveal, even when the teacher asked for it;
//   - the class resumes after the app stops without ending it (a crash): the same code, the answers,
//     a student's token rejoins; a state file that is not one is moved aside with a warning;
//   - export writes the results' CSV and JSON; ending tells the students and removes the state file.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>

#include "../lessons/lesson_files.h"
#include "app/class_panel.h"
#include "app/live_class.h"
#include "session/app_state.h"

namespace bw::app {
namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using nlohmann::json;
namespace fs = std::filesystem;

// A blocking WebSocket student with a deadline on every read (a test never hangs).
class Student {
 public:
  explicit Student(const std::string& url) {
    const auto host_port = url.substr(7, url.size() - 8);   // "http://127.0.0.1:PORT/"
    const auto colon = host_port.rfind(':');
    const auto port = static_cast<unsigned short>(std::stoi(host_port.substr(colon + 1)));
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
    beast::get_lowest_layer(ws_).connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws_.set_option(websocket::stream_base::decorator(
        [o = "http://" + host_port](websocket::request_type& r) { r.set(beast::http::field::origin, o); }));
    ws_.handshake(host_port, "/class");
  }
  void Send(const json& j) {
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
    ws_.write(net::buffer(j.dump()));
  }
  // The next frame, or nullopt when the connection closed.
  std::optional<json> Read() {
    beast::flat_buffer b;
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
    beast::error_code ec;
    ws_.read(b, ec);
    if (ec) return std::nullopt;
    return json::parse(beast::buffers_to_string(b.data()));
  }
  // Frames until one of `kind` (the last state seen is kept in `state`).
  std::optional<json> ReadUntil(const std::string& kind) {
    for (int i = 0; i < 100; ++i) {
      auto f = Read();
      if (!f) return std::nullopt;
      if ((*f)["kind"] == "state") state = *f;
      if ((*f)["kind"] == kind) return f;
    }
    return std::nullopt;
  }
  json Join(const std::string& code, const std::string& token = "") {
    json j{{"v", 1}, {"kind", "join"}, {"code", code}};
    if (!token.empty()) j["token"] = token;
    Send(j);
    auto w = ReadUntil("welcome");
    EXPECT_TRUE(w.has_value());
    ReadUntil("state");
    return w.value_or(json());
  }
  json state;

 private:
  net::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_{ioc_};
};

json Answer(const std::string& q, int round, const std::string& a) {
  return {{"v", 1}, {"kind", "answer"}, {"question", q}, {"round", round}, {"answer", a}};
}

class LiveClassTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("bw-live-class-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "web");
    std::ofstream(dir_ / "web" / "index.html") << "<!doctype html>";
    std::ofstream(dir_ / "web" / "blockwise.js") << "// stand-in";
    ::setenv("BLOCKWISE_WEB_ROOT", (dir_ / "web").c_str(), 1);
    ASSERT_TRUE(OpenFile(s_, lessons_test::kRoot + "/lessons/n50-worked-example.json")) << s_.ui.error;
    s_.options.lang = "en";
    s_.options.export_dir = (dir_ / "export").string();
    GoToStep(s_, s_.model.lesson->lesson.FindStep("N50/w1"));
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string StateFile() const { return (dir_ / "class-state.json").string(); }
  // One frame of the teacher's app: the class does what was asked and publishes.
  void Frame(LiveClass& lc) {
    now_ += 1.0;   // past the view's refresh interval
    lc.Frame(s_, now_);
  }
  // Frames until `pred` holds (the server's thread counts what students sent).
  template <class Pred>
  bool FramesUntil(LiveClass& lc, Pred pred) {
    for (int i = 0; i < 500 && !pred(); ++i) {
      Frame(lc);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return pred();
  }
  fs::path dir_;
  AppState s_;
  double now_ = 0;
};

TEST_F(LiveClassTest, TheNotesWindowsControlsReachTheStudentsAndTheProjectorOnlyAfterTheReveal) {
  LiveClass lc;
  ASSERT_EQ(lc.Start("127.0.0.1", s_, StateFile()), "");
  Frame(lc);
  const std::string url = s_.ui.live_class.url, code = s_.ui.live_class.code;
  Student a(url), b(url);
  const std::string token_a = a.Join(code)["token"];
  b.Join(code);
  EXPECT_EQ(a.state["step"], "N50/w1");
  EXPECT_EQ(a.state["question_open"], true);
  EXPECT_EQ(a.state["pacing_lock"], false);

  // Lock pacing: the next state says so, and a detach is refused.
  s_.ui.live_class.want.toggle_lock = true;
  Frame(lc);
  ASSERT_TRUE(a.ReadUntil("state"));
  EXPECT_EQ(a.state["pacing_lock"], true);
  EXPECT_TRUE(s_.ui.live_class.pacing_lock);
  a.Send({{"v", 1}, {"kind", "detach"}});
  const auto refused = a.ReadUntil("refused");
  ASSERT_TRUE(refused);

  // Round 1: one right answer, one plain mean.
  a.Send(Answer("N50/w1", 1, "160/7"));
  b.Send(Answer("N50/w1", 1, "65/3"));
  ASSERT_TRUE(FramesUntil(lc, [&] { return s_.ui.live_class.bars_total == 2; }));
  const auto& bars = s_.ui.live_class.bars;
  ASSERT_EQ(bars.size(), 2u);
  int right = 0, named = 0;
  for (const auto& bar : bars) {
    EXPECT_EQ(bar.count, 1);
    if (bar.answer == "160/7") right += bar.right;
    if (bar.answer == "65/3") named += !bar.right && !bar.mistake.empty();
  }
  EXPECT_EQ(right, 1);
  EXPECT_EQ(named, 1) << "65/3 is the named plain-mean mistake";

  // Asked to project before the reveal: nothing is projected.
  s_.ui.live_class.want.toggle_project = true;
  Frame(lc);
  EXPECT_TRUE(s_.ui.live_class.project);
  EXPECT_FALSE(ClassAnswersShown(s_));

  // Vote again after discussion: round 2 reaches the students; round 1 stays a line in the notes.
  s_.ui.live_class.want.new_round = true;
  Frame(lc);
  ASSERT_TRUE(a.ReadUntil("state"));
  EXPECT_EQ(a.state["round"], 2);
  EXPECT_FALSE(s_.ui.live_class.project) << "a new vote hides the last one's distribution";
  b.Send(Answer("N50/w1", 2, "160/7"));
  ASSERT_TRUE(FramesUntil(lc, [&] { return s_.ui.live_class.bars_total == 1; }));
  ASSERT_FALSE(s_.ui.live_class.histogram.empty());
  EXPECT_EQ(s_.ui.live_class.histogram.front(), "Round 1: 2 answers, 1 right");

  // Close the vote: a later answer is refused.
  s_.ui.live_class.want.toggle_vote = true;
  Frame(lc);
  ASSERT_TRUE(a.ReadUntil("state"));
  EXPECT_EQ(a.state["question_open"], false);
  a.Send(Answer("N50/w1", 2, "22.86"));
  ASSERT_TRUE(a.ReadUntil("refused"));

  // Revealed and asked: projected.
  Reveal(s_);
  s_.ui.live_class.want.toggle_project = true;
  Frame(lc);
  EXPECT_TRUE(ClassAnswersShown(s_));

  // Export: the results' CSV and JSON in the export folder, anonymous.
  s_.ui.live_class.want.export_results = true;
  Frame(lc);
  int csv = 0, js = 0;
  for (const auto& f : fs::directory_iterator(dir_ / "export")) {
    std::ifstream in(f.path());
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    if (f.path().extension() == ".csv") csv += text.find("N50/w1,1,160/7") != std::string::npos;
    if (f.path().extension() == ".json") js += text.find(token_a) == std::string::npos;
  }
  EXPECT_EQ(csv, 1);
  EXPECT_EQ(js, 1) << "the JSON names no token";

  // End the class (the notes window asks for a second click first): the students are told, the state file goes.
  s_.ui.live_class.want.end_class = true;
  Frame(lc);
  EXPECT_FALSE(lc.live());
  EXPECT_FALSE(s_.ui.live_class.live);
  EXPECT_TRUE(a.ReadUntil("ended"));
  EXPECT_FALSE(fs::exists(StateFile()));
}

TEST_F(LiveClassTest, AClassResumesAfterTheAppStopsWithoutEndingIt) {
  std::string code, token;
  {
    LiveClass lc;
    ASSERT_EQ(lc.Start("127.0.0.1", s_, StateFile()), "");
    Frame(lc);
    code = s_.ui.live_class.code;
    Student a(s_.ui.live_class.url);
    token = a.Join(code)["token"];
    s_.ui.live_class.want.toggle_lock = true;
    a.Send(Answer("N50/w1", 1, "65/3"));
    ASSERT_TRUE(FramesUntil(lc, [&] { return s_.ui.live_class.bars_total == 1; }));
    Reveal(s_);
    Frame(lc);
  }   // the app goes away mid-class: no EndClass
  ASSERT_TRUE(fs::exists(StateFile()));
  // The app starts again wherever its command line says (here N50/w3): the class's place wins.
  s_.ui.live_class = {};
  ASSERT_TRUE(GoToStepId(s_, "N50/w3"));
  LiveClass again;
  std::string warning;
  ASSERT_EQ(again.Start("127.0.0.1", s_, StateFile(), &warning), "");
  EXPECT_EQ(warning, "");
  EXPECT_TRUE(s_.ui.live_class.resumed);
  EXPECT_EQ(s_.ui.live_class.code, code);
  ASSERT_NE(s_.CurrentStep(), nullptr);
  EXPECT_EQ(s_.CurrentStep()->id, "N50/w1") << "back at the class's step";
  EXPECT_FALSE(s_.OnTitleCard());
  EXPECT_TRUE(s_.ui.revealed) << "and its reveal";
  Frame(again);
  EXPECT_TRUE(s_.ui.live_class.pacing_lock) << "the controls resume too";
  EXPECT_EQ(s_.ui.live_class.bars_total, 1) << "the answers so far";
  EXPECT_EQ(s_.ui.live_class.students, 1);
  Student a(s_.ui.live_class.url);
  const json welcome = a.Join(code, token);
  EXPECT_EQ(welcome["token"], token) << "the same student rejoins";
  EXPECT_EQ(s_.ui.live_class.students, 1);
  again.Stop(s_);
  EXPECT_FALSE(fs::exists(StateFile()));
}

TEST_F(LiveClassTest, AStateFileThatIsNotOneIsMovedAsideAndANewClassStarts) {
  std::ofstream(StateFile()) << "{\"schema\": \"blockwise-class-state\", \"schema_version\": 1, \"code\": 12";
  LiveClass lc;
  std::string warning;
  ASSERT_EQ(lc.Start("127.0.0.1", s_, StateFile(), &warning), "");
  EXPECT_NE(warning.find(StateFile() + ".bad"), std::string::npos) << warning;
  EXPECT_FALSE(s_.ui.live_class.resumed);
  EXPECT_TRUE(fs::exists(StateFile() + ".bad"));
  lc.Stop(s_);
}

// Issue 31: --class-state given the open lesson renamed the lesson to .bad and wrote class state in
// its place. A file that is not a class state is refused and left exactly as it was.
TEST_F(LiveClassTest, AFileThatIsNotAClassStateIsLeftAloneAndNoClassStarts) {
  const std::string lesson = "{\"schema_version\": 1, \"kind\": \"lesson\", \"steps\": []}\n";
  std::ofstream(StateFile()) << lesson;
  LiveClass lc;
  std::string warning;
  const std::string err = lc.Start("127.0.0.1", s_, StateFile(), &warning);
  EXPECT_NE(err.find("not a class state file"), std::string::npos) << err;
  EXPECT_FALSE(s_.ui.live_class.live);
  EXPECT_FALSE(fs::exists(StateFile() + ".bad"));
  std::ifstream in(StateFile());
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), lesson);
  lc.Stop(s_);
}

}  // namespace
}  // namespace bw::app
