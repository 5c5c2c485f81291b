// The class server's HTTP side: a request target mapped to a file under the web root, the HTTP
// session that serves it (or hands a /class upgrade over to the class WebSocket), and the accept loop.
// [SECTION] Files: request target → file under the web root
// [SECTION] HTTP session
#include "server/class_server_impl.h"

namespace bw::server {

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
      StartClassSession(impl_, stream_.release_socket(), peer_, std::move(req));
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

}  // namespace

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

}  // namespace bw::server
