// The class server's inside, shared by its two files: ClassServer::Impl (the server thread, the
// class's mutex, the log) and the two hand-overs between them — class_server_http.cpp accepts
// connections and serves the web root's files, class_server.cpp runs the class WebSocket a
// connection upgrades to and the teacher's API. Internal to src/server.
#pragma once

#include <atomic>
#include <utility>  // before Boost.Asio 1.74, whose awaitable.hpp uses std::exchange without it
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "server/class_server.h"

namespace bw::server {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace websocket = boost::beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

class WsSession;

struct ClassServer::Impl : std::enable_shared_from_this<ClassServer::Impl> {
  ServerOptions opt;
  net::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  net::steady_timer save_timer{ioc};
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  std::thread thread;
  unsigned short port = 0;
  std::atomic<bool> started{false}, stopped{false};
  std::vector<std::string> own_origins;       // "http://127.0.0.1:PORT", …

  // Guarded by mu: the class, the log, the counters the teacher reads.
  mutable std::mutex mu;
  classroom::ClassRoom room;
  std::deque<std::string> log;
  int closed_hostile = 0;

  // Touched on the server thread only.
  std::map<classroom::ClientId, std::weak_ptr<WsSession>> sessions;  // from the upgrade on
  std::map<std::uint64_t, std::function<void()>> http_closers;         // HTTP connections: close one
  std::uint64_t next_http = 1;
  classroom::ClientId next_client = 1;
  std::atomic<int> sockets{0};

  Impl(ServerOptions o, classroom::ClassRoom r) : opt(std::move(o)), room(std::move(r)) {}

  void Log(const std::string& line, bool hostile) {  // with mu held
    using namespace std::chrono;
    const auto t = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    const std::time_t secs = static_cast<std::time_t>(t / 1000);
    std::tm tm{};
    localtime_r(&secs, &tm);
    char stamp[16];
    std::snprintf(stamp, sizeof stamp, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
    log.push_back(std::string(stamp) + " " + line);
    while (log.size() > kMaxLogLines) log.pop_front();
    if (hostile) ++closed_hostile;
  }
  void LogNow(const std::string& line, bool hostile = false) {
    std::lock_guard<std::mutex> lock(mu);
    Log(line, hostile);
  }

  bool OriginAllowed(const std::string& origin) const {
    for (const auto& o : own_origins)
      if (origin == o) return true;
    return false;
  }

  // Server thread: every joined connection gets `frame`.
  void Broadcast(const std::shared_ptr<const std::string>& frame);
  void CloseClient(classroom::ClientId id, const std::shared_ptr<const std::string>& last_frame);
  void SaveSoon();
  void SaveNow();
};

// Accepts connections, each an HTTP session (class_server_http.cpp), until the acceptor closes.
void Accept(const std::shared_ptr<ClassServer::Impl>& impl);
// A request for /class from an allowed origin: its socket becomes the class WebSocket (class_server.cpp).
void StartClassSession(std::shared_ptr<ClassServer::Impl> impl, tcp::socket&& socket, std::string peer,
                       http::request<http::empty_body>&& upgrade);

}  // namespace bw::server
