// libFuzzer target: the class protocol's gate for student messages (src/classroom/class_message.h)
// and the class's rules behind it (class_room.h). The input is split at newlines into up to 64
// frames, sent by three connections into a class whose code (K7QX2M) and open question (N50/w1:
// 160/7, the named mistake 65/3) the seeds know. Findings: any exception but data::LoadError out of
// the parser, any exception at all out of ClassRoom, a teacher's state a student changed, an answer
// counted twice, more students than the class's size, a reply frame over the byte limit or not JSON.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "classroom/class_room.h"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "class message fuzz: %s\n", what);
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bw::classroom;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  try {
    const StudentMessage m = ParseStudentMessage(input);
    if (const auto* a = std::get_if<AnswerMessage>(&m)) {
      Check(a->round >= 1 && a->round <= kMaxVoteRound, "a round outside 1..9 parsed");
      Check(!a->answer.empty() && CodePoints(a->answer) <= kMaxAnswerChars, "an answer of a bad length parsed");
      NormaliseNumberAnswer(a->answer);
    }
    if (const auto* j = std::get_if<JoinMessage>(&m)) Check(j->code.size() == kJoinCodeLength, "a code of a bad length parsed");
  } catch (const bw::data::LoadError&) {
  }

  ClassRoom room(RoomOptions{.max_students = 2}, "K7QX2M");
  TeacherState t;
  t.lesson = "N50";
  t.step = "N50/w1";
  t.position = "update:2";
  t.event = 5;
  bw::app::StepQuestion q;
  q.step_id = "N50/w1";
  q.number = bw::view::ExpectedNumber{160.0 / 7, bw::engine::Rational(160, 7)};
  q.mistakes.push_back({"average", bw::view::ExpectedNumber{65.0 / 3, bw::engine::Rational(65, 3)}});
  room.SetTeacherState(t, q);
  const TeacherState before = room.teacher_state();
  const auto seq = room.state_seq();
  auto now = Clock::now();
  size_t start = 0;
  for (int frame = 0; frame < 64 && start <= input.size(); ++frame) {
    const size_t end = std::min(input.find('\n', start), input.size());
    const Reply r = room.HandleMessage(static_cast<ClientId>(frame % 3), input.substr(start, end - start), now);
    for (const auto& f : r.to_client) {
      Check(f.size() <= kMaxMessageBytes, "a reply over the byte limit");
      Check(nlohmann::json::accept(f), "a reply that is not JSON");
    }
    now += std::chrono::milliseconds(50);
    start = end + 1;
  }
  Check(room.teacher_state() == before && room.state_seq() == seq, "a student changed the teacher's state");
  Check(room.students() <= 2, "more students than the class's size");
  const auto h = room.HistogramOf("N50/w1", 1);
  Check(h && h->total <= room.students() + 0, "more answers than students");
  Check(h->right + h->wrong + h->too_coarse == h->total, "a histogram that does not add up");
  return 0;
}
