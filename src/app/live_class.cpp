#include "app/live_class.h"

#include <qrencode.h>

#include <imgui.h>

#include <cstdlib>
#include <filesystem>

#include "app/paths.h"
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

}  // namespace

std::string LiveClass::Start(const std::string& where, AppState& s) {
  const auto& lang = s.options.lang;
  if (server_) return "";
  server::ServerOptions opt;
  if (!SplitWhere(where, opt.address, opt.port)) return view::UiFormat(view::Str::class_bad_address, lang, {where});
  opt.web_root = FindWebRoot();
  if (opt.web_root.empty()) return view::UiFormat(view::Str::class_no_web, lang, {"scripts/web --build-only"});
  auto srv = std::make_unique<server::ClassServer>(opt);
  if (const std::string err = srv->Start(); !err.empty()) return view::UiFormat(view::Str::class_not_started, lang, {err});
  server_ = std::move(srv);
  auto& v = s.ui.live_class;
  v = {};
  v.live = true;
  v.url = server_->Url();
  v.code = server_->code();
  // The QR code carries the code after a '#': the page can fill it in (a fragment never reaches a server).
  v.qr = EncodeQr(v.url + "#code=" + v.code, &v.qr_size);
  any_published_ = false;
  next_view_s_ = 0;
  return "";
}

void LiveClass::Frame(AppState& s, double now_s) {
  if (!server_) return;
  const classroom::TeacherState t = classroom::TeacherStateOf(s, controls_);
  if (!any_published_ || !(t == published_)) {
    server_->Publish(t, classroom::QuestionNow(s));
    published_ = t;
    any_published_ = true;
  }
  if (now_s < next_view_s_) return;
  next_view_s_ = now_s + 0.25;
  auto& v = s.ui.live_class;
  const server::ServerCounts c = server_->counts();
  v.students = c.students;
  v.connected = c.connected;
  v.histogram.clear();
  const auto& lang = s.options.lang;
  if (t.step.empty()) return;
  const auto h = server_->HistogramOf(t.step, t.round);
  if (!h) return;
  v.histogram.push_back(view::UiFormat(view::Str::class_answers, lang,
                                       {std::to_string(h->total), std::to_string(h->right), std::to_string(h->wrong)}));
  for (const auto& a : h->answers) {
    const bool right = a.verdict == view::CheckVerdict::kRight;
    std::string line = (right ? "\u2713 " : "\u00d7 ") + a.answer + "  \u2014  " + std::to_string(a.count);
    if (a.mistake >= 0 && a.mistake < static_cast<int>(h->mistakes.size()))
      line += "  (" + h->mistakes[static_cast<size_t>(a.mistake)].name + ")";
    v.histogram.push_back(line);
  }
}

void LiveClass::Stop(AppState& s) {
  if (!server_) return;
  server_->EndClass();
  server_->Stop();
  server_.reset();
  s.ui.live_class = {};
}

void DrawJoinCard(const AppState& s, float scale) {
  const auto& v = s.ui.live_class;
  // On the title and end cards and the start screen always; over a step when the teacher asks (J): it
  // would cover the side panel's rows.
  if (!v.live || s.ui.blank || !(s.ui.show_join_card || s.OnTitleCard() || s.OnEndCard() || s.ui.show_library)) return;
  const auto& lang = s.options.lang;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float module = std::max(3.0f, std::floor(6.0f * scale));   // px per QR module: ~200 px at 1080p
  const float qr_px = module * static_cast<float>(v.qr_size + 8);   // with the 4-module quiet zone each side
  ImGui::SetNextWindowPos(ImVec2(display.x - 8, display.y - 8), ImGuiCond_Always, ImVec2(1, 1));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(255, 255, 255, 250));
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(20, 20, 20, 255));
  ImGui::Begin("##join", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs);
  ImGui::TextUnformatted(view::UiText(view::Str::class_join, lang).c_str());
  ImGui::TextUnformatted(v.url.c_str());
  // The code read from the back row: twice the card's text.
  ImGui::SetWindowFontScale(2.0f);
  ImGui::TextUnformatted((view::UiText(view::Str::class_code, lang) + "  " + v.code).c_str());
  ImGui::SetWindowFontScale(1.0f);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  auto* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, ImVec2(at.x + qr_px, at.y + qr_px), IM_COL32(255, 255, 255, 255));
  for (int y = 0; y < v.qr_size; ++y)
    for (int x = 0; x < v.qr_size;) {   // a run of dark modules as one rectangle
      if (!v.qr[static_cast<size_t>(y * v.qr_size + x)]) {
        ++x;
        continue;
      }
      int end = x;
      while (end < v.qr_size && v.qr[static_cast<size_t>(y * v.qr_size + end)]) ++end;
      const float x0 = at.x + module * static_cast<float>(x + 4), y0 = at.y + module * static_cast<float>(y + 4);
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + module * static_cast<float>(end - x), y0 + module), IM_COL32(0, 0, 0, 255));
      x = end;
    }
  ImGui::Dummy(ImVec2(qr_px, qr_px));
  ImGui::TextUnformatted(view::UiFormat(view::Str::class_students, lang, {std::to_string(v.students)}).c_str());
  ImGui::End();
  ImGui::PopStyleColor(2);
}

}  // namespace bw::app
