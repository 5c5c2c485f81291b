// The rules of a live class; see class_room.h.
// [SECTION] Helpers: codes, tokens, normalised answers
// [SECTION] Teacher
// [SECTION] Student messages
// [SECTION] Reading and results
// (The state file: class_room_state.cpp.)
#include "classroom/class_room.h"

#include <algorithm>
#include <random>
#include <sstream>
#include <stdexcept>
#include <variant>

#include <nlohmann/json.hpp>

#include "view/exercise.h"
#include "engine/exact.h"

namespace bw::classroom {

namespace {

using nlohmann::json;

// [SECTION] Helpers: codes, tokens, normalised answers


bool Digits(const std::string& s) {
  return !s.empty() && s.size() <= 18 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string StripZeros(const std::string& digits) {
  const auto k = digits.find_first_not_of('0');
  return k == std::string::npos ? "0" : digits.substr(k);
}

}  // namespace

std::string NormaliseNumberAnswer(const std::string& typed) {
  std::string s = view::NormaliseTypedNumber(typed);
  std::string sign;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    if (s[0] == '-') sign = "-";
    s.erase(0, 1);
  }
  if (const auto slash = s.find('/'); slash != std::string::npos) {
    const std::string a = s.substr(0, slash), b = s.substr(slash + 1);
    if (!Digits(a) || !Digits(b) || StripZeros(b) == "0") return "";
    engine::Rational q(std::stoll(a), std::stoll(b));  // canonical: lowest terms
    if (q == 0) return "0";
    const auto num = engine::Numerator(q), den = engine::Denominator(q);
    return sign + num.str() + (den == 1 ? "" : "/" + den.str());
  }
  if (const auto comma = s.find(','); comma != std::string::npos && s.find('.') == std::string::npos &&
                                      s.find(',', comma + 1) == std::string::npos)
    s[comma] = '.';
  const auto dot = s.find('.');
  const std::string whole = s.substr(0, dot), frac = dot == std::string::npos ? "" : s.substr(dot + 1);
  if (whole.empty() && frac.empty()) return "";
  if (!whole.empty() && !Digits(whole)) return "";
  if (dot != std::string::npos && !Digits(frac)) return "";
  std::string out = StripZeros(whole.empty() ? "0" : whole) + (dot == std::string::npos ? "" : "." + frac);
  if (out.find_first_not_of("0.") == std::string::npos) return out;  // −0 is 0
  return sign + out;
}

const char* VerdictName(view::CheckVerdict v) {
  switch (v) {
    case view::CheckVerdict::kRight: return "right";
    case view::CheckVerdict::kWrong: return "wrong";
    case view::CheckVerdict::kUnreadable: return "unreadable";
    case view::CheckVerdict::kTooCoarse: return "too_coarse";
  }
  return "wrong";
}

bool ValidJoinCode(const std::string& code) {
  if (code.size() != kJoinCodeLength) return false;
  for (const char c : code)
    if (kJoinCodeAlphabet.find(c) == std::string_view::npos) return false;
  return true;
}

std::string RandomJoinCode() {
  std::random_device rd;
  std::uniform_int_distribution<size_t> pick(0, kJoinCodeAlphabet.size() - 1);
  std::string code;
  for (size_t i = 0; i < kJoinCodeLength; ++i) code += kJoinCodeAlphabet[pick(rd)];
  return code;
}

std::string ClassRoom::NewToken() const {
  std::random_device rd;  // the kernel's generator (getrandom): tokens must not be guessable
  static const char* hex = "0123456789abcdef";
  for (;;) {
    std::string t;
    for (size_t i = 0; i < kTokenHexDigits / 8; ++i) {
      std::uint32_t r = rd();
      for (int k = 0; k < 8; ++k, r >>= 4) t += hex[r & 0xF];
    }
    if (!students_.count(t)) return t;
  }
}

ClassRoom::ClassRoom(Options options, std::string code) : options_(options), code_(std::move(code)) {
  if (options_.max_students < 1) throw std::invalid_argument("a class needs room for at least one student");
  if (code_.empty()) code_ = RandomJoinCode();
  if (!ValidJoinCode(code_)) throw std::invalid_argument("a join code is 6 characters of " + std::string(kJoinCodeAlphabet));
}

// [SECTION] Teacher

void ClassRoom::SetTeacherState(const TeacherState& state, std::optional<app::StepQuestion> question) {
  teacher_ = state;
  teacher_.round = std::clamp(teacher_.round, 1, kMaxVoteRound);
  teacher_.event = std::max(teacher_.event, 0);
  question_ = std::move(question);
  if (question_ && question_->step_id != teacher_.step) question_.reset();  // a question belongs to its step
  if (question_) {
    auto& info = questions_[question_->step_id];
    info.choices = question_->choices;
    info.mistakes.clear();
    for (const auto& m : question_->mistakes) info.mistakes.push_back(m.name);
  }
  if (teacher_.pacing_lock)
    for (auto& [token, s] : students_) s.following = true;
  ++seq_;
  dirty_ = true;
}

bool ClassRoom::QuestionOpen() const {
  return !ended_ && question_ && question_->step_id == teacher_.step && !teacher_.revealed && !teacher_.voting_closed;
}

// [SECTION] Student messages

Reply ClassRoom::HandleBadFrame(ClientId client, const std::string& why) {
  Reply r;
  r.to_client.push_back(RefusedMessage(why));
  r.close = true;
  r.log = "closed: " + why;
  Disconnect(client);
  return r;
}

Reply ClassRoom::HandleMessage(ClientId client, std::string_view text, Clock::time_point now) {
  Connection& c = connections_[client];
  // The token bucket: kRateBurst at once, kRatePerSecond after that.
  if (!c.started) {
    c.started = true;
    c.bucket = options_.rate_burst;
  } else {
    const double dt = std::chrono::duration<double>(now - c.last).count();
    c.bucket = std::min(options_.rate_burst, c.bucket + std::max(0.0, dt) * options_.rate_per_second);
  }
  c.last = now;
  if (c.bucket < 1) {
    return HandleBadFrame(client, "more than " + std::to_string(static_cast<int>(options_.rate_burst)) +
                                      " messages at once (the limit is " +
                                      std::to_string(static_cast<int>(options_.rate_per_second)) + " a second)");
  }
  c.bucket -= 1;

  StudentMessage m;
  try {
    m = ParseStudentMessage(text);
  } catch (const data::LoadError& e) {
    return HandleBadFrame(client, e.what());
  }
  if (ended_) {
    Reply r;
    r.to_client.push_back(EndedMessage());
    r.close = true;
    return r;
  }
  if (const auto* j = std::get_if<JoinMessage>(&m)) return Join(client, c, *j);
  Reply r;
  if (!c.token) {
    r.to_client.push_back(RefusedMessage("join the class first"));
    return r;
  }
  Student& s = students_.at(*c.token);
  if (const auto* a = std::get_if<AnswerMessage>(&m)) return Answer(c, *a);
  if (std::holds_alternative<FollowMessage>(m)) {
    if (!s.following) dirty_ = true;
    s.following = true;
    r.to_client.push_back(CurrentStateMessage());  // back at the teacher's position at once
    return r;
  }
  // Detach.
  if (teacher_.pacing_lock) {
    r.to_client.push_back(RefusedMessage("the teacher has locked pacing: the class follows the teacher"));
    return r;
  }
  if (s.following) dirty_ = true;
  s.following = false;
  return r;
}

Reply ClassRoom::Join(ClientId client, Connection& c, const JoinMessage& m) {
  Reply r;
  if (c.token) {
    if (m.token == c.token) {  // a repeat: say it again
      r.to_client.push_back(WelcomeMessage(*c.token, students_.at(*c.token).following));
      r.to_client.push_back(CurrentStateMessage());
    } else {
      r.to_client.push_back(RefusedMessage("this connection has joined already"));
    }
    return r;
  }
  if (m.code != code_) {
    ++c.wrong_codes;
    r.to_client.push_back(RefusedMessage("wrong join code"));
    if (c.wrong_codes >= kMaxWrongCodes) {
      r.close = true;
      r.log = "closed: " + std::to_string(kMaxWrongCodes) + " wrong join codes";
      Disconnect(client);
    }
    return r;
  }
  std::string token;
  if (m.token) {
    if (const auto it = students_.find(*m.token); it != students_.end()) {
      if (it->second.removed) {
        r.to_client.push_back(RefusedMessage("the teacher removed this device from the class"));
        r.close = true;
        r.log = "refused a removed device's rejoin";
        Disconnect(client);
        return r;
      }
      token = *m.token;  // rejoin: the same student, follow state and answers
    }
  }
  if (token.empty()) {
    if (students() >= options_.max_students) {
      r.to_client.push_back(ClassFullMessage());
      r.close = true;
      r.log = "class full (" + std::to_string(options_.max_students) + " students): a join refused";
      Disconnect(client);
      return r;
    }
    token = NewToken();
    students_[token] = Student{};
    students_[token].joined = ++joins_;
  }
  Student& s = students_.at(token);
  if (m.nickname) s.nickname = *m.nickname;
  if (s.client && *s.client != client) {
    r.superseded.push_back(*s.client);
    connections_.erase(*s.client);
  }
  s.client = client;
  c.token = token;
  dirty_ = true;
  r.to_client.push_back(WelcomeMessage(token, s.following));
  r.to_client.push_back(CurrentStateMessage());
  return r;
}

Reply ClassRoom::Answer(Connection& c, const AnswerMessage& m) {
  Reply r;
  auto refuse = [&r](const std::string& why) {
    r.to_client.push_back(RefusedMessage(why));
    return r;
  };
  if (m.question != teacher_.step) return refuse("the question " + m.question + " is not open (the class is at " + (teacher_.step.empty() ? std::string("no step") : teacher_.step) + ")");
  if (!question_) return refuse("step " + m.question + " asks no question");
  if (teacher_.revealed) return refuse("the answer to " + m.question + " has been revealed: the vote is over");
  if (teacher_.voting_closed) return refuse("the teacher has closed the vote on " + m.question);
  if (m.round != teacher_.round)
    return refuse("round " + std::to_string(m.round) + " is not open (the vote on " + m.question + " is round " +
                  std::to_string(teacher_.round) + ")");
  Recorded rec;
  if (question_->number) {
    const auto a = app::CheckNumberAnswer(*question_, m.answer);
    if (a.verdict == view::CheckVerdict::kUnreadable) return refuse("not a number, a fraction or a decimal: " + m.answer);
    rec = {NormaliseNumberAnswer(m.answer), a.verdict, a.mistake};
  } else {
    const std::string n = NormaliseNumberAnswer(m.answer);
    const bool whole = !n.empty() && n.find_first_not_of("0123456789") == std::string::npos && n.size() <= 2;
    const int choice = whole ? std::stoi(n) : 0;
    const auto a = app::CheckChoiceAnswer(*question_, choice);
    if (a.verdict == view::CheckVerdict::kUnreadable)
      return refuse("a choice is a number from 1 to " + std::to_string(question_->choices));
    rec = {std::to_string(choice), a.verdict, -1};
  }
  answers_[{m.question, m.round}][*c.token] = rec;  // one per token: a later answer replaces it
  dirty_ = true;
  return r;
}

void ClassRoom::Disconnect(ClientId client) {
  const auto it = connections_.find(client);
  if (it == connections_.end()) return;
  if (it->second.token)
    if (auto s = students_.find(*it->second.token); s != students_.end() && s->second.client == client) s->second.client.reset();
  connections_.erase(it);
}

std::optional<ClientId> ClassRoom::RemoveDevice(const std::string& token) {
  const auto it = students_.find(token);
  if (it == students_.end() || it->second.removed) return std::nullopt;
  it->second.removed = true;
  dirty_ = true;
  const auto client = it->second.client;
  if (client) Disconnect(*client);
  return client;
}

std::vector<ClientId> ClassRoom::End() {
  ended_ = true;
  dirty_ = true;
  std::vector<ClientId> out;
  for (const auto& [id, c] : connections_) out.push_back(id);
  connections_.clear();
  for (auto& [token, s] : students_) s.client.reset();
  return out;
}

// [SECTION] Reading and results

int ClassRoom::students() const {
  return static_cast<int>(std::count_if(students_.begin(), students_.end(), [](const auto& kv) { return !kv.second.removed; }));
}
int ClassRoom::connected() const {
  return static_cast<int>(std::count_if(students_.begin(), students_.end(),
                                        [](const auto& kv) { return !kv.second.removed && kv.second.client; }));
}
int ClassRoom::following() const {
  return static_cast<int>(std::count_if(students_.begin(), students_.end(),
                                        [](const auto& kv) { return !kv.second.removed && kv.second.following; }));
}
std::vector<std::string> ClassRoom::Tokens() const {
  std::vector<std::string> out;
  for (const auto& [t, s] : students_)
    if (!s.removed) out.push_back(t);
  return out;
}
std::vector<ClassRoom::RosterEntry> ClassRoom::Roster() const {
  std::vector<std::pair<std::uint64_t, RosterEntry>> by_join;
  for (const auto& [t, s] : students_)
    if (!s.removed) by_join.push_back({s.joined, {t, s.nickname, s.following, s.client.has_value()}});
  std::sort(by_join.begin(), by_join.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<RosterEntry> out;
  for (auto& [order, e] : by_join) out.push_back(std::move(e));
  return out;
}
std::optional<ClientId> ClassRoom::ClientOf(const std::string& token) const {
  const auto it = students_.find(token);
  return it == students_.end() ? std::nullopt : it->second.client;
}
std::optional<std::string> ClassRoom::TokenOf(ClientId client) const {
  const auto it = connections_.find(client);
  return it == connections_.end() ? std::nullopt : it->second.token;
}
bool ClassRoom::Following(const std::string& token) const {
  const auto it = students_.find(token);
  return it != students_.end() && it->second.following;
}

std::optional<Histogram> ClassRoom::HistogramOf(const std::string& question, int round) const {
  const auto info = questions_.find(question);
  if (info == questions_.end()) return std::nullopt;  // never asked
  Histogram h;
  h.question = question;
  h.round = round;
  for (const auto& name : info->second.mistakes) h.mistakes.push_back({name, 0});
  const auto it = answers_.find({question, round});
  if (it == answers_.end()) return h;
  std::map<std::string, AnswerTally> by_answer;
  for (const auto& [token, a] : it->second) {
    ++h.total;
    if (a.verdict == view::CheckVerdict::kRight) ++h.right;
    else if (a.verdict == view::CheckVerdict::kTooCoarse) ++h.too_coarse;
    else ++h.wrong;
    if (a.mistake >= 0 && a.mistake < static_cast<int>(h.mistakes.size())) ++h.mistakes[static_cast<size_t>(a.mistake)].count;
    auto& t = by_answer[a.answer];
    t.answer = a.answer;
    t.verdict = a.verdict;
    t.mistake = a.mistake;
    ++t.count;
  }
  for (auto& [k, t] : by_answer) h.answers.push_back(t);
  std::stable_sort(h.answers.begin(), h.answers.end(), [](const AnswerTally& a, const AnswerTally& b) { return a.count > b.count; });
  return h;
}

std::vector<Histogram> ClassRoom::Histograms() const {
  std::vector<Histogram> out;
  for (const auto& [key, answers] : answers_)
    if (auto h = HistogramOf(key.first, key.second)) out.push_back(std::move(*h));
  return out;
}

namespace {

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

json HistogramJson(const Histogram& h) {
  json answers = json::array(), mistakes = json::array();
  for (const auto& a : h.answers) {
    json j{{"answer", a.answer}, {"count", a.count}, {"verdict", VerdictName(a.verdict)}};
    if (a.mistake >= 0) j["mistake"] = h.mistakes[static_cast<size_t>(a.mistake)].name;
    answers.push_back(j);
  }
  for (const auto& m : h.mistakes) mistakes.push_back({{"name", m.name}, {"count", m.count}});
  return {{"question", h.question}, {"round", h.round}, {"total", h.total}, {"right", h.right},
          {"wrong", h.wrong}, {"too_coarse", h.too_coarse}, {"answers", answers}, {"mistakes", mistakes}};
}

}  // namespace

std::string ClassRoom::ExportCsv() const {
  std::string out = "question,round,answer,verdict,mistake,count\n";
  for (const auto& h : Histograms())
    for (const auto& a : h.answers)
      out += CsvField(h.question) + "," + std::to_string(h.round) + "," + CsvField(a.answer) + "," + VerdictName(a.verdict) + "," +
             CsvField(a.mistake >= 0 ? h.mistakes[static_cast<size_t>(a.mistake)].name : "") + "," + std::to_string(a.count) + "\n";
  return out;
}

std::string ClassRoom::ExportJson() const {
  json qs = json::array();
  for (const auto& h : Histograms()) qs.push_back(HistogramJson(h));
  return json{{"code", code_}, {"students", students()}, {"questions", qs}}.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace bw::classroom
