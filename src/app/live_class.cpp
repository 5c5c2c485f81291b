#include "app/live_class.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <qrencode.h>

#include <imgui.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "app/class_panel.h"
#include "app/export.h"
#include "app/paths.h"
#include "app/toast.h"
#include "data/atomic_write.h"
#include "data/json_file.h"
#include "data/user_file.h"
#include "server/class_server.h"
#include "view/ui_text.h"

namespace bw::app {

namespace fs = std::filesystem;

std::string FindWebRoot() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("BLOCKWISE_WEB_ROOT"); env && *env) candidates.emplace_back(env);
  if (!Root().empty()) {
    candidates.push_back(fs::path(Root()) / "web");
    candidates.push_back(fs::path(Root()) / "build-web");
  }
  std::error_code ec;
  for (const auto& c : candidates)
    if (fs::is_regular_file(c / "index.html", ec) && fs::is_regular_file(c / "blockwise.js", ec)) return fs::absolute(c, ec).string();
  return "";
}

std::vector<std::uint8_t> EncodeQr(const std::string& text, int* size) {
  *size = 0;
  QRcode* code = QRcode_encodeString8bit(text.c_str(), 0, QR_ECLEVEL_M);
  if (!code) return {};
  std::vector<std::uint8_t> out(static_cast<size_t>(code->width) * static_cast<size_t>(code->width));
  for (size_t i = 0; i < out.size(); ++i) out[i] = code->data[i] & 1;   // bit 0: dark
  *size = code->width;
  QRcode_free(code);
  return out;
}

std::vector<std::string> ClassAddresses() {
  std::vector<std::string> out, loopback;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return {"127.0.0.1 (lo)"};
  for (const ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET || !(a->ifa_flags & IFF_UP)) continue;
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(a->ifa_addr)->sin_addr, text, sizeof text);
    (a->ifa_flags & IFF_LOOPBACK ? loopback : out).push_back(std::string(text) + " (" + a->ifa_name + ")");
  }
  freeifaddrs(list);
  out.insert(out.end(), loopback.begin(), loopback.end());
  if (out.empty()) out.push_back("127.0.0.1 (lo)");
  return out;
}

LiveClass::LiveClass() = default;
LiveClass::~LiveClass() = default;

namespace {

// "ADDRESS", "ADDRESS:PORT", "[IPv6]" or "[IPv6]:PORT" → address and port (0: any free one).
bool SplitWhere(const std::string& where, std::string& address, unsigned short& port) {
  std::string port_text;
  if (!where.empty() && where.front() == '[') {
    const size_t close = where.find(']');
    if (close == std::string::npos) return false;
    address = where.substr(1, close - 1);
    if (close + 1 < where.size()) {
      if (where[close + 1] != ':') return false;
      port_text = where.substr(close + 2);
    }
  } else if (const size_t colon = where.find(':'); colon != std::string::npos && where.find(':', colon + 1) == std::string::npos) {
    address = where.substr(0, colon);
    port_text = where.substr(colon + 1);
  } else {
    address = where;
  }
  port = 0;
  if (port_text.empty()) return !address.empty();
  if (port_text.size() > 5 || port_text.find_first_not_of("0123456789") != std::string::npos) return false;
  const int p = std::stoi(port_text);
  if (p > 65535) return false;
  port = static_cast<unsigned short>(p);
  return !address.empty();
}

// The machine's IPv4 addresses that students could reach, with their interface ("192.168.1.20 (wlan0)").
std::string InterfaceAddresses() {
  std::string out;
  for (const auto& a : ClassAddresses())
    if (a.rfind("127.", 0) != 0) out += (out.empty() ? "" : ", ") + a;
  return out;
}

// A named mistake's words on the teacher's screens: the check names it by the quantity it equals.
std::string MistakeLabel(const std::string& quantity, const std::string& lang) {
  if (quantity == "average") return view::UiText(view::Str::class_mistake_average, lang);
  if (quantity == "total_tiles_computed") return view::UiText(view::Str::class_mistake_computed, lang);
  return quantity;
}

}  // namespace

