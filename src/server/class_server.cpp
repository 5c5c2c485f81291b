// The class server: HTTP files + the class WebSocket on one Asio thread; see class_server.h.
// [SECTION] Files: request target → file under the web root
// [SECTION] Impl: the server thread, the class's mutex, the log
// [SECTION] WebSocket session
// [SECTION] HTTP session
// [SECTION] Listener and the teacher's API
#include "server/class_server.h"

#include <algorithm>
#include <atomic>
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
#include <mutex>
#include <thread>

#include "data/atomic_write.h"
#include "data/json_file.h"

namespace bw::server {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace websocket = boost::beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;

// [SECTION] Files: request target → file under the web root

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

FileLookup LookUpFile(const std::filesystem::path& root, const std::string& target) {
  namespace fs = std::filesystem;
  // Origin-form only ("/path?query"): an absolute URI ("http://…"), "*" or an authority is refused.
  if (target.empty() || target[0] != '/' || target.size() > 2048) return {400, {}};
  std::string raw = target.substr(0, target.find_first_of("?#"));
  std::string path;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '%') {
      path += raw[i];
      continue;
    }
    if (i + 2 >= raw.size()) return {400, {}};
    const int hi = HexValue(raw[i + 1]), lo = HexValue(raw[i + 2]);
    if (hi < 0 || lo < 0) return {400, {}};
    const char c = static_cast<char>(hi * 16 + lo);
    if (c == '/' || c == '\\' || c == '\0' || c == '%') return {400, {}};  // no encoded separators, no double decoding
    path += c;
    i += 2;
  }
  if (path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) return {400, {}};
  // Segments: no "." or "..", no empty segment but a trailing one ("/a/" = its index.html).
  fs::path rel;
  size_t start = 1;
  while (start <= path.size()) {
    const size_t end = std::min(path.find('/', start), path.size());
    const std::string seg = path.substr(start, end - start);
    if (seg == "." || seg == "..") return {400, {}};
    if (seg.empty() && end != path.size()) return {400, {}};  // "//"
    if (!seg.empty()) rel /= seg;
    start = end + 1;
  }
  if (root.empty()) return {404, {}};
  fs::path file = root / rel;
  std::error_code ec;
  if (path.back() == '/' || fs::is_directory(file, ec)) file /= "index.html";  // a folder: its index, never a listing
  if (!fs::is_regular_file(file, ec)) return {404, {}};
  // A symlink may still lead out of the root: the one rule for that (data/json_file.h).
  if (!data::InsideFolder(root, file, ec) || ec) return {404, {}};
  return {200, file};
}

std::string ContentType(const std::filesystem::path& file) {
  const std::string ext = file.extension().string();
  if (ext == ".html" || ext == ".htm") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".wasm") return "application/wasm";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".png") return "image/png";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".txt") return "text/plain; charset=utf-8";
  return "application/octet-stream";  // .data (Emscripten's packaged files) and anything else
}

// [SECTION] Impl: the server thread, the class's mutex, the log

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

