// ScenarioModel for MoE; see moe_model.h.
// [SECTION] Formatting helpers
// [SECTION] Construction and positions
// [SECTION] Scene
// [SECTION] Panels and placeholders
#include "view/moe_model.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>

#include "view/format.h"

namespace bw::view {

// [SECTION] Formatting helpers ------------------------------------------------------------------------

namespace {

std::string Fraction(std::int64_t num, std::int64_t den) {
  if (den == 0) return "\u2014";
  const std::int64_t g = std::gcd(num, den);
  num /= g, den /= g;
  if (den == 1) return std::to_string(num);
  return std::to_string(num) + "/" + std::to_string(den) + " \u2248 " + FormatDouble(static_cast<double>(num) / den);
}

}  // namespace

std::string FormatParams(std::int64_t n) {
  // Exact when the count is a multiple of the unit's tenth or hundredth; otherwise 3 significant digits.
  const struct {
    std::int64_t unit;
    const char* suffix;
  } units[] = {{1000000000, "B"}, {1000000, "M"}, {1000, "K"}};
  for (const auto& u : units) {
    if (n < u.unit / 10) continue;   // 0.1B and up in B, 0.1M and up in M, …
    char buf[48];
    const long long whole = n / u.unit, rest = n % u.unit;
    if (rest % (u.unit / 10) == 0) std::snprintf(buf, sizeof buf, "%lld.%lld%s", whole, rest / (u.unit / 10), u.suffix);
    else if (rest % (u.unit / 100) == 0) std::snprintf(buf, sizeof buf, "%lld.%02lld%s", whole, rest / (u.unit / 100), u.suffix);
    else std::snprintf(buf, sizeof buf, "%.3g%s", static_cast<double>(n) / static_cast<double>(u.unit), u.suffix);
    return buf;
  }
  return std::to_string(n);
}

// [SECTION] Construction and positions --------------------------------------------------------------

MoeModel::MoeModel(data::MoeScenario sc) : scenario_(std::move(sc)) {
  count_ = engine::CountParameters(scenario_.config);
  routing_ = engine::RouteTopK(scenario_.router);
  if (const auto& d = scenario_.deployment) {
    compute_ = engine::EstimateTrainingCompute(count_, d->training_tokens);
    ep_ = engine::PlanExpertParallel(routing_, d->devices);
    placement_ = engine::PlaceCpuGpu(scenario_.config, d->hidden, d->activation_bytes, d->weight_bits);
    if (d->quantised_bits) placement_q_ = engine::PlaceCpuGpu(scenario_.config, d->hidden, d->activation_bytes, *d->quantised_bits);
  }
}

int MoeModel::EventCount() const {
  return scenario_.deployment ? CpuGpuEvent() + 1 + static_cast<int>(routing_.tokens) : SummaryEvent() + 1;
}

std::int64_t MoeModel::TokenAt(int e) const {
  if (scenario_.deployment && e > CpuGpuEvent()) return std::min<std::int64_t>(e - CpuGpuEvent() - 1, routing_.tokens - 1);
  if (e <= 0 || e > routing_.tokens) return -1;
  return e - 1;
}

std::string MoeModel::EventLabel(int e) const {
  if (e <= 0) return "start";
  if (scenario_.deployment && e >= ComputeEvent()) {
    if (e == ComputeEvent()) return "compute";
    if (e == ExpertParallelEvent()) return "ep:dispatch";
    if (e == ExpertParallelEvent() + 1) return "ep:compute";
    if (e == ExpertParallelEvent() + 2) return "ep:combine";
    if (e == CpuGpuEvent()) return "cpu_gpu";
    const std::int64_t t = TokenAt(e);
    return "cpu_gpu:token:" + std::to_string(t + 1) + " (" + scenario_.token_labels[static_cast<size_t>(t)] + ")";
  }
  if (e > routing_.tokens) return "end";
  return "token:" + std::to_string(e) + " (" + scenario_.token_labels[static_cast<size_t>(e - 1)] + ")";
}

std::vector<data::AcceptedPosition> MoeModel::AcceptedPositions() const {
  using data::PositionForm;
  const int tokens = static_cast<int>(std::min<std::int64_t>(routing_.tokens, data::kMaxPositionNumber));
  std::vector<data::AcceptedPosition> a = {{PositionForm::kStart}, {PositionForm::kToken, false, tokens},
                                           {PositionForm::kEnd}, {PositionForm::kEvent, false, EventCount()}};
  if (scenario_.deployment)
    for (const auto f : {PositionForm::kCompute, PositionForm::kEpDispatch, PositionForm::kEpCompute, PositionForm::kEpCombine,
                         PositionForm::kCpuGpu, PositionForm::kCpuGpuToken})
      a.push_back({f, false, f == PositionForm::kCpuGpuToken ? tokens : 0});
  return a;
}

int MoeModel::Find(const data::Position& p) const {
  using data::PositionForm;
  const bool token_ok = p.n <= routing_.tokens;   // token:N, cpu_gpu:token:N; N ≥ 1 by the grammar
  switch (p.form) {
    case PositionForm::kStart: return 0;
    case PositionForm::kEnd: return SummaryEvent();
    case PositionForm::kToken: return token_ok ? p.n : -1;
    case PositionForm::kEvent: return p.n <= EventCount() ? p.n - 1 : -1;  // 1-based, as every index on screen
    case PositionForm::kCompute: return ComputeEvent();
    case PositionForm::kEpDispatch: return ExpertParallelEvent();
    case PositionForm::kEpCompute: return ExpertParallelEvent() + 1;
    case PositionForm::kEpCombine: return ExpertParallelEvent() + 2;
    case PositionForm::kCpuGpu: return CpuGpuEvent();
    case PositionForm::kCpuGpuToken: return token_ok ? CpuGpuEvent() + p.n : -1;
    default: return -1;
  }
}

std::vector<TimelineMark> MoeModel::BlockMarks() const {
  std::vector<TimelineMark> marks;
  for (int e = 0; e < EventCount(); ++e) marks.push_back({e, EventLabel(e)});
  return marks;
}

// [SECTION] Scene ---------------------------------------------------------------------------------------

namespace {

// The expert boxes, side by side in [x0, x0 + width) from `top` to `bottom`, with their load after the
// tokens routed so far: one unit square per served token, hatched squares for dropped ones, the
// capacity line; the experts the current token `cur` chose in SRAM colour. Returns each expert's
// centre, where the routing arrows end.
std::vector<float> AddExperts(Scene& sc, const engine::RouterResult& routing, std::int64_t expert_params, std::int64_t cur,
                              const std::vector<std::int64_t>& served, const std::vector<std::int64_t>& demand, float x0,
                              float width, float top, float bottom, bool fl, const Palette& pal) {
  const auto box = [&](std::string id, float x, float y, float w, float h, Color fill, TileState st = TileState::kNone) {
    return BoxRect(std::move(id), x, y, w, h, fill, pal, st);
  };
  const auto state_fill = [&](TileState s) { return Style(s, pal).fill; };
  const std::int64_t E = routing.experts;
  const float gap = E > 12 ? 0.15f : 0.5f;
  const float ew = (width - gap * static_cast<float>(E - 1)) / static_cast<float>(E);
  std::int64_t scale_units = std::max<std::int64_t>(1, routing.max_demand);
  if (routing.capacity) scale_units = std::max(scale_units, *routing.capacity);
  // (At the floors the expert's load count keeps a line above its tallest stack.)
  const float unit_h = std::min(1.6f, (bottom - top - (fl ? 6.2f : 3.2f)) / static_cast<float>(scale_units));
  std::vector<float> expert_cx;
  for (std::int64_t x = 0; x < E; ++x) {
    const float ex = x0 + (ew + gap) * static_cast<float>(x);
    expert_cx.push_back(ex + ew / 2);
    bool chosen = false;
    if (cur >= 0)
      for (auto c : routing.routes[static_cast<size_t>(cur)].experts) chosen |= c == x;
    SceneRect r = box("expert." + std::to_string(x + 1), ex, top, ew, bottom - top,
                      chosen ? pal.in_sram : pal.panel_sram, chosen ? TileState::kInSram : TileState::kNone);
    r.border_em = chosen ? pal.line_em * 1.4f : pal.line_em * 0.6f;
    r.label = "E" + std::to_string(x + 1) + (ew >= (fl ? 2.9f : 3.5f) ? "\n" + FormatParams(expert_params) : "");
    r.sublabel = ew >= (fl ? 2.4f : 3.0f) ? std::to_string(served[static_cast<size_t>(x)]) +
                                  (routing.capacity ? "/" + std::to_string(*routing.capacity) : "")
                            : "";
    sc.rects.push_back(r);
    // Load squares, bottom up.
    const std::int64_t n_served = served[static_cast<size_t>(x)], n_dem = demand[static_cast<size_t>(x)];
    const float base = bottom - 1.6f;
    if (scale_units <= kMaxLoadSquares) {
      for (std::int64_t u = 0; u < n_dem; ++u) {
        const bool drop = u >= n_served;
        const TileState s = drop ? TileState::kMasked : TileState::kProcessed;
        sc.rects.push_back(box("load." + std::to_string(x + 1) + "." + std::to_string(u + 1), ex + ew * 0.2f,
                               base - unit_h * static_cast<float>(u + 1), ew * 0.6f, unit_h * 0.85f, state_fill(s), s));
      }
    } else {  // squares thinner than a line: one bar for the served tokens, one for the dropped
      // (4,096 tokens with top-k 256 drew a million squares per frame, 5–8 s a key: issue 31)
      const auto bar = [&](const char* part, std::int64_t from, std::int64_t to, TileState s) {
        if (to > from)
          sc.rects.push_back(box("load." + std::to_string(x + 1) + "." + part, ex + ew * 0.2f, base - unit_h * static_cast<float>(to),
                                 ew * 0.6f, unit_h * static_cast<float>(to - from), state_fill(s), s));
      };
      bar("served", 0, n_served, TileState::kProcessed);
      bar("dropped", n_served, n_dem, TileState::kMasked);
    }
    if (routing.capacity) {  // the capacity line
      SceneRect line = box("capacity." + std::to_string(x + 1), ex + 0.1f,
                           base - unit_h * static_cast<float>(*routing.capacity) - 0.12f, ew - 0.2f, 0.1f, pal.write_arrow);
      line.border = pal.write_arrow;
      line.border_em = 0.02f;
      sc.rects.push_back(line);
    }
  }
  return expert_cx;
}

}  // namespace

Scene MoeModel::BuildScene(int e, const std::string& lang, const Palette& pal, const SceneFrame& frame) const {
  // Laid out for the floors (SceneFrame::floors), the same picture is drawn in a frame of 40 × 15.6 em
  // instead of 56 × 22 (the same shape: every text 1.4 times larger on screen), without the lines the
  // side panel already carries (the accounting, the experts' title) and the event line under the
  // tokens (the timeline names the event).
  const bool fl = frame.floors;
  const float kW = fl ? 40 : 56, kH = fl ? 15.6f : 22, kLeftW = fl ? 10.2f : 13.5f, kRightX = fl ? 10.8f : 14.5f,
              kRightW = kW - kRightX;
  const float kSharedY = fl ? 0.2f : 0.4f, kSharedH = fl ? 2.1f : 2.6f;
  const float kExpTop = fl ? 3.5f : 5.2f, kExpBottom = fl ? kH - 0.3f : 17.6f, kLane = fl ? 3.05f : 4.3f;
  e = std::clamp(e, 0, EventCount() - 1);
  if (scenario_.deployment && e >= ComputeEvent()) {
    Scene d = e == ComputeEvent()  ? BuildComputeScene(lang, pal, fl)
              : e < CpuGpuEvent() ? BuildExpertParallelScene(e - ExpertParallelEvent(), lang, pal, fl)
                                  : BuildCpuGpuScene(e == CpuGpuEvent() ? -1 : TokenAt(e), lang, pal, fl);
    PadSceneEdges(d);  // as below: nothing at the edge is cut off
    return d;
  }
  const std::int64_t cur = TokenAt(e);
  const std::int64_t last = e == 0 ? -1 : std::min<std::int64_t>(e - 1, routing_.tokens - 1);
  const auto served = routing_.AcceptedAfter(last);
  const auto demand = routing_.DemandAfter(last);
  const std::int64_t E = routing_.experts;

  Scene sc;
  sc.width = kW, sc.height = kH;
  sc.floors = fl;
  sc.background = pal.background;
  const auto box = [&](std::string id, float x, float y, float w, float h, Color fill, TileState st = TileState::kNone) {
    return BoxRect(std::move(id), x, y, w, h, fill, pal, st);
  };
  const auto state_fill = [&](TileState s) { return Style(s, pal).fill; };

  // Router panel: the tokens, in order; the one being routed is "in SRAM" colour, done ones green.
  SceneRect left = box("router", 0, 0, kLeftW, kH, pal.panel_hbm);
  left.border_em = pal.line_em;
  sc.rects.push_back(left);
  if (fl) {  // "Router" over "k = 2, C = 3": the long title does not fit the panel at the floors
    sc.texts.push_back({"router.title", 0.4f, 0.2f, 1.0f, pal.text, UiText(Str::moe_router_short, lang)});
    sc.texts.push_back({"router.k", 0.4f, 1.75f, 1.0f, pal.text,
                        "k = " + std::to_string(routing_.top_k) + (routing_.capacity ? ", C = " + std::to_string(*routing_.capacity) : "")});
  } else {
    sc.texts.push_back({"router.title", 0.5f, 0.4f, 0.9f, pal.text, UiText(Str::moe_router, lang)});
    sc.texts.push_back({"router.k", 0.5f, 1.6f, 0.9f, pal.text_muted,
                        "k = " + std::to_string(routing_.top_k) + ",  " +
                            (routing_.capacity ? UiText(Str::moe_capacity, lang) + " C = " + std::to_string(*routing_.capacity)
                                               : UiText(Str::moe_no_capacity, lang))});
  }
  const float token_top = fl ? 3.4f : 3.2f, token_w = fl ? 3.4f : 4.6f;
  const std::int64_t shown = std::min<std::int64_t>(routing_.tokens, fl ? 7 : 12);
  const float row_h = std::min(fl ? 1.75f : 2.0f, (kH - token_top - (fl ? 0.4f : 0.8f)) / static_cast<float>(std::max<std::int64_t>(shown, 1)));
  std::vector<float> token_y;
  for (std::int64_t t = 0; t < shown; ++t) {
    const TileState s = t == cur ? TileState::kInSram : (t <= last ? TileState::kProcessed : TileState::kPending);
    const float y = token_top + row_h * static_cast<float>(t);
    SceneRect r = box("token." + std::to_string(t + 1), 0.4f, y, token_w, row_h * 0.86f, state_fill(s), s);
    r.label = scenario_.token_labels[static_cast<size_t>(t)];
    sc.rects.push_back(r);
    token_y.push_back(y + row_h * 0.41f);
    if (t <= last) {  // where it went: "E2, E5" (a dropped assignment struck with ×)
      const auto& rt = routing_.routes[static_cast<size_t>(t)];
      std::string to = "\u2192 ";
      for (size_t s2 = 0; s2 < rt.experts.size(); ++s2)
        to += (s2 ? ", " : "") + std::string("E") + std::to_string(rt.experts[s2] + 1) + (rt.dropped[s2] ? "\u00d7" : "");
      sc.texts.push_back({"token.to." + std::to_string(t + 1), token_w + (fl ? 0.6f : 1.0f), y + 0.1f, 0.85f, pal.text, to});
    }
  }
  if (routing_.tokens > shown)
    sc.texts.push_back({"token.more", 0.6f, token_top + row_h * static_cast<float>(shown), 0.8f, pal.text_muted,
                        "\u2026 +" + std::to_string(routing_.tokens - shown)});

  // Shared block: every token passes through it.
  SceneRect shared = box("shared", kRightX, kSharedY, kRightW, kSharedH, pal.processed);
  shared.label = UiText(Str::moe_shared, lang) + "  " + FormatParams(scenario_.config.shared_params);
  sc.rects.push_back(shared);

  // Expert boxes with their load: one unit square per served token, hatched squares for dropped ones.
  const std::vector<float> expert_cx =
      AddExperts(sc, routing_, scenario_.config.expert_params, cur, served, demand, kRightX, kRightW, kExpTop, kExpBottom, fl, pal);
  if (!fl) {
  sc.texts.push_back({"experts.title", kRightX, kExpBottom + 0.3f, 0.9f, pal.text_muted,
                      UiText(Str::moe_experts_title, lang) + ": " + std::to_string(E) + " \u00d7 " +
                          FormatParams(scenario_.config.expert_params) + (routing_.capacity ? "   \u2014 " + UiText(Str::moe_capacity, lang) + " C = " + std::to_string(*routing_.capacity) : "")});

  // Accounting line along the bottom.
  const auto& c = scenario_.config;
  sc.texts.push_back({"accounting.total", kRightX, kH - 2.6f, 1.0f, pal.text,
                      UiText(Str::moe_total, lang) + " = " + FormatParams(c.shared_params) + " + " + std::to_string(c.experts) +
                          " \u00d7 " + FormatParams(c.expert_params) + " = " + FormatParams(count_.total)});
  sc.texts.push_back({"accounting.active", kRightX, kH - 1.3f, 1.0f, pal.text,
                      UiText(Str::moe_active, lang) + " = " + FormatParams(c.shared_params) + " + " + std::to_string(c.top_k) +
                          " \u00d7 " + FormatParams(c.expert_params) + " = " + FormatParams(count_.active_per_token)});
  }

  // Arrows: the current token to each chosen expert (blue: served, red: dropped over capacity).
  if (cur >= 0 && cur < shown) {
    const auto& rt = routing_.routes[static_cast<size_t>(cur)];
    for (size_t s = 0; s < rt.experts.size(); ++s) {
      const std::int64_t x = rt.experts[s];
      const float cx = expert_cx[static_cast<size_t>(x)] + (static_cast<float>(s) - 0.5f) * 0.4f;
      const float ty = token_y[static_cast<size_t>(cur)];
      const float lane = kLane - 0.55f * static_cast<float>(s);
      SceneArrow a;
      a.id = "route." + std::to_string(s + 1);
      a.kind = rt.dropped[s] ? ArrowKind::kWrite : ArrowKind::kRead;
      a.color = rt.dropped[s] ? pal.write_arrow : pal.read_arrow;
      a.points = {{kLeftW - 0.2f, ty}, {kLeftW + 0.4f + 0.3f * static_cast<float>(s), ty},
                  {kLeftW + 0.4f + 0.3f * static_cast<float>(s), lane}, {cx, lane}, {cx, kExpTop}};
      // (No label: a gate wider than the box sat on its border and the other arrow, a helper; the
      // gates are in the token's panel section, "gates", and the × on the router's line.)
      sc.arrows.push_back(a);
    }
  }
  // The event, at the foot of the router panel (the accounting lines own the right-hand foot).
  if (!fl)
  sc.texts.push_back({"event", 0.5f, kH - 1.4f, 0.8f, pal.text_muted,
                      UiText(Str::event, lang) + " " + std::to_string(e + 1) + "/" + std::to_string(EventCount()) + ": " +
                          (e == 0 ? UiText(Str::moe_before, lang) : e > routing_.tokens ? UiText(Str::moe_summary, lang) : EventTitle(e, lang))});
  // The shared bar and the experts span the whole width: keep their borders and a step's highlight
  // outline inside the box (the walk-through saw E8's edge and the shared bar's outline cut off).
  PadSceneEdges(sc);
  return sc;
}

// [SECTION] Panels and placeholders ---------------------------------------------------------------------

Quantities MoeModel::QuantitiesAt(int e) const {
  e = std::clamp(e, 0, EventCount() - 1);
  Quantities q;
  const auto& c = scenario_.config;
  q["shared_params"] = FormatParams(c.shared_params);
  q["expert_params"] = FormatParams(c.expert_params);
  q["experts"] = std::to_string(c.experts);
  q["top_k"] = std::to_string(c.top_k);
  q["total_params"] = FormatParams(count_.total);
  q["active_params"] = FormatParams(count_.active_per_token);
  q["idle_params"] = FormatParams(count_.idle_per_token);
  q["experts_total_params"] = FormatParams(count_.experts_total);
  q["experts_active_params"] = FormatParams(count_.experts_active);
  q["total_params_exact"] = FormatInt(count_.total);
  q["active_params_exact"] = FormatInt(count_.active_per_token);
  q["active_fraction"] = Fraction(count_.active_per_token, count_.total);
  q["tokens"] = std::to_string(routing_.tokens);
  q["assignments"] = std::to_string(routing_.assignments);
  q["capacity"] = routing_.capacity ? std::to_string(*routing_.capacity) : "\u221e";
  q["capacity_factor"] = scenario_.capacity_factor ? Fraction(scenario_.capacity_factor->first, scenario_.capacity_factor->second)
                                                   : "\u2014";
  q["dropped_assignments"] = std::to_string(routing_.dropped_assignments);
  q["tokens_fully_dropped"] = std::to_string(routing_.tokens_fully_dropped);
  q["max_demand"] = std::to_string(routing_.max_demand);
  q["mean_demand"] = Fraction(routing_.assignments, routing_.experts);
  q["imbalance"] = Fraction(routing_.imbalance_num, routing_.imbalance_den);
  q["demand"] = FormatIntTuple(routing_.demand);
  q["served"] = FormatIntTuple(routing_.accepted);
  const std::int64_t last = e == 0 ? -1 : std::min<std::int64_t>(e - 1, routing_.tokens - 1);
  const auto now = routing_.AcceptedAfter(last);
  q["served_now"] = FormatIntTuple(now);
  for (std::int64_t x = 0; x < routing_.experts; ++x) {
    const std::string k = std::to_string(x + 1);
    q["demand:" + k] = std::to_string(routing_.demand[static_cast<size_t>(x)]);
    q["served:" + k] = std::to_string(routing_.accepted[static_cast<size_t>(x)]);
    q["dropped:" + k] = std::to_string(routing_.dropped[static_cast<size_t>(x)]);
    q["load_now:" + k] = std::to_string(now[static_cast<size_t>(x)]);
  }
  const std::int64_t cur = TokenAt(e);
  if (cur < 0) {
    q["token"] = q["token_experts"] = q["token_gates"] = q["token_dropped"] = "\u2014";
  } else {
    const auto& rt = routing_.routes[static_cast<size_t>(cur)];
    q["token"] = scenario_.token_labels[static_cast<size_t>(cur)];
    std::string ex, g, d;
    int nd = 0;
    for (size_t s = 0; s < rt.experts.size(); ++s) {
      ex += (s ? ", " : "") + std::string("E") + std::to_string(rt.experts[s] + 1);
      g += (s ? ", " : "") + FormatDouble(rt.gates[s]);
      if (rt.dropped[s]) d += (nd++ ? ", " : "") + std::string("E") + std::to_string(rt.experts[s] + 1);
    }
    q["token_experts"] = ex;
    q["token_gates"] = g;
    q["token_dropped"] = nd ? d : "\u2014";
  }
  if (scenario_.deployment) AddDeploymentQuantities(q);
  return q;
}

std::vector<PanelSection> MoeModel::Panels(int e, const std::string& lang) const {
  const auto q = QuantitiesAt(e);
  std::vector<PanelSection> out;
  PanelSection p;
  p.id = "params";
  p.title = UiText(Str::moe_panel_params, lang);
  p.rows.push_back({UiText(Str::moe_shared, lang), q.at("shared_params")});
  p.rows.push_back({UiText(Str::moe_experts_title, lang), q.at("experts") + " \u00d7 " + q.at("expert_params") + " = " + q.at("experts_total_params")});
  p.rows.push_back({UiText(Str::moe_total, lang), q.at("total_params") + " (" + q.at("total_params_exact") + ")"});
  p.rows.push_back({UiText(Str::moe_active, lang) + " (k = " + q.at("top_k") + ")",
                    q.at("shared_params") + " + " + q.at("top_k") + " \u00d7 " + q.at("expert_params") + " = " + q.at("active_params")});
  p.rows.push_back({UiText(Str::moe_active_share, lang), q.at("active_params") + " / " + q.at("total_params") + " = " + q.at("active_fraction")});
  // Answers MOE/e1, name and all: "stored, unused by this token" says the experts not picked stay stored.
  p.rows.push_back({UiText(Str::moe_idle_params, lang), q.at("idle_params"), false, -1, true, true});
  out.push_back(p);

  PanelSection t;
  t.id = "token";
  t.title = UiText(Str::moe_panel_token, lang);
  t.rows.push_back({UiText(Str::event, lang), std::to_string(e + 1) + "/" + std::to_string(EventCount()) + ": " + EventTitle(e, lang)});
  t.rows.push_back({UiText(Str::moe_token, lang), q.at("token")});
  t.rows.push_back({UiText(Str::moe_selected, lang), q.at("token_experts")});
  t.rows.push_back({UiText(Str::moe_gates, lang), q.at("token_gates")});
  PanelRow over{UiText(Str::moe_over, lang), q.at("token_dropped")};
  over.notice = q.at("token_dropped") != "\u2014";   // dropped at capacity: a cost the plan names, not a mistake
  t.rows.push_back(over);
  t.rows.push_back({UiText(Str::moe_idle_params, lang), q.at("idle_params"), false, -1, true, true});   // MOE/e2 quotes it
  out.push_back(t);

  PanelSection r;
  r.id = "router";
  r.title = UiText(Str::moe_panel_router, lang);
  r.columns = {UiText(Str::moe_expert, lang), UiText(Str::moe_served, lang), UiText(Str::moe_demand, lang), UiText(Str::moe_dropped, lang)};
  const std::int64_t last = e == 0 ? -1 : std::min<std::int64_t>(e - 1, routing_.tokens - 1);
  const auto now = routing_.AcceptedAfter(last), dem = routing_.DemandAfter(last);
  for (std::int64_t x = 0; x < routing_.experts; ++x) {
    const auto d = dem[static_cast<size_t>(x)] - now[static_cast<size_t>(x)];
    PanelRow row{"E" + std::to_string(x + 1), std::to_string(now[static_cast<size_t>(x)]) + "\t" +
                                                   std::to_string(dem[static_cast<size_t>(x)]) + "\t" + std::to_string(d)};
    row.notice = d > 0;   // over its capacity (MOE/e4): marked, not "wrong"
    r.rows.push_back(row);
  }
  out.push_back(r);

  PanelSection s;
  s.id = "summary";
  s.title = UiText(Str::moe_panel_summary, lang);
  s.rows.push_back({UiText(Str::moe_tokens, lang) + " \u00d7 k", q.at("tokens") + " \u00d7 " + q.at("top_k") + " = " + q.at("assignments")});
  s.rows.push_back({UiText(Str::moe_demand_per_expert, lang), q.at("demand")});
  s.rows.push_back({UiText(Str::moe_mean_demand, lang), q.at("mean_demand")});
  s.rows.push_back({UiText(Str::moe_capacity, lang), q.at("capacity")});
  s.rows.push_back({UiText(Str::moe_served_per_expert, lang), q.at("served")});
  PanelRow dropped{UiText(Str::moe_dropped, lang), q.at("dropped_assignments")};
  dropped.notice = q.at("dropped_assignments") != "0";
  s.rows.push_back(dropped);
  s.rows.push_back({UiText(Str::moe_imbalance, lang), q.at("imbalance")});
  out.push_back(s);
  if (scenario_.deployment) {
    auto more = DeploymentPanels(e, lang);
    out.insert(out.end(), more.begin(), more.end());
  }
  return out;
}

std::vector<std::string> MoeModel::Texts() const {
  std::vector<std::string> texts;   // the fixed words are in the UI table (AllUiTexts)
  texts.push_back(scenario_.title.zh);
  texts.push_back(scenario_.title.en);
  texts.push_back(scenario_.file);
  texts.push_back(PositionHelp());
  for (const auto& l : scenario_.token_labels) texts.push_back(l);
  for (int e = 0; e < std::min(EventCount(), 64); ++e) {
    texts.push_back(EventLabel(e));
    for (const auto* lang : {"zh", "en"}) {
      AppendPanelTexts(Panels(e, lang), texts);
      const auto sc = BuildScene(e, lang, ClassroomPalette());
      for (const auto& t : sc.texts) texts.push_back(t.text);
      for (const auto& r : sc.rects) texts.push_back(r.label + r.sublabel);
      for (const auto& a : sc.arrows) texts.push_back(a.label);
    }
  }
  return texts;
}

}  // namespace bw::view
