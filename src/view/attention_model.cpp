// ScenarioModel for full attention; see attention_model.h. The model is split by phase:
//   attention_runs.cpp    the engine runs, formulas and the check (shared with blockwise-cli)
//   attention_states.cpp  tile states at an event (prefix snapshots)
//   attention_scene.cpp   the HBM/SRAM diagram
//   attention_panels.cpp  placeholders, side panels, heatmap
//   this file             construction, events and positions, timeline marks, texts
#include "view/attention_model.h"

#include <algorithm>
#include <cstdio>

namespace bw::view {

using engine::EventKind;
using engine::Tensor;

namespace {

std::optional<Tensor> TensorByName(const std::string& name) {
  for (int t = 0; t < engine::kTensorCount; ++t)
    if (name == engine::ToString(static_cast<Tensor>(t))) return static_cast<Tensor>(t);
  return std::nullopt;
}

}  // namespace

// [SECTION] Construction and positions ------------------------------------------------------------

AttentionModel::AttentionModel(data::AttentionScenario sc)
    : scenario_(std::move(sc)), runs_(RunAttentionScenario(scenario_, AttentionRunChoice{})) {
  states_ = TileStateTrack(runs_.run.trace, Tiled() ? runs_.t_r : 1, Tiled() ? runs_.t_c : 1);
  if (const auto* b = BwdTrace()) {
    bwd_states_ = TileStateTrack(*b, runs_.t_r, runs_.t_c);
    bwd_chip_ = BackwardOnChipAt(*b);
  }
}

const engine::AttentionTrace* AttentionModel::BwdTrace() const {
  return runs_.bwd_recompute && !runs_.bwd_recompute->trace.empty() ? &runs_.bwd_recompute->trace : nullptr;
}

int AttentionModel::EventCount() const {
  return std::max<int>(1, FwdCount() + (BwdTrace() ? static_cast<int>(BwdTrace()->size()) : 0));
}

namespace {

// logits_given: the trace reads S tiles (AttentionProblem::logits_given) instead of computing them.
std::string Label(const engine::AttentionEvent& ev, bool logits_given = false) {
  const auto blk = [](const char* name, std::int32_t idx) {
    return std::string(name) + (idx >= 0 ? "_" + std::to_string(idx + 1) : "");
  };
  switch (ev.kind) {
    case EventKind::kRead:
    case EventKind::kWrite: {
      const Tensor t = ev.tensor;
      const std::int32_t idx = RowSide(t) ? ev.i : (t == Tensor::kS || t == Tensor::kP ? -1 : ev.j);
      const std::string what = t == Tensor::kS && ev.i >= 0 && ev.j >= 0   // a tile of given logits
                                   ? "S_" + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1)
                                   : blk(engine::ToString(t), idx);
      return std::string(ev.kind == EventKind::kRead ? "read " : "write ") + what;
    }
    case EventKind::kComputeS:
      return (logits_given ? "logits S_" : "S_") + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1) +
             (logits_given ? "" : " = Q K^T");
    case EventKind::kSkipTile: return "skip (" + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1) + ")";
    case EventKind::kUpdateMLU: return "merge (" + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1) + ")";
    case EventKind::kFinalise: return "O_" + std::to_string(ev.i + 1) + " = u/l";
    case EventKind::kInitialise: return std::string("init ") + engine::ToString(ev.tensor);
    case EventKind::kComputeFull: return std::string("compute ") + engine::ToString(ev.tensor);
    case EventKind::kComputeGrads: return "grads (" + std::to_string(ev.i + 1) + "," + std::to_string(ev.j + 1) + ")";
  }
  return "?";
}

// A position in one trace (event indices local to it): tile:I,J, read:T[:I], write:T[:I], compute:T.
int FindIn(const engine::AttentionTrace& tr, const std::string& pos) {
  const int n = static_cast<int>(tr.size());
  const auto starts = [&](const char* p) { return pos.rfind(p, 0) == 0; };
  if (starts("tile:")) {
    int I = 0, J = 0;
    if (std::sscanf(pos.c_str() + 5, "%d,%d", &I, &J) != 2) return -1;
    for (int e = 0; e < n; ++e) {
      const auto& ev = tr[static_cast<size_t>(e)];
      if ((ev.kind == EventKind::kUpdateMLU || ev.kind == EventKind::kComputeGrads || ev.kind == EventKind::kSkipTile) &&
          ev.i == I - 1 && ev.j == J - 1)
        return e;
    }
    return -1;
  }
  for (const auto& [prefix, kind] : {std::pair{"read:", EventKind::kRead}, std::pair{"write:", EventKind::kWrite},
                                     std::pair{"compute:", EventKind::kComputeFull}}) {
    if (!starts(prefix)) continue;
    std::string rest = pos.substr(std::string(prefix).size());
    int block = -1;
    if (const auto colon = rest.find(':'); colon != std::string::npos) {
      try {
        block = std::stoi(rest.substr(colon + 1)) - 1;
      } catch (...) {
        return -1;
      }
      rest = rest.substr(0, colon);
    }
    const auto t = TensorByName(rest);
    if (!t) return -1;
    for (int e = 0; e < n; ++e) {
      const auto& ev = tr[static_cast<size_t>(e)];
      if (ev.kind != kind || ev.tensor != *t) continue;
      const std::int32_t idx = RowSide(*t) ? ev.i : ev.j;
      if (block < 0 || idx == block) return e;
    }
    return -1;
  }
  return -1;
}

}  // namespace