// [SECTION] WebSocket session

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(std::shared_ptr<ClassServer::Impl> impl, tcp::socket&& socket, std::string peer)
      : impl_(std::move(impl)), ws_(std::move(socket)), peer_(std::move(peer)) {}
  ~WsSession() { impl_->sockets.fetch_sub(1); }

  template <class Body, class Allocator>
  void Run(http::request<Body, http::basic_fields<Allocator>> req) {
    beast::get_lowest_layer(ws_).expires_never();  // the websocket's own timeouts from here
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "blockwise-class"); }));
    ws_.read_message_max(classroom::kMaxMessageBytes);
    id_ = impl_->next_client++;
    impl_->sessions[id_] = weak_from_this();  // Stop closes it, from the handshake on
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::OnAccept, shared_from_this()));
  }

  // Queues one frame; a queue over its bound means a reader that stopped reading: dropped.
  void Send(const std::shared_ptr<const std::string>& frame) {
    if (closing_ || dropped_) return;
    if (queue_.size() >= impl_->opt.max_queued_frames) {
      Drop("dropped: " + std::to_string(queue_.size()) + " messages waiting (a reader that stopped reading)", false);
      return;
    }
    queue_.push_back(frame);
    if (!writing_) Write();
  }
  // Sends what is queued (and `last`), then closes with a close frame.
  void CloseAfter(const std::shared_ptr<const std::string>& last, websocket::close_code code) {
    if (closing_ || dropped_) return;
    if (last) Send(last);
    closing_ = true;
    close_code_ = code;
    if (!writing_) DoClose();
  }
  // Closes the socket at once (no close handshake): pending reads and writes end with an error.
  void Drop(const std::string& why, bool hostile) {
    if (dropped_) return;
    dropped_ = true;
    {
      std::lock_guard<std::mutex> lock(impl_->mu);
      impl_->room.Disconnect(id_);
      impl_->Log("client " + std::to_string(id_) + " (" + peer_ + "): " + why, hostile);
    }
    impl_->sessions.erase(id_);
    error_code ec;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(ws_).close();
    queue_.clear();
  }
  classroom::ClientId id() const { return id_; }

 private:
  void OnAccept(error_code ec) {
    if (ec) {
      if (!dropped_) impl_->LogNow("connection from " + peer_ + ": WebSocket handshake failed: " + ec.message());
      return Forget();
    }
    Read();
  }
  void Read() {
    ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::OnRead, shared_from_this()));
  }
  void OnRead(error_code ec, std::size_t) {
    if (dropped_) return;
    if (ec) {
      if (ec == websocket::error::message_too_big) {
        // Beast has failed the connection (close code 1009): log it as the hostile client it is.
        Drop("closed: a message over " + std::to_string(classroom::kMaxMessageBytes) + " bytes", true);
      } else if (ec == websocket::error::closed || ec == net::error::eof || ec == net::error::operation_aborted ||
                 ec == net::error::connection_reset) {
        Forget();
      } else {
        Drop("closed: " + ec.message(), ec != beast::error::timeout);
      }
      return;
    }
    classroom::Reply reply;
    {
      std::lock_guard<std::mutex> lock(impl_->mu);
      if (!ws_.got_text()) {
        reply = impl_->room.HandleBadFrame(id_, "a binary frame (the class speaks JSON text)");
      } else {
        const std::string text = beast::buffers_to_string(buffer_.data());
        reply = impl_->room.HandleMessage(id_, text, classroom::Clock::now());
      }
      // A connection closed for what it sent ("closed: …") counts as hostile; "class full" does not.
      if (!reply.log.empty())
        impl_->Log("client " + std::to_string(id_) + " (" + peer_ + "): " + reply.log, reply.close && reply.log.rfind("closed:", 0) == 0);
      if (!reply.superseded.empty()) impl_->Log("client " + std::to_string(id_) + " (" + peer_ + "): rejoined; its earlier connection is closed", false);
      if (!reply.to_client.empty() || reply.close) impl_->SaveSoon();
    }
    buffer_.consume(buffer_.size());
    for (const auto other : reply.superseded) impl_->CloseClient(other, nullptr);
    for (size_t i = 0; i < reply.to_client.size(); ++i) {
      auto frame = std::make_shared<const std::string>(std::move(reply.to_client[i]));
      if (reply.close && i + 1 == reply.to_client.size()) return CloseAfter(frame, websocket::close_code::policy_error);
      Send(frame);
    }
    if (reply.close) return CloseAfter(nullptr, websocket::close_code::policy_error);
    if (!dropped_) Read();
  }
  void Write() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(*queue_.front()), beast::bind_front_handler(&WsSession::OnWrite, shared_from_this()));
  }
  void OnWrite(error_code ec, std::size_t) {
    writing_ = false;
    if (dropped_) return;
    if (ec) return Drop("dropped: sending failed: " + ec.message(), false);
    queue_.pop_front();
    if (!queue_.empty()) return Write();
    if (closing_) DoClose();
  }
  void DoClose() {
    ws_.async_close(close_code_, [self = shared_from_this()](error_code) { self->Forget(); });
  }
  void Forget() {
    if (dropped_) return;
    dropped_ = true;
    impl_->sessions.erase(id_);
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->room.Disconnect(id_);
  }

  std::shared_ptr<ClassServer::Impl> impl_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::string peer_;
  classroom::ClientId id_ = 0;
  std::deque<std::shared_ptr<const std::string>> queue_;
  bool writing_ = false, closing_ = false, dropped_ = false;
  websocket::close_code close_code_ = websocket::close_code::normal;
};

