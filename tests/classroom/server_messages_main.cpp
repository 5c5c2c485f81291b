// Prints one message of every kind the class server sends (welcome, state, class_full, refused,
// ended), each made by a real ClassRoom, one per line: schema_agreement.py validates them against
// schemas/class-message-v1.schema.json ($defs/server_message).
#include <cstdio>

#include "classroom/class_room.h"

int main() {
  using namespace bw::classroom;
  ClassRoom room(RoomOptions{.max_students = 1}, "K7QX2M");
  TeacherState t;
  t.lesson = "N50";
  t.step = "N50/w1";
  t.position = "update:2";
  t.event = 4;
  room.SetTeacherState(t, std::nullopt);
  const auto now = Clock::now();
  auto print = [](const Reply& r) {
    for (const auto& f : r.to_client) std::printf("%s\n", f.c_str());
  };
  print(room.HandleMessage(1, R"({"v":1,"kind":"join","code":"K7QX2M"})", now));        // welcome, state
  print(room.HandleMessage(2, R"({"v":1,"kind":"join","code":"ABCDEF"})", now));        // refused
  print(room.HandleMessage(3, R"({"v":1,"kind":"join","code":"K7QX2M"})", now));        // class_full
  room.End();
  print(room.HandleMessage(4, R"({"v":1,"kind":"follow"})", now));                     // ended
  return 0;
}