std::string AttentionModel::EventLabel(int e) const {
  if (IsBackward(e)) return "bwd " + Label((*BwdTrace())[static_cast<size_t>(std::min<int>(e - FwdCount(), static_cast<int>(BwdTrace()->size()) - 1))]);
  if (runs_.run.trace.empty()) return "(no events)";
  return Label(runs_.run.trace[static_cast<size_t>(FwdEvent(e))], runs_.run.trace.logits_given);
}

int AttentionModel::FindPosition(const std::string& pos) const {
  if (pos == "start") return 0;
  if (pos == "end") return std::max(1, FwdCount()) - 1;   // the forward's last event
  if (pos.rfind("event:", 0) == 0) {
    try {
      size_t used = 0;
      const int e = std::stoi(pos.substr(6), &used);
      // 1-based, as the panel's "event N/total" and every other index on screen.
      return used == pos.size() - 6 && e >= 1 && e <= EventCount() ? e - 1 : -1;
    } catch (...) {
      return -1;
    }
  }
  if (pos.rfind("bwd:", 0) == 0) {
    const auto* b = BwdTrace();
    if (!b) return -1;
    const std::string rest = pos.substr(4);
    if (rest == "start") return FwdCount();
    if (rest == "end") return EventCount() - 1;
    const int e = FindIn(*b, rest);
    return e < 0 ? -1 : FwdCount() + e;
  }
  return FindIn(runs_.run.trace, pos);
}

std::string AttentionModel::PositionHelp() const {
  return "start, end, event:N (1…" + std::to_string(EventCount()) + "), tile:I,J (I ≤ " + std::to_string(runs_.t_r) +
         ", J ≤ " + std::to_string(runs_.t_c) + "), read:T[:I], write:T[:I], compute:T" +
         (BwdTrace() ? ", bwd:start, bwd:end, bwd:tile:I,J, bwd:read:T[:I], bwd:write:T[:I], bwd:compute:T" : "");
}

std::vector<TimelineMark> AttentionModel::BlockMarks() const {
  std::vector<TimelineMark> marks;
  for (int e = 0; e < static_cast<int>(runs_.run.trace.size()); ++e) {
    const auto& ev = runs_.run.trace[static_cast<size_t>(e)];
    // A tile starts with its K_j read (or, logits given, its S_ij read), a Q block with its Q_i read.
    const bool tile_read = ev.kind == EventKind::kRead && (ev.tensor == Tensor::kK || (ev.tensor == Tensor::kS && ev.j >= 0));
    const bool tile_start = tile_read || (ev.kind == EventKind::kRead && ev.tensor == Tensor::kQ) ||
                            ev.kind == EventKind::kSkipTile || ev.kind == EventKind::kComputeFull;
    if (tile_start && (marks.empty() || marks.back().event != e - 1 || !tile_read))
      marks.push_back({e, EventLabel(e)});
  }
  if (marks.empty()) marks.push_back({0, EventLabel(0)});
  if (const auto* b = BwdTrace()) {   // the backward: its start and each K/V block j
    marks.push_back({FwdCount(), EventLabel(FwdCount())});
    for (int x = 0; x < static_cast<int>(b->size()); ++x)
      if ((*b)[static_cast<size_t>(x)].kind == EventKind::kRead && (*b)[static_cast<size_t>(x)].tensor == Tensor::kK)
        marks.push_back({FwdCount() + x, EventLabel(FwdCount() + x)});
  }
  return marks;
}

std::vector<std::string> AttentionModel::Texts() const {
  // The diagram's fixed labels (attention_scene.cpp): τ is in no other text.
  std::vector<std::string> texts = {scenario_.title.zh, scenario_.title.en, scenario_.file, PositionHelp(),
                                    "S = \u03c4\u00b7QK^T", "S_ij = \u03c4\u00b7Q_i K_j^T", "P = softmax(S) \u2192"};
  // Labels and panel strings differ only in digits between events: sample the first events.
  std::vector<int> sample;
  for (int e = 0; e < std::min(EventCount(), 64); ++e) sample.push_back(e);
  if (BwdTrace())
    for (int e = FwdCount(); e < std::min(EventCount(), FwdCount() + 64); ++e) sample.push_back(e);
  for (const int e : sample) {
    texts.push_back(EventLabel(e));
    for (const auto* lang : {"zh", "en"})
      for (const auto& sec : Panels(e, lang)) {
        texts.push_back(sec.title);
        for (const auto& col : sec.columns) texts.push_back(col);
        for (const auto& r : sec.rows) texts.push_back(r.name + r.value);
      }
  }
  return texts;
}

}  // namespace bw::view
