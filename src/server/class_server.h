// ClassServer: the live class's HTTP + WebSocket server (issue 30, Boost.Beast over Boost.Asio,
// header-only from Debian's libboost-dev), running on a thread of its own.
//   - listens only on ServerOptions::address (loopback in tests; port 0 picks a free port: port());
//   - GET serves files from web_root and nothing else: a path is percent-decoded once, "." and ".."
//     segments, encoded slashes, backslashes and NUL are refused (400), a path that resolves outside
//     the root (a symlink out) or names a folder without index.html is 404 — never a listing;
//     content types for .html .js .wasm .css .data .json .png (and .svg .ico .txt);
//   - GET /class with an upgrade becomes the class's WebSocket, when its Origin is http://HOST where
//     HOST is the server's own address:port (or an allowed_hosts name): else 403;
//   - every frame goes through classroom::ClassRoom::HandleMessage (the protocol's parser, the class's
//     rules, the token bucket); a hostile client (a frame over kMaxMessageBytes, garbage, a binary
//     frame, a flood over the rate limit) is closed and logged, and nobody else waits for it;
//   - each connection's send queue holds at most max_queued_frames: a reader that stalls past it is
//     dropped (logged), and never slows the teacher or the others.
// The teacher's thread calls the public functions below; they are thread-safe and never wait on the
// network: they take the class's mutex for the ClassRoom call alone (microseconds) and hand sends
// and closes to the server's thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "classroom/class_room.h"

namespace bw::server {

inline constexpr std::size_t kMaxQueuedFrames = 64;        // per connection: more and it is dropped
inline constexpr std::size_t kMaxLogLines = 1000;          // the teacher's log keeps the last ones
inline constexpr std::size_t kMaxRequestHeaderBytes = 8192;
inline constexpr int kStateSaveIntervalMs = 500;           // the state file is written at most this often

struct ServerOptions {
  std::string address = "127.0.0.1";            // an IP address of one interface (IPv4 or IPv6)
  unsigned short port = 0;                       // 0: any free port (ClassServer::port() says which)
  std::filesystem::path web_root;                // the web edition's files; "" serves none (404)
  std::vector<std::string> allowed_hosts;        // other names the students' Origin may carry ("room-pc.local:8080")
  std::filesystem::path state_file;              // the class's state file ("" = none): written atomically
                                                 // while the class runs, removed when it ends
  classroom::ClassRoom::Options room;
  std::size_t max_queued_frames = kMaxQueuedFrames;
  // SO_SNDBUF of each connection, in bytes (0: the system's, which loopback grows to MiBs). Smaller
  // finds a stalled reader sooner: its frames wait in our bounded queue rather than in the kernel.
  int send_buffer_bytes = 0;
  int max_connections = classroom::kDefaultMaxStudents + 100;  // open sockets; more are closed at accept
};

struct ServerCounts {
  int students = 0;         // joined (ClassRoom::students)
  int connected = 0;        // students with a live connection
  int following = 0;
  int sockets = 0;          // open connections, HTTP and WebSocket, joined or not
  int closed_hostile = 0;   // connections the server closed for what they sent (or failed to read)
};

class ClassServer {
 public:
  // A new class (a random code, or the ClassRoom given: ClassRoom::Resume after a restart).
  explicit ClassServer(ServerOptions options, std::optional<classroom::ClassRoom> room = std::nullopt);
  ~ClassServer();  // Stop()
  ClassServer(const ClassServer&) = delete;
  ClassServer& operator=(const ClassServer&) = delete;

  // Binds, listens and starts the server's thread. Returns "" or why not, one line ("127.0.0.1:80:
  // permission denied"). Once only.
  std::string Start();
  // Closes every connection and the listener, writes the state file (while the class has not ended)
  // and joins the thread. Idempotent.
  void Stop();
  unsigned short port() const;                   // the port listened on (after Start)
  std::string code() const;
  std::string Url() const;                       // "http://127.0.0.1:PORT/"

  // [Teacher] The teacher's screen changed: every joined student gets the new state.
  void Publish(const classroom::TeacherState& state, std::optional<app::StepQuestion> question);
  classroom::TeacherState teacher_state() const;
  ServerCounts counts() const;
  std::optional<classroom::Histogram> HistogramOf(const std::string& question, int round) const;
  std::vector<std::string> Tokens() const;
  std::vector<classroom::ClassRoom::RosterEntry> Roster() const;
  std::vector<std::string> LogLines() const;     // oldest first, at most kMaxLogLines
  bool RemoveDevice(const std::string& token);   // false: no such student
  void EndClass();                               // "ended" to everyone, connections closed, state file removed
  std::string ExportCsv() const;
  std::string ExportJson() const;

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

// [Helpers, exposed for the tests] The file a request target names under `root`, or the HTTP status
// that refuses it (400 malformed, 404 absent / outside / a folder without index.html).
struct FileLookup {
  int status = 200;
  std::filesystem::path file;
};
FileLookup LookUpFile(const std::filesystem::path& root, const std::string& target);
std::string ContentType(const std::filesystem::path& file);

}  // namespace bw::server
