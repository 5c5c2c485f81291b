// ClassRoom's state file (see class_room.h: StateJson, SaveState, FromStateJson, Resume): the class
// written after every change, so that a teacher's restarted app resumes it — its code, the teacher's
// position, the students by token, the questions asked and every answer recorded.
#include <nlohmann/json.hpp>

#include "classroom/class_room.h"
#include "data/atomic_write.h"
#include "data/json_file.h"

namespace bw::classroom {

namespace {

using nlohmann::json;

json TeacherJson(const TeacherState& t) {
  return {{"course", t.course}, {"lesson", t.lesson}, {"step", t.step}, {"card", t.card}, {"position", t.position},
          {"event", t.event}, {"revealed", t.revealed}, {"pacing_lock", t.pacing_lock},
          {"round", t.round}, {"voting_closed", t.voting_closed}};
}

view::CheckVerdict VerdictFrom(const data::JsonReader& r, const json& v, const std::string& path) {
  const std::string s = r.String(v, path);
  for (const auto k : {view::CheckVerdict::kRight, view::CheckVerdict::kWrong, view::CheckVerdict::kTooCoarse})
    if (s == VerdictName(k)) return k;
  r.Fail(path, "expected \"right\", \"wrong\" or \"too_coarse\"");
}

bool Bool(const data::JsonReader& r, const json& v, const std::string& path) {
  if (!v.is_boolean()) r.Fail(path, "expected true or false");
  return v.get<bool>();
}

}  // namespace

std::string ClassRoom::StateJson() const {
  json students = json::array(), answers = json::array(), questions = json::array();
  for (const auto& [token, s] : students_) {
    json j{{"token", token}, {"following", s.following}, {"removed", s.removed}};
    if (!s.nickname.empty()) j["nickname"] = s.nickname;
    students.push_back(j);
  }
  for (const auto& [key, by_token] : answers_)
    for (const auto& [token, a] : by_token) {
      json j{{"question", key.first}, {"round", key.second}, {"token", token}, {"answer", a.answer}, {"verdict", VerdictName(a.verdict)}};
      if (a.mistake >= 0) j["mistake"] = a.mistake;
      answers.push_back(j);
    }
  for (const auto& [id, q] : questions_) questions.push_back({{"id", id}, {"choices", q.choices}, {"mistakes", q.mistakes}});
  return json{{"schema", "blockwise-class-state"}, {"schema_version", kStateFileVersion}, {"code", code_},
              {"seq", seq_}, {"ended", ended_}, {"teacher", TeacherJson(teacher_)}, {"students", students},
              {"questions", questions}, {"answers", answers}}
             .dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

void ClassRoom::SaveState(const std::filesystem::path& path) {
  data::WriteFileAtomically(path, StateJson());
  dirty_ = false;
}

ClassRoom ClassRoom::FromStateJson(std::string_view text, const std::string& file, Options options) {
  using data::JsonPath;
  const data::JsonReader r(file);
  const json doc = data::ParseJsonText(std::string(text), file);
  r.ExpectObject(doc, "");
  r.Fields(doc, "", {"schema", "schema_version", "code", "seq", "ended", "teacher", "students", "questions", "answers"});
  if (r.String(r.Require(doc, "", "schema"), "/schema") != "blockwise-class-state") r.Fail("/schema", "not a class state file");
  r.SchemaVersion(doc, kStateFileVersion);
  const std::string code = r.String(r.Require(doc, "", "code"), "/code");
  if (!ValidJoinCode(code)) r.Fail("/code", "not a join code");
  ClassRoom room(options, code);
  room.seq_ = static_cast<std::uint64_t>(r.Integer(r.Require(doc, "", "seq"), "/seq", 1, std::int64_t{1} << 53));
  room.ended_ = Bool(r, r.Require(doc, "", "ended"), "/ended");

  const json& t = r.Require(doc, "", "teacher");
  r.ExpectObject(t, "/teacher");
  r.Fields(t, "/teacher", {"course", "lesson", "step", "card", "position", "event", "revealed", "pacing_lock", "round", "voting_closed"});
  TeacherState& ts = room.teacher_;
  ts.course = r.String(r.Require(t, "/teacher", "course"), "/teacher/course");
  ts.lesson = r.String(r.Require(t, "/teacher", "lesson"), "/teacher/lesson");
  ts.step = r.String(r.Require(t, "/teacher", "step"), "/teacher/step");
  if (t.contains("card")) ts.card = r.String(t.at("card"), "/teacher/card");
  ts.position = r.String(r.Require(t, "/teacher", "position"), "/teacher/position");
  ts.event = static_cast<int>(r.Integer(r.Require(t, "/teacher", "event"), "/teacher/event", 0, 1 << 30));
  ts.revealed = Bool(r, r.Require(t, "/teacher", "revealed"), "/teacher/revealed");
  ts.pacing_lock = Bool(r, r.Require(t, "/teacher", "pacing_lock"), "/teacher/pacing_lock");
  ts.round = static_cast<int>(r.Integer(r.Require(t, "/teacher", "round"), "/teacher/round", 1, kMaxVoteRound));
  ts.voting_closed = Bool(r, r.Require(t, "/teacher", "voting_closed"), "/teacher/voting_closed");

  const json& students = r.Require(doc, "", "students");
  r.ExpectArray(students, "/students");
  for (size_t i = 0; i < students.size(); ++i) {
    const std::string p = JsonPath("/students", i);
    const json& s = students[i];
    r.ExpectObject(s, p);
    r.Fields(s, p, {"token", "following", "removed", "nickname"});
    const std::string token = r.String(r.Require(s, p, "token"), JsonPath(p, "token"));
    if (token.size() != kTokenHexDigits || token.find_first_not_of("0123456789abcdef") != std::string::npos)
      r.Fail(JsonPath(p, "token"), "not a token");
    if (room.students_.count(token)) r.Fail(JsonPath(p, "token"), "a second student with this token");
    Student st;
    st.following = Bool(r, r.Require(s, p, "following"), JsonPath(p, "following"));
    st.removed = Bool(r, r.Require(s, p, "removed"), JsonPath(p, "removed"));
    if (s.contains("nickname")) st.nickname = r.String(s["nickname"], JsonPath(p, "nickname"));
    st.joined = ++room.joins_;
    room.students_[token] = st;
  }
  const json& questions = r.Require(doc, "", "questions");
  r.ExpectArray(questions, "/questions");
  for (size_t i = 0; i < questions.size(); ++i) {
    const std::string p = JsonPath("/questions", i);
    const json& q = questions[i];
    r.ExpectObject(q, p);
    r.Fields(q, p, {"id", "choices", "mistakes"});
    QuestionInfo info;
    const std::string id = r.String(r.Require(q, p, "id"), JsonPath(p, "id"));
    info.choices = static_cast<int>(r.Integer(r.Require(q, p, "choices"), JsonPath(p, "choices"), 0, 8));
    const json& ms = r.Require(q, p, "mistakes");
    r.ExpectArray(ms, JsonPath(p, "mistakes"));
    for (size_t k = 0; k < ms.size(); ++k) info.mistakes.push_back(r.String(ms[k], JsonPath(JsonPath(p, "mistakes"), k)));
    room.questions_[id] = std::move(info);
  }
  const json& answers = r.Require(doc, "", "answers");
  r.ExpectArray(answers, "/answers");
  for (size_t i = 0; i < answers.size(); ++i) {
    const std::string p = JsonPath("/answers", i);
    const json& a = answers[i];
    r.ExpectObject(a, p);
    r.Fields(a, p, {"question", "round", "token", "answer", "verdict", "mistake"});
    const std::string q = r.String(r.Require(a, p, "question"), JsonPath(p, "question"));
    const auto qi = room.questions_.find(q);
    if (qi == room.questions_.end()) r.Fail(JsonPath(p, "question"), "not one of the file's questions");
    const int round = static_cast<int>(r.Integer(r.Require(a, p, "round"), JsonPath(p, "round"), 1, kMaxVoteRound));
    const std::string token = r.String(r.Require(a, p, "token"), JsonPath(p, "token"));
    if (!room.students_.count(token)) r.Fail(JsonPath(p, "token"), "not one of the file's students");
    Recorded rec;
    rec.answer = r.String(r.Require(a, p, "answer"), JsonPath(p, "answer"));
    rec.verdict = VerdictFrom(r, r.Require(a, p, "verdict"), JsonPath(p, "verdict"));
    if (a.contains("mistake"))
      rec.mistake = static_cast<int>(r.Integer(a["mistake"], JsonPath(p, "mistake"), 0,
                                               static_cast<std::int64_t>(qi->second.mistakes.size()) - 1));
    auto& slot = room.answers_[{q, round}];
    if (slot.count(token)) r.Fail(p, "a second answer from one token to one question and round");
    slot[token] = rec;
  }
  room.dirty_ = false;
  return room;
}

ClassRoom ClassRoom::Resume(const std::filesystem::path& path, Options options) {
  const json doc = data::ReadJsonFile(path);  // size limit, one-line errors
  return FromStateJson(doc.dump(), path.string(), options);
}

}  // namespace bw::classroom
