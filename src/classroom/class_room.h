// ClassRoom: the rules of a live class, without a network or a window (issue 30). It holds the
// join code, the students (a random token each), the teacher's state, the answers and their
// histogram, and decides every student message: what to send back, whether to close the
// connection, what to tell the teacher's log. It is not thread-safe: the class server
// (src/server/class_server.h) calls it under one mutex, the tests call it directly.
// Rules (each tested in tests/classroom/class_room_test.cpp):
//   - a student's messages can only join, answer, follow or detach (ParseStudentMessage): nothing
//     a student sends changes the teacher's state;
//   - join needs the class's code; a connection that sends kMaxWrongCodes wrong codes is closed;
//     at Options::max_students students the class is full ("class_full", then closed);
//   - a token names one student: rejoining with it (a new connection after a Wi-Fi drop) restores
//     that student's follow state and answers, and closes the connection it had before;
//   - an answer counts only for the open question: the teacher's current step, its question not
//     revealed, the vote not closed, the round the teacher opened; else it is refused with why;
//   - one answer per token per question per round: a later answer from the same token REPLACES the
//     earlier one (a student may change their mind until the vote closes; a repeat is idempotent);
//   - while the teacher locks pacing, detach is refused and every student is back to following;
//   - each connection has a token bucket (kRateBurst messages, refilled at kRatePerSecond): a
//     message over it closes the connection.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "classroom/class_message.h"
#include "session/answer_check.h"

namespace bw::classroom {

using Clock = std::chrono::steady_clock;
using ClientId = std::uint64_t;   // one network connection (the server numbers them)

inline constexpr int kDefaultMaxStudents = 400;   // a lecture hall; the benchmark drives 300
inline constexpr double kRateBurst = 20;          // messages a connection may send at once
inline constexpr double kRatePerSecond = 5;       // messages per second it may keep sending
inline constexpr int kMaxWrongCodes = 5;          // wrong join codes per connection before it is closed
inline constexpr int kStateFileVersion = 1;

// What ClassRoom::HandleMessage decided.
struct Reply {
  std::vector<std::string> to_client;   // frames for the sending connection, in order
  bool close = false;                   // close it after they are sent
  std::string log;                      // a line for the teacher's log ("" = nothing to say)
  std::vector<ClientId> superseded;     // other connections to close (the token rejoined elsewhere)
};

// One answer as counted: its normalised text (reduced fractions, ASCII digits: "320/14" and
// "３２０／１４" count as "160/7"; a decimal keeps the digits typed; a choice its number) and verdict.
struct AnswerTally {
  std::string answer;
  int count = 0;
  view::CheckVerdict verdict = view::CheckVerdict::kWrong;
  int mistake = -1;                     // index into Histogram::mistakes, −1 = none
  bool operator==(const AnswerTally&) const = default;
};

struct Histogram {
  std::string question;                 // step id
  int round = 1;
  int total = 0, right = 0, wrong = 0, too_coarse = 0;
  std::vector<AnswerTally> answers;     // most counted first, then by answer
  struct Mistake {
    std::string name;                   // the check's quantity name ("average")
    int count = 0;
    bool operator==(const Mistake&) const = default;
  };
  std::vector<Mistake> mistakes;        // the check's named mistakes, in its order
  bool operator==(const Histogram&) const = default;
};

struct RoomOptions {
  int max_students = kDefaultMaxStudents;   // students (tokens) at once; one more gets "class_full"
  double rate_burst = kRateBurst;           // messages
  double rate_per_second = kRatePerSecond;  // messages per second
};

class ClassRoom {
 public:
  using Options = RoomOptions;
  // A new class with a random join code (or `code`, which must be kJoinCodeLength characters of
  // kJoinCodeAlphabet: tests). Throws std::invalid_argument on a bad code or max_students < 1.
  explicit ClassRoom(Options options = {}, std::string code = "");

  const std::string& code() const { return code_; }
  const Options& options() const { return options_; }

  // [Teacher] What the teacher's screen shows now, and the question its step asks (nullopt: none).
  // Bumps the state's seq. Turning pacing_lock on puts every student back to following.
  // round is clamped to 1..kMaxVoteRound.
  void SetTeacherState(const TeacherState& state, std::optional<app::StepQuestion> question);
  const TeacherState& teacher_state() const { return teacher_; }
  std::uint64_t state_seq() const { return seq_; }
  bool QuestionOpen() const;
  std::string CurrentStateMessage() const { return StateMessage(teacher_, seq_, QuestionOpen()); }