std::string LiveClass::Start(const std::string& where, AppState& s, const std::string& state_file, std::string* warning) {
  const auto& lang = s.options.lang;
  if (server_) return "";
  server::ServerOptions opt;
  if (!SplitWhere(where, opt.address, opt.port)) return view::UiFormat(view::Str::class_bad_address, lang, {where});
  // Every interface at once would put an address nobody can open on the join card (http://0.0.0.0/),
  // and open the port on networks the teacher did not pick: name one.
  if (opt.address == "0.0.0.0" || opt.address == "::") {
    const std::string here = InterfaceAddresses();
    return view::UiFormat(view::Str::class_any_address, lang, {where, here.empty() ? "127.0.0.1" : here});
  }
  opt.web_root = FindWebRoot();
  if (opt.web_root.empty()) return view::UiFormat(view::Str::class_no_web, lang, {"scripts/web --build-only"});
  opt.state_file = state_file;
  // A class the app left running (closed or crashed mid-class): the same code, students and answers.
  std::optional<classroom::ClassRoom> room;
  std::error_code ec;
  if (!state_file.empty() && fs::exists(state_file, ec)) {
    try {
      room = classroom::ClassRoom::Resume(state_file);
      if (room->ended()) room.reset();
    } catch (const std::exception& e) {
      // Only a class state is ever moved aside: any other file (the open lesson named by mistake)
      // is left as it is and no class starts (it was renamed to .bad and overwritten: issue 31).
      // (A damaged one still names its schema, even cut short.)
      bool ours = false;
      try {
        ours = data::ReadUserFile(state_file, data::kMaxFileBytes, "a class state").find("\"blockwise-class-state\"") != std::string::npos;
      } catch (const std::exception&) {
      }
      if (!ours) return view::UiFormat(view::Str::class_state_foreign, lang, {state_file});
      const std::string aside = state_file + ".bad";
      fs::rename(state_file, aside, ec);
      if (warning) *warning = view::UiFormat(view::Str::class_state_bad, lang, {aside, e.what()});
    }
  }
  const bool resumed = room.has_value();
  if (resumed) {
    // Back where the class was (the step, its event and reveal), whatever --step opened.
    const auto& t = room->teacher_state();
    controls_ = {t.pacing_lock, t.round, t.voting_closed};
    classroom::RestoreTeacherState(s, t);
  }
  auto srv = std::make_unique<server::ClassServer>(opt, std::move(room));
  if (const std::string err = srv->Start(); !err.empty()) return view::UiFormat(view::Str::class_not_started, lang, {err});
  server_ = std::move(srv);
  auto& v = s.ui.live_class;
  v = {};
  v.live = true;
  v.resumed = resumed;
  v.url = server_->Url();
  v.code = server_->code();
  // The QR code carries the code after a '#': the page fills it in (a fragment never reaches a server).
  v.qr = EncodeQr(v.url + "#code=" + v.code, &v.qr_size);
  any_published_ = false;
  next_view_s_ = 0;
  return "";
}

void LiveClass::DoRequests(AppState& s, double now_s) {
  auto& v = s.ui.live_class;
  auto& w = v.want;
  if (w.toggle_lock) controls_.pacing_lock = !controls_.pacing_lock;
  if (w.new_round && controls_.round < classroom::kMaxVoteRound) {
    ++controls_.round;
    controls_.voting_closed = false;
    v.project = false;   // a new vote: the last one's distribution would steer it
  }
  if (w.toggle_vote) controls_.voting_closed = !controls_.voting_closed;
  if (w.toggle_project) v.project = !v.project;
  if (!w.remove.empty()) server_->RemoveDevice(w.remove);
  if (w.export_results) {
    // Into the export folder, named by the class's code and the time: nothing else leaves the class.
    std::string line = MakeExportFolder(s);
    if (line.empty()) {
      const std::time_t now = std::time(nullptr);
      char stamp[32];
      std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
      const fs::path folder = fs::path(ExportPath(s, "")).parent_path();
      const fs::path csv = folder / ("blockwise-class-" + v.code + "-" + stamp + ".csv");
      const fs::path json = folder / ("blockwise-class-" + v.code + "-" + stamp + ".json");
      try {
        data::WriteFileAtomically(csv, server_->ExportCsv());
        data::WriteFileAtomically(json, server_->ExportJson());
        line = view::UiFormat(view::Str::class_exported, s.options.lang, {csv.string() + ", " + json.filename().string()});
      } catch (const std::exception& e) {
        line = e.what();
      }
    }
    ShowToast(s, line, now_s);
  }
  const bool end = w.end_class;
  w = {};
  if (end) Stop(s);
}