void ClassServer::Impl::Broadcast(const std::shared_ptr<const std::string>& frame) {
  std::vector<std::shared_ptr<WsSession>> to;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (auto it = sessions.begin(); it != sessions.end();) {
      auto s = it->second.lock();
      if (!s) {
        it = sessions.erase(it);
        continue;
      }
      if (room.TokenOf(it->first)) to.push_back(std::move(s));
      ++it;
    }
  }
  for (const auto& s : to) s->Send(frame);
}

void ClassServer::Impl::CloseClient(classroom::ClientId id, const std::shared_ptr<const std::string>& last_frame) {
  const auto it = sessions.find(id);
  if (it == sessions.end()) return;
  // It stays in `sessions` until its close handshake ends (Forget): a peer that never answers the
  // close frame (a sleeping laptop) is closed hard by Stop, which would otherwise wait for the
  // handshake's timeout (30 s) with the teacher's window frozen.
  if (auto s = it->second.lock()) s->CloseAfter(last_frame, websocket::close_code::normal);
}

void ClassServer::Impl::SaveSoon() {  // with mu held; server thread
  if (opt.state_file.empty() || room.ended() || stopped) return;
  if (save_timer.expiry() > net::steady_timer::clock_type::now()) return;  // one is pending
  save_timer.expires_after(std::chrono::milliseconds(kStateSaveIntervalMs));
  save_timer.async_wait([self = shared_from_this()](error_code ec) {
    if (!ec) self->SaveNow();
  });
}

void ClassServer::Impl::SaveNow() {  // server thread (or Stop, after it has ended)
  if (opt.state_file.empty()) return;
  std::string text;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (room.ended() || !room.dirty()) return;
    text = room.StateJson();
    room.ClearDirty();
  }
  try {
    data::WriteFileAtomically(opt.state_file, text);
  } catch (const data::SaveError& e) {
    LogNow(std::string("state file: ") + e.what());
  }
}

// [SECTION] HTTP session

namespace {

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(std::shared_ptr<ClassServer::Impl> impl, tcp::socket&& socket, std::string peer)
      : impl_(std::move(impl)), stream_(std::move(socket)), peer_(std::move(peer)) {}
  ~HttpSession() {
    if (!handed_over_) impl_->sockets.fetch_sub(1);
    if (key_) impl_->http_closers.erase(key_);
  }
  void Read() {
    if (!key_) {
      key_ = impl_->next_http++;
      impl_->http_closers[key_] = [w = weak_from_this()] {
        if (auto self = w.lock()) {
          error_code ec;
          self->stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
          self->stream_.close();
        }
      };
    }
    parser_.emplace();
    parser_->header_limit(kMaxRequestHeaderBytes);
    parser_->body_limit(0);  // a GET has no body
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::OnRead, shared_from_this()));
  }

 private:
  void OnRead(error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) {
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      return;
    }
    if (ec) {
      if (ec != beast::error::timeout && ec != net::error::operation_aborted && ec != net::error::connection_reset)
        impl_->LogNow("http " + peer_ + ": refused a request: " + ec.message());
      if (ec != beast::error::timeout && ec != net::error::operation_aborted && ec != net::error::connection_reset)
        Respond(Simple(http::status::bad_request, "bad request\n", 11, false));
      return;
    }
    auto req = parser_->release();
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    if (websocket::is_upgrade(req)) {
      if (path != "/class") return Respond(Simple(http::status::not_found, "not found\n", req.version(), false));
      const std::string origin(req[http::field::origin]);
      if (!impl_->OriginAllowed(origin)) {
        impl_->LogNow("http " + peer_ + ": refused a class connection from origin \"" + origin.substr(0, 100) + "\"", true);
        return Respond(Simple(http::status::forbidden, "forbidden origin\n", req.version(), false));
      }
      handed_over_ = true;
      impl_->http_closers.erase(key_);
      key_ = 0;
      std::make_shared<WsSession>(impl_, stream_.release_socket(), peer_)->Run(std::move(req));
      return;
    }
    if (req.method() != http::verb::get)
      return Respond(Simple(http::status::method_not_allowed, "method not allowed\n", req.version(), req.keep_alive()));
    const FileLookup f = LookUpFile(impl_->opt.web_root, target);
    if (f.status != 200)
      return Respond(Simple(f.status == 400 ? http::status::bad_request : http::status::not_found,
                            f.status == 400 ? "bad request\n" : "not found\n", req.version(), req.keep_alive()));
    http::file_body::value_type body;
    body.open(f.file.c_str(), beast::file_mode::scan, ec);
    if (ec) return Respond(Simple(http::status::not_found, "not found\n", req.version(), req.keep_alive()));
    const auto size = body.size();
    http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                        std::make_tuple(http::status::ok, req.version())};
    res.set(http::field::server, "blockwise-class");
    res.set(http::field::content_type, ContentType(f.file));
    res.set("X-Content-Type-Options", "nosniff");
    res.set(http::field::cache_control, "no-cache");
    res.content_length(size);
    res.keep_alive(req.keep_alive());
    Respond(std::move(res));
  }

  static http::response<http::string_body> Simple(http::status s, const char* text, unsigned version, bool keep_alive) {
    http::response<http::string_body> res{s, version};
    res.set(http::field::server, "blockwise-class");
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.keep_alive(keep_alive);
    res.body() = text;
    res.prepare_payload();
    return res;
  }

  template <class Body>
  void Respond(http::response<Body>&& msg) {
    auto sp = std::make_shared<http::response<Body>>(std::move(msg));
    const bool close = sp->need_eof();
    stream_.expires_after(std::chrono::seconds(30));
    http::async_write(stream_, *sp, [self = shared_from_this(), sp, close](error_code ec, std::size_t) {
      if (ec) return;
      if (close) {
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        return;
      }
      self->Read();
    });
  }

  std::shared_ptr<ClassServer::Impl> impl_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::empty_body>> parser_;
  std::string peer_;
  bool handed_over_ = false;
  std::uint64_t key_ = 0;
};