  // [Students] One text frame from connection `client`, received at `now`.
  Reply HandleMessage(ClientId client, std::string_view text, Clock::time_point now);
  // A frame that is not text (binary) or too large to read: refused, closed, logged.
  Reply HandleBadFrame(ClientId client, const std::string& why);
  void Disconnect(ClientId client);

  // [Teacher] Removes the student with this token: their connection (returned, to close) and any
  // rejoin with the token are refused. Their answers so far stay counted.
  std::optional<ClientId> RemoveDevice(const std::string& token);
  // Ends the class: every later message gets "ended". Returns the connections to close.
  std::vector<ClientId> End();
  bool ended() const { return ended_; }

  // [Reading]
  int students() const;                          // joined, not removed
  int connected() const;                         // students with a live connection
  int following() const;                         // students following the teacher
  std::vector<std::string> Tokens() const;       // of the students, not removed
  // The students, not removed, in the order they first joined (the teacher's notes list them to
  // remove a device: the token's first digits and the nickname, never shown to the class).
  struct RosterEntry {
    std::string token, nickname;
    bool following = true, connected = false;
    bool operator==(const RosterEntry&) const = default;
  };
  std::vector<RosterEntry> Roster() const;
  std::optional<ClientId> ClientOf(const std::string& token) const;
  std::optional<std::string> TokenOf(ClientId client) const;
  bool Following(const std::string& token) const;
  std::optional<Histogram> HistogramOf(const std::string& question, int round) const;
  std::vector<Histogram> Histograms() const;     // every question and round answered, by question then round

  // Results, anonymous (no token, no nickname): CSV `question,round,answer,verdict,mistake,count`
  // (one row per distinct answer) and JSON {"code", "students", "questions": [histogram…]}.
  std::string ExportCsv() const;
  std::string ExportJson() const;

  // The state file: what a restarted teacher app needs to resume this class (the code, the
  // students' tokens, nicknames and follow state, the answers so far, the teacher's state).
  // Changed since the last Save/ClearDirty?
  bool dirty() const { return dirty_; }
  void ClearDirty() { dirty_ = false; }
  std::string StateJson() const;
  // Written atomically (data::WriteFileAtomically: the old file or the new one, never half);
  // throws data::SaveError.
  void SaveState(const std::filesystem::path& path);
  // Throws data::LoadError (file, JSON path, reason) on a file that is not a class state v1.
  static ClassRoom FromStateJson(std::string_view text, const std::string& file, Options options = {});
  static ClassRoom Resume(const std::filesystem::path& path, Options options = {});

 private:
  struct Student {
    std::string nickname;
    std::uint64_t joined = 0;   // the order of first joins (Roster)
    bool following = true;
    bool removed = false;
    std::optional<ClientId> client;
  };
  struct Connection {
    double bucket = 0;
    Clock::time_point last{};
    bool started = false;
    std::optional<std::string> token;
    int wrong_codes = 0;
  };
  struct Recorded {
    std::string answer;
    view::CheckVerdict verdict = view::CheckVerdict::kWrong;
    int mistake = -1;
  };
  struct QuestionInfo {
    std::vector<std::string> mistakes;   // names
    int choices = 0;
  };
  Reply Join(ClientId client, Connection& c, const JoinMessage& m);
  Reply Answer(Connection& c, const AnswerMessage& m);
  std::string NewToken() const;

  Options options_;
  std::string code_;
  TeacherState teacher_;
  std::optional<app::StepQuestion> question_;
  std::uint64_t seq_ = 1;
  std::uint64_t joins_ = 0;     // students who ever joined (Student::joined)
  bool ended_ = false;
  bool dirty_ = true;
  std::map<std::string, Student> students_;                     // by token
  std::map<ClientId, Connection> connections_;
  std::map<std::pair<std::string, int>, std::map<std::string, Recorded>> answers_;  // (question, round) → token → answer
  std::map<std::string, QuestionInfo> questions_;               // every question asked, by step id
};

// An answer's normalised text (see AnswerTally), or "" when it is not a number, fraction or decimal.
std::string NormaliseNumberAnswer(const std::string& typed);
// "right", "wrong", "unreadable", "too_coarse".
const char* VerdictName(view::CheckVerdict v);
// Whether `code` is a join code: kJoinCodeLength characters of kJoinCodeAlphabet.
bool ValidJoinCode(const std::string& code);
// A new random join code.
std::string RandomJoinCode();

}  // namespace bw::classroom
