// The class server: HTTP files + the class WebSocket on one Asio thread; see class_server.h.
// [SECTION] WebSocket session
// [SECTION] Impl: the server thread, the class's mutex, the log (the struct: class_server_impl.h)
// [SECTION] Listener and the teacher's API
// (The web root's files, the HTTP session and the accept loop: class_server_http.cpp.)
#include "server/class_server_impl.h"

#include <algorithm>

#include "data/atomic_write.h"
#include "data/json_file.h"

namespace bw::server {

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

// [SECTION] Impl: the server thread, the class's mutex, the log

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

void StartClassSession(std::shared_ptr<ClassServer::Impl> impl, tcp::socket&& socket, std::string peer,
                       http::request<http::empty_body>&& upgrade) {
  std::make_shared<WsSession>(std::move(impl), std::move(socket), std::move(peer))->Run(std::move(upgrade));
}

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