void Accept(const std::shared_ptr<ClassServer::Impl>& impl) {
  impl->acceptor.async_accept([impl](error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || !impl->acceptor.is_open()) return;
    if (!ec) {
      error_code pe;
      const auto ep = socket.remote_endpoint(pe);
      const std::string peer = pe ? std::string("?") : ep.address().to_string() + ":" + std::to_string(ep.port());
      if (impl->sockets.load() >= impl->opt.max_connections) {
        impl->LogNow("connection from " + peer + " refused: " + std::to_string(impl->opt.max_connections) + " connections open", false);
        socket.close(pe);
      } else {
        impl->sockets.fetch_add(1);
        // Small frames go out at once: with Nagle's algorithm a state waited for the student's delayed
        // ACK of its last answer (~40 ms on loopback, up to 200 ms from Windows; bench/class_load).
        socket.set_option(tcp::no_delay(true), pe);
        if (impl->opt.send_buffer_bytes > 0) socket.set_option(net::socket_base::send_buffer_size(impl->opt.send_buffer_bytes), pe);
        std::make_shared<HttpSession>(impl, std::move(socket), peer)->Read();
      }
    }
    Accept(impl);
  });
}

}  // namespace

// [SECTION] Listener and the teacher's API

ClassServer::ClassServer(ServerOptions options, std::optional<classroom::ClassRoom> room) {
  classroom::ClassRoom r = room ? std::move(*room) : classroom::ClassRoom(options.room);
  impl_ = std::make_shared<Impl>(std::move(options), std::move(r));
}

ClassServer::~ClassServer() { Stop(); }

std::string ClassServer::Start() {
  Impl& m = *impl_;
  if (m.started || m.stopped) return "the class server is started already";
  error_code ec;
  const auto address = net::ip::make_address(m.opt.address, ec);
  if (ec) return m.opt.address + ": not an IP address";
  const tcp::endpoint ep(address, m.opt.port);
  const std::string where = m.opt.address + ":" + std::to_string(m.opt.port);
  m.acceptor.open(ep.protocol(), ec);
  if (!ec) m.acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) m.acceptor.bind(ep, ec);
  if (!ec) m.acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    m.acceptor.close();
    return where + ": " + ec.message();
  }
  m.port = m.acceptor.local_endpoint().port();
  const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  m.own_origins = {"http://" + host + ":" + std::to_string(m.port)};
  if (address.is_loopback()) m.own_origins.push_back("http://localhost:" + std::to_string(m.port));
  for (const auto& h : m.opt.allowed_hosts)
    m.own_origins.push_back("http://" + h + (h.find(':') == std::string::npos ? ":" + std::to_string(m.port) : ""));
  m.started = true;
  m.work.emplace(m.ioc.get_executor());
  Accept(impl_);
  {
    std::lock_guard<std::mutex> lock(m.mu);
    m.Log("class " + m.room.code() + " listening on " + m.own_origins.front(), false);
  }
  m.thread = std::thread([impl = impl_] { impl->ioc.run(); });
  return "";
}