void LiveClass::Frame(AppState& s, double now_s) {
  if (!server_) return;
  DoRequests(s, now_s);
  if (!server_) return;   // the teacher ended the class
  classroom::TeacherState t = classroom::TeacherStateOf(s, controls_);
  // A new step opens its question at round 1; the last step's projection does not carry over.
  if (any_published_ && (t.step != published_.step || t.card != published_.card)) {
    controls_.round = 1;
    controls_.voting_closed = false;
    s.ui.live_class.project = false;
    t = classroom::TeacherStateOf(s, controls_);
  }
  const bool changed = !any_published_ || !(t == published_);
  if (changed) {
    server_->Publish(t, classroom::QuestionNow(s));
    published_ = t;
    any_published_ = true;
  }
  if (now_s < next_view_s_ && !changed) return;
  next_view_s_ = now_s + 0.25;
  Refresh(s, t);
}

bool LiveClass::Poll(AppState& s, double now_s) {
  if (!server_ || !any_published_ || now_s < next_view_s_) return false;
  next_view_s_ = now_s + 0.25;
  const Transient::LiveClassView before = s.ui.live_class;
  Refresh(s, published_);
  return !(s.ui.live_class == before);
}

void LiveClass::Refresh(AppState& s, const classroom::TeacherState& t) {
  auto& v = s.ui.live_class;
  const auto& lang = s.options.lang;
  const server::ServerCounts c = server_->counts();
  v.students = c.students;
  v.connected = c.connected;
  v.pacing_lock = controls_.pacing_lock;
  v.round = controls_.round;
  v.voting_closed = controls_.voting_closed;
  v.roster.clear();
  v.roster_tokens.clear();
  for (const auto& r : server_->Roster()) {
    v.roster.push_back(r.token.substr(0, 6) + (r.nickname.empty() ? "" : "  " + r.nickname) + "  \u00b7  " +
                       view::UiText(!r.connected ? view::Str::class_offline
                                    : r.following ? view::Str::class_following
                                                  : view::Str::class_exploring,
                                    lang));
    v.roster_tokens.push_back(r.token);
  }
  const auto log = server_->LogLines();
  v.log.assign(log.size() > 8 ? log.end() - 8 : log.begin(), log.end());
  v.histogram.clear();
  v.bars.clear();
  v.bars_step = t.step;
  v.bars_total = 0;
  if (t.step.empty()) return;
  for (int round = 1; round < t.round; ++round)
    if (const auto h = server_->HistogramOf(t.step, round))
      v.histogram.push_back(view::UiFormat(view::Str::class_round_earlier, lang,
                                           {std::to_string(round), std::to_string(h->total), std::to_string(h->right)}));
  const auto h = server_->HistogramOf(t.step, t.round);
  if (!h) return;
  v.bars_total = h->total;
  v.histogram.push_back(view::UiFormat(view::Str::class_answers, lang,
                                       {std::to_string(h->total), std::to_string(h->right), std::to_string(h->wrong)}));
  for (const auto& a : h->answers) {
    std::string mistake;
    if (a.mistake >= 0 && a.mistake < static_cast<int>(h->mistakes.size()))
      mistake = MistakeLabel(h->mistakes[static_cast<size_t>(a.mistake)].name, lang);
    v.bars.push_back({a.answer, a.count, a.verdict == view::CheckVerdict::kRight, mistake});
  }
}

void LiveClass::Stop(AppState& s) {
  if (!server_) return;
  server_->EndClass();
  server_->Stop();
  server_.reset();
  s.ui.live_class = {};
}

}  // namespace bw::app
