// The class protocol v1: the student-message gate and the server's messages; see class_message.h.
// Each rule here has its twin in schemas/class-message-v1.schema.json ($defs/student_message);
// tests/classroom/messages.json holds the cases both must decide alike.
#include "classroom/class_message.h"

#include <nlohmann/json.hpp>

#include "data/json_file.h"

namespace bw::classroom {

namespace {

using data::JsonPath;
using data::JsonReader;
using nlohmann::json;

// A control character (U+0000–U+001F, U+007F): never in a nickname, a question id or an answer
// (the teacher's log and the notes window print them on one line).
bool HasControl(std::string_view s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return true;
  return false;
}

std::string Text(const JsonReader& r, const json& obj, const std::string& path, const char* key, std::size_t max_chars) {
  const std::string p = JsonPath(path, key);
  const std::string s = r.String(obj.at(key), p);
  const std::size_t n = CodePoints(s);
  if (n == 0) r.Fail(p, "is empty");
  if (n > max_chars) r.Fail(p, "is " + std::to_string(n) + " characters; the limit is " + std::to_string(max_chars));
  if (HasControl(s)) r.Fail(p, "holds a control character");
  return s;
}

}  // namespace

std::size_t CodePoints(std::string_view s) {
  std::size_t n = 0;
  for (const char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

StudentMessage ParseStudentMessage(std::string_view text) {
  const JsonReader r(kMessageFile);
  if (text.size() > kMaxMessageBytes)
    r.Fail("", "message is " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(kMaxMessageBytes));
  const json doc = data::ParseJsonText(std::string(text), kMessageFile);
  r.ExpectObject(doc, "");
  const auto version = r.Integer(r.Require(doc, "", "v"), "/v", 0, 1000000);
  if (version != kProtocolVersion)
    r.Fail("/v", "this message is protocol version " + std::to_string(version) + "; this class speaks version " +
                     std::to_string(kProtocolVersion));
  const std::string kind = r.String(r.Require(doc, "", "kind"), "/kind");

  if (kind == "join") {
    r.Fields(doc, "", {"v", "kind", "code", "nickname", "token"});
    JoinMessage m;
    m.code = r.String(r.Require(doc, "", "code"), "/code");
    if (m.code.size() != kJoinCodeLength)
      r.Fail("/code", "a join code is " + std::to_string(kJoinCodeLength) + " characters");
    for (char& c : m.code) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      if (kJoinCodeAlphabet.find(c) == std::string_view::npos)
        r.Fail("/code", "a join code has only the characters " + std::string(kJoinCodeAlphabet));
    }
    if (doc.contains("nickname")) m.nickname = Text(r, doc, "", "nickname", kMaxNicknameChars);
    if (doc.contains("token")) {
      const std::string t = r.String(doc.at("token"), "/token");
      bool hex = t.size() == kTokenHexDigits;
      for (const char c : t) hex = hex && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
      if (!hex) r.Fail("/token", "a token is " + std::to_string(kTokenHexDigits) + " lower-case hex digits");
      m.token = t;
    }
    return m;
  }
  if (kind == "answer") {
    r.Fields(doc, "", {"v", "kind", "question", "round", "answer"});
    AnswerMessage m;
    m.question = r.String(r.Require(doc, "", "question"), "/question");
    if (m.question.empty() || m.question.size() > kMaxQuestionIdChars)
      r.Fail("/question", "a question id is 1 to " + std::to_string(kMaxQuestionIdChars) + " characters");
    for (const char c : m.question)
      if (c < '!' || c > '~') r.Fail("/question", "a question id is printable ASCII without spaces (a lesson step id)");
    m.round = static_cast<int>(r.Integer(r.Require(doc, "", "round"), "/round", 1, kMaxVoteRound));
    r.Require(doc, "", "answer");
    m.answer = Text(r, doc, "", "answer", kMaxAnswerChars);
    return m;
  }
  if (kind == "follow" || kind == "detach") {
    r.Fields(doc, "", {"v", "kind"});
    if (kind == "follow") return FollowMessage{};
    return DetachMessage{};
  }
  // "state", "reveal", "step", …: only the teacher changes what the class sees.
  r.Fail("/kind", "a student sends join, answer, follow or detach; \"" + kind.substr(0, 40) + "\" is not one of them");
}

std::string WelcomeMessage(const std::string& token, bool following) {
  return json{{"v", kProtocolVersion}, {"kind", "welcome"}, {"token", token}, {"following", following}}.dump();
}

std::string StateMessage(const TeacherState& s, std::uint64_t seq, bool question_open) {
  json j{{"v", kProtocolVersion}, {"kind", "state"}, {"seq", seq},
         {"course", s.course}, {"lesson", s.lesson}, {"step", s.step}, {"card", s.card}, {"position", s.position},
         {"event", s.event}, {"revealed", s.revealed}, {"pacing_lock", s.pacing_lock},
         {"round", s.round}, {"question_open", question_open}};
  // Lesson and step ids come from the teacher's files; a replacement character keeps the frame UTF-8.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string ClassFullMessage() { return json{{"v", kProtocolVersion}, {"kind", "class_full"}}.dump(); }

std::string RefusedMessage(const std::string& reason) {
  return json{{"v", kProtocolVersion}, {"kind", "refused"}, {"reason", reason.substr(0, 512)}}.dump(
      -1, ' ', false, json::error_handler_t::replace);
}

std::string EndedMessage() { return json{{"v", kProtocolVersion}, {"kind", "ended"}}.dump(); }

namespace {

bool BoolField(const JsonReader& r, const json& doc, const char* key) {
  const json& v = r.Require(doc, "", key);
  if (!v.is_boolean()) r.Fail(JsonPath("", key), "expected true or false");
  return v.get<bool>();
}

std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

ServerMessage ParseServerMessage(std::string_view text) {
  const JsonReader r(kMessageFile);
  if (text.size() > kMaxMessageBytes)
    r.Fail("", "message is " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(kMaxMessageBytes));
  const json doc = data::ParseJsonText(std::string(text), kMessageFile);
  r.ExpectObject(doc, "");
  if (r.Integer(r.Require(doc, "", "v"), "/v", 0, 1000000) != kProtocolVersion)
    r.Fail("/v", "this client speaks protocol version " + std::to_string(kProtocolVersion));
  const std::string kind = r.String(r.Require(doc, "", "kind"), "/kind");
  if (kind == "welcome") {
    r.Fields(doc, "", {"v", "kind", "token", "following"});
    WelcomeReceived m;
    m.token = r.String(r.Require(doc, "", "token"), "/token");
    if (m.token.size() != kTokenHexDigits || m.token.find_first_not_of("0123456789abcdef") != std::string::npos)
      r.Fail("/token", "a token is " + std::to_string(kTokenHexDigits) + " lower-case hex digits");
    m.following = BoolField(r, doc, "following");
    return m;
  }
  if (kind == "state") {
    r.Fields(doc, "", {"v", "kind", "seq", "course", "lesson", "step", "card", "position", "event", "revealed",
                       "pacing_lock", "round", "question_open"});
    StateReceived m;
    m.seq = static_cast<std::uint64_t>(r.Integer(r.Require(doc, "", "seq"), "/seq", 1, std::int64_t{1} << 53));
    TeacherState& t = m.state;
    t.course = r.String(r.Require(doc, "", "course"), "/course");
    t.lesson = r.String(r.Require(doc, "", "lesson"), "/lesson");
    t.step = r.String(r.Require(doc, "", "step"), "/step");
    t.card = r.String(r.Require(doc, "", "card"), "/card");
    if (t.card != "" && t.card != "title" && t.card != "end" && t.card != "library")
      r.Fail("/card", "expected \"\", \"title\", \"end\" or \"library\"");
    t.position = r.String(r.Require(doc, "", "position"), "/position");
    t.event = static_cast<int>(r.Integer(r.Require(doc, "", "event"), "/event", 0, 1 << 30));
    t.revealed = BoolField(r, doc, "revealed");
    t.pacing_lock = BoolField(r, doc, "pacing_lock");
    t.round = static_cast<int>(r.Integer(r.Require(doc, "", "round"), "/round", 1, kMaxVoteRound));
    m.question_open = BoolField(r, doc, "question_open");
    return m;
  }
  if (kind == "class_full" || kind == "ended") {
    r.Fields(doc, "", {"v", "kind"});
    if (kind == "ended") return EndedReceived{};
    return ClassFullReceived{};
  }
  if (kind == "refused") {
    r.Fields(doc, "", {"v", "kind", "reason"});
    return RefusedReceived{r.String(r.Require(doc, "", "reason"), "/reason")};
  }
  r.Fail("/kind", "a server sends welcome, state, class_full, refused or ended; \"" + kind.substr(0, 40) + "\" is not one of them");
}

std::string JoinMessageText(const JoinMessage& m) {
  json j{{"v", kProtocolVersion}, {"kind", "join"}, {"code", m.code}};
  if (m.nickname) j["nickname"] = *m.nickname;
  if (m.token) j["token"] = *m.token;
  return Dump(j);
}

std::string AnswerMessageText(const AnswerMessage& m) {
  return Dump(json{{"v", kProtocolVersion}, {"kind", "answer"}, {"question", m.question}, {"round", m.round}, {"answer", m.answer}});
}

std::string FollowMessageText() { return json{{"v", kProtocolVersion}, {"kind", "follow"}}.dump(); }
std::string DetachMessageText() { return json{{"v", kProtocolVersion}, {"kind", "detach"}}.dump(); }

}  // namespace bw::classroom