void ClassServer::Stop() {
  Impl& m = *impl_;
  if (!m.started || m.stopped) return;
  m.stopped = true;
  // Everything is closed on the server's thread; its run() then returns when the last handler has
  // run, so no handler (which holds its session, which holds Impl) outlives the thread.
  net::post(m.ioc, [impl = impl_.get()] {
    error_code ec;
    impl->acceptor.close(ec);
    impl->save_timer.cancel();
    const auto sessions = impl->sessions;  // Drop erases from the map
    for (auto& [id, w] : sessions)
      if (auto s = w.lock()) s->Drop("closed: the class server stopped", false);
    impl->sessions.clear();
    const auto closers = impl->http_closers;
    for (const auto& [key, close] : closers) close();
    impl->SaveNow();
    impl->work.reset();
  });
  m.thread.join();
}

unsigned short ClassServer::port() const { return impl_->port; }
std::string ClassServer::code() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->room.code();
}
std::string ClassServer::Url() const { return impl_->own_origins.empty() ? "" : impl_->own_origins.front() + "/"; }

void ClassServer::Publish(const classroom::TeacherState& state, std::optional<app::StepQuestion> question) {
  std::shared_ptr<const std::string> frame;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->room.SetTeacherState(state, std::move(question));
    frame = std::make_shared<const std::string>(impl_->room.CurrentStateMessage());
    // Posted under the lock: the broadcasts leave in the order of the states' seq. Not before Start
    // (a joined student gets the state with its welcome) nor after Stop (nobody runs it).
    if (!impl_->started || impl_->stopped) return;
    net::post(impl_->ioc, [impl = impl_.get(), frame] {
      impl->Broadcast(frame);
      std::lock_guard<std::mutex> lock(impl->mu);
      impl->SaveSoon();
    });
  }
}

classroom::TeacherState ClassServer::teacher_state() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->room.teacher_state();
}

ServerCounts ClassServer::counts() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  ServerCounts c;
  c.students = impl_->room.students();
  c.connected = impl_->room.connected();
  c.following = impl_->room.following();
  c.sockets = impl_->sockets.load();
  c.closed_hostile = impl_->closed_hostile;
  return c;
}

std::optional<classroom::Histogram> ClassServer::HistogramOf(const std::string& question, int round) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->room.HistogramOf(question, round);
}

std::vector<std::string> ClassServer::Tokens() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->room.Tokens();
}

std::vector<classroom::ClassRoom::RosterEntry> ClassServer::Roster() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->room.Roster();
}

std::vector<std::string> ClassServer::LogLines() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return {impl_->log.begin(), impl_->log.end()};
}

bool ClassServer::RemoveDevice(const std::string& token) {
  std::optional<classroom::ClientId> client;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    const auto tokens = impl_->room.Tokens();
    if (std::find(tokens.begin(), tokens.end(), token) == tokens.end()) return false;
    client = impl_->room.RemoveDevice(token);
    impl_->Log("the teacher removed a device", false);
  }
  if (client && impl_->started && !impl_->stopped)
    net::post(impl_->ioc, [impl = impl_.get(), id = *client] {
      impl->CloseClient(id, std::make_shared<const std::string>(classroom::RefusedMessage("the teacher removed this device from the class")));
    });
  return true;
}

void ClassServer::EndClass() {
  std::vector<classroom::ClientId> clients;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    clients = impl_->room.End();
    impl_->Log("the class has ended", false);
  }
  if (!impl_->started || impl_->stopped) {
    if (!impl_->opt.state_file.empty()) {
      std::error_code ec;
      std::filesystem::remove(impl_->opt.state_file, ec);
    }
    return;
  }
  net::post(impl_->ioc, [impl = impl_.get(), clients] {
    const auto ended = std::make_shared<const std::string>(classroom::EndedMessage());
    for (const auto id : clients) impl->CloseClient(id, ended);
    if (!impl->opt.state_file.empty()) {
      std::error_code ec;
      std::filesystem::remove(impl->opt.state_file, ec);  // the class is over: nothing of it stays on disk
    }
  });
}

std::string ClassServer::ExportCsv() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->room.ExportCsv();
}
std::string ClassServer::ExportJson() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->room.ExportJson();
}

}  // namespace bw::server
