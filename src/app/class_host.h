// The teacher's side of a live class as the run sees it (issue 30): a class server the app starts
// (--class, the settings window's Start), drives after each frame and stops at the end. The desktop's
// is LiveClass (live_class.h, a server on its own thread); the web edition has none — a page cannot
// listen for students — so the run holds whatever platform::NewClassHost() gives: null there.
#pragma once

#include <string>
#include <vector>

#include "session/app_state.h"

namespace bw::app {

class ClassHost {
 public:
  virtual ~ClassHost() = default;
  // Starts a class listening on `where`; "" or why not (LiveClass::Start says how).
  virtual std::string Start(const std::string& where, AppState& s, const std::string& state_file, std::string* warning) = 0;
  // After each frame: what the notes window asked, and what the screen shows to the class.
  virtual void Frame(AppState& s, double now_s) = 0;
  // Between frames: whether the class has news to draw (a student joined, an answer came in).
  virtual bool Poll(AppState& s, double now_s) = 0;
  virtual void Stop(AppState& s) = 0;
  // The addresses a class can listen on, as the settings window lists them.
  virtual std::vector<std::string> Addresses() const = 0;
};

}  // namespace bw::app
