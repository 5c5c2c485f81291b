// The class protocol, version 1 (docs/protocol.md; schema: schemas/class-message-v1.schema.json).
// Every message is one JSON object in one WebSocket text frame, at most kMaxMessageBytes bytes,
// with "v": 1 and a "kind".
//   student → server: join {code, nickname?, token?} · answer {question, round, answer} · follow · detach
//   server → student: welcome {token, following} · state {…the teacher's state…} · class_full ·
//                     refused {reason} · ended
// ParseStudentMessage is the one gate for what a student sends: it applies the same rules as the
// schema's "student_message" (tests/classroom: the two agree on a corpus of good and bad messages)
// plus the byte limit, which JSON Schema cannot state. Errors are data::LoadError lines:
// "class message: <JSON path>: <reason>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "data/load_error.h"

namespace bw::classroom {

inline constexpr int kProtocolVersion = 1;
inline constexpr std::size_t kMaxMessageBytes = 4096;   // one message, in bytes (UTF-8), either direction
inline constexpr std::size_t kJoinCodeLength = 6;        // characters of kJoinCodeAlphabet
// Join codes use digits and capitals that cannot be mistaken for one another when read off a
// projector or typed on a phone: no 0/O, 1/I/L. 31 symbols, 31^6 ≈ 8.9·10^8 codes. Typed lower
// case is accepted and read as upper case.
inline constexpr std::string_view kJoinCodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
inline constexpr std::size_t kTokenHexDigits = 32;       // a student's token: 128 random bits, lower-case hex
inline constexpr std::size_t kMaxNicknameChars = 32;     // code points
inline constexpr std::size_t kMaxQuestionIdChars = 64;   // a lesson step id, printable ASCII
inline constexpr std::size_t kMaxAnswerChars = 64;       // code points (the desktop's answer field holds 63 bytes)
inline constexpr int kMaxVoteRound = 9;                  // "vote, discuss, vote again": rounds 1..9
inline const char* const kMessageFile = "class message"; // the "file" of a message's LoadError

struct JoinMessage {
  std::string code;                   // upper case (as typed, lower case read as upper)
  std::optional<std::string> nickname;
  std::optional<std::string> token;   // rejoining: the token the welcome gave
};
struct AnswerMessage {
  std::string question;               // the step id of the question ("N50/w1")
  int round = 1;                      // the vote round the student answers (1 first)
  std::string answer;                 // as typed: "160/7", "22.857"; a choice question's choice number "2"
};
struct FollowMessage {};              // back to the class: show the teacher's position
struct DetachMessage {};              // explore on my own (refused while the teacher locks pacing)
using StudentMessage = std::variant<JoinMessage, AnswerMessage, FollowMessage, DetachMessage>;

// Parses and validates one message a student sent. Throws data::LoadError (file kMessageFile) on
// anything else: too long, not UTF-8 JSON, not an object, another version, an unknown kind or key,
// a field of the wrong type, length or alphabet.
StudentMessage ParseStudentMessage(std::string_view text);

// What the teacher's screen shows, as the students are told it (the "state" message). An unrevealed
// answer is never part of it: the answer text is not in the state at all (a student's web edition
// shows the lesson's own answer once `revealed` is true).
struct TeacherState {
  std::string course;                 // course id ("" when the lesson is not part of one)
  std::string lesson;                 // lesson id ("RC-T3")
  std::string step;                   // step id ("RC-T3/b2"); "" on a card (below)
  std::string card;                   // "" on a step; "title" (the lesson's title card), "end" (the course's
                                      // end card), "library" (the start screen): then step is ""
  std::string position;               // the trace position shown (data/position.h grammar, "update:2")
  int event = 0;                      // the same position as a 0-based trace event index
  bool revealed = false;              // the step's predict answer has been revealed
  bool pacing_lock = false;           // students follow the teacher; detach is refused
  int round = 1;                      // the vote round open at this step (1..kMaxVoteRound)
  bool voting_closed = false;         // the teacher closed the vote (answers refused until a new round)
  bool operator==(const TeacherState&) const = default;
};

// Server → student messages, as the text of one frame each. `seq` numbers the states of a class
// (1, 2, …) so a client can tell a newer one from a repeat.
std::string WelcomeMessage(const std::string& token, bool following);
std::string StateMessage(const TeacherState& s, std::uint64_t seq, bool question_open);
std::string ClassFullMessage();
std::string RefusedMessage(const std::string& reason);
std::string EndedMessage();

// Server → student, read back (the student's web edition, the tests' clients): every field the
// server writes, checked as $defs/server_message states it. Throws data::LoadError like the gate.
struct WelcomeReceived {
  std::string token;
  bool following = true;
};
struct StateReceived {
  TeacherState state;
  std::uint64_t seq = 0;
  bool question_open = false;
};
struct ClassFullReceived {};
struct RefusedReceived {
  std::string reason;
};
struct EndedReceived {};
using ServerMessage = std::variant<WelcomeReceived, StateReceived, ClassFullReceived, RefusedReceived, EndedReceived>;
ServerMessage ParseServerMessage(std::string_view text);

// Student → server, written (the student's web edition): each parses back with ParseStudentMessage.
std::string JoinMessageText(const JoinMessage& m);
std::string AnswerMessageText(const AnswerMessage& m);
std::string FollowMessageText();
std::string DetachMessageText();

// Code points of valid UTF-8 `s` (the parser's and the schema's length unit).
std::size_t CodePoints(std::string_view s);

}  // namespace bw::classroom
