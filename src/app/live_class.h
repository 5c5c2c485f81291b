// The teacher's side of a live class (issue 30): `--class ADDRESS[:PORT]` starts the class server
// (server::ClassServer, on its own thread) serving the web edition's files; every frame publishes
// what the teacher's screen shows (classroom::TeacherStateOf) when it changed, and a few times a
// second copies the join URL, code, student count and the open question's histogram into
// AppState::ui.live_class for the join card (projected) and the notes window (the teacher's only).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/class_host.h"
#include "classroom/teacher_state.h"
#include "session/app_state.h"

namespace bw::server {
class ClassServer;
}

namespace bw::app {

// The web edition's files the class serves: $BLOCKWISE_WEB_ROOT, else web/ in the data root (an
// installed copy), else build-web/ in it (a source build after `scripts/web --build-only`); the
// first that holds index.html and blockwise.js (web/ in a source tree is the page's template). "" when none does.
std::string FindWebRoot();

// The addresses a class can listen on, as the settings window lists them: every IPv4 interface that
// is up ("192.168.1.20 (wlan0)"), loopback last.
std::vector<std::string> ClassAddresses();

// The QR code of `text` (libqrencode, error correction M): size × size modules, row-major, 1 = dark.
// Empty when the text cannot be encoded.
std::vector<std::uint8_t> EncodeQr(const std::string& text, int* size);

class LiveClass : public ClassHost {
 public:
  LiveClass();
  ~LiveClass() override;
  // Starts a class listening on `where` ("127.0.0.1", "192.168.1.20:8080", "[::1]:0"; port 0 or none:
  // any free port). Returns "" or why not, one line (no web files, a bad address, the port taken).
  // `state_file` ("" = none): the class's state, written atomically while it runs and removed when
  // it ends; when it exists at start (the app was closed or crashed mid-class) the class resumes
  // from it: the same code, students (their tokens rejoin), answers and controls. A file that is
  // not a class state is moved aside to `state_file`.bad and a new class starts (warning says so).
  std::string Start(const std::string& where, AppState& s, const std::string& state_file = "", std::string* warning = nullptr) override;
  // After each frame: does what the notes window asked (AppState::ui.live_class.want), publishes
  // what the screen shows when it changed, and refreshes the view a few times a second.
  void Frame(AppState& s, double now_s) override;
  // Between frames (the app sleeps until input): refreshes the view at most 4 times a second and says
  // whether it changed (a student joined, an answer came in), so that the notes window and the join
  // card redraw without the teacher touching anything.
  bool Poll(AppState& s, double now_s) override;
  void Stop(AppState& s) override;         // ends the class: students are told, the state file removed
  std::vector<std::string> Addresses() const override { return ClassAddresses(); }
  bool live() const { return server_ != nullptr; }

 private:
  void DoRequests(AppState& s, double now_s);
  void Refresh(AppState& s, const classroom::TeacherState& t);
  std::unique_ptr<server::ClassServer> server_;
  classroom::ClassControls controls_;
  classroom::TeacherState published_;
  bool any_published_ = false;
  double next_view_s_ = 0;
};


}  // namespace bw::app
