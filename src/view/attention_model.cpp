// ScenarioModel for full attention; see attention_model.h. The model is split by phase:
//   attention_runs.cpp    the engine runs, formulas and the check (shared with blockwise-cli)
//   attention_states.cpp  tile states at an event (prefix snapshots)
//   attention_scene.cpp   the HBM/SRAM diagram
//   attention_panels.cpp  placeholders, side panels, heatmap
//   this file             construction, events and positions, timeline marks, texts
#include "view/attention_model.h"

#include <algorithm>
#include <chrono>
#include <set>

#if defined(__linux__)  // (not the web edition: Emscripten defines no __linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace bw::view {

using engine::EventKind;
using engine::Tensor;

// [SECTION] Construction and positions ------------------------------------------------------------

// Without "backward" the comparison is a separate part (RunAttentionComparison reads only the
// scenario and the run): it may come later. The backward needs FA-2's side run: all at once.
static AttentionRuns RunOwnOrAll(const data::AttentionScenario& sc, ComparisonMode& mode) {
  const auto& p = sc.problem;
  if (mode == ComparisonMode::kBackground && p.n_q() * p.n_k() < kBackgroundScores) mode = ComparisonMode::kNow;
  if (sc.backward) mode = ComparisonMode::kNow;
  return mode == ComparisonMode::kNow ? RunAttentionScenario(sc, AttentionRunChoice{}) : RunAttentionOwn(sc, AttentionRunChoice{});
}

AttentionModel::AttentionModel(data::AttentionScenario sc, ComparisonMode mode)
    : scenario_(std::move(sc)), runs_(RunOwnOrAll(scenario_, mode)) {
  if (mode != ComparisonMode::kNow) {
    compared_ = false;
    const bool background = mode == ComparisonMode::kBackground;
    pending_ = std::async(background ? std::launch::async : std::launch::deferred, [this, background] {
#if defined(__linux__)
      // Below the interface thread: on two busy cores the first frames come before the comparison.
      if (background) setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
      return RunAttentionComparison(scenario_, AttentionRunChoice{}, runs_.run, runs_.tolerance);
    });
  }
  states_ = TileStateTrack(runs_.run.trace, Tiled() ? runs_.t_r : 1, Tiled() ? runs_.t_c : 1);
  if (const auto* b = BwdTrace()) {
    bwd_states_ = TileStateTrack(*b, runs_.t_r, runs_.t_c);
    bwd_chip_ = BackwardOnChipAt(*b);
  }
}

AttentionModel::~AttentionModel() {
  if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) != std::future_status::deferred) pending_.wait();
}

bool AttentionModel::Compared() const {
  const std::lock_guard<std::mutex> lock(cmp_mutex_);
  if (!compared_ && pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    MergeComparison(runs_, pending_.get());
    compared_ = true;
  }
  return compared_;
}

void AttentionModel::FinishComparison() const {
  const std::lock_guard<std::mutex> lock(cmp_mutex_);
  if (!compared_ && pending_.valid()) {
    MergeComparison(runs_, pending_.get());
    compared_ = true;
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
int FindIn(const engine::AttentionTrace& tr, const data::Position& p) {
  using data::PositionForm;
  const int n = static_cast<int>(tr.size());
  if (p.form == PositionForm::kTile) {
    for (int e = 0; e < n; ++e) {
      const auto& ev = tr[static_cast<size_t>(e)];
      if ((ev.kind == EventKind::kUpdateMLU || ev.kind == EventKind::kComputeGrads || ev.kind == EventKind::kSkipTile) &&
          ev.i == p.n - 1 && ev.j == p.m - 1)
        return e;
    }
    return -1;
  }
  const EventKind kind = p.form == PositionForm::kRead           ? EventKind::kRead
                         : p.form == PositionForm::kWriteTensor ? EventKind::kWrite
                                                                 : EventKind::kComputeFull;
  const int block = p.n - 1;   // −1: [:I] left out, the first such event
  for (int e = 0; e < n; ++e) {
    const auto& ev = tr[static_cast<size_t>(e)];
    if (ev.kind != kind || ev.tensor != p.tensor) continue;
    const std::int32_t idx = RowSide(p.tensor) ? ev.i : ev.j;
    if (block < 0 || idx == block) return e;
  }
  return -1;
}

}  // namespace

std::string AttentionModel::EventLabel(int e) const {
  if (IsBackward(e)) return "bwd " + Label((*BwdTrace())[static_cast<size_t>(std::min<int>(e - FwdCount(), static_cast<int>(BwdTrace()->size()) - 1))]);
  if (runs_.run.trace.empty()) return "(no events)";
  return Label(runs_.run.trace[static_cast<size_t>(FwdEvent(e))], runs_.run.trace.logits_given);
}

std::vector<data::AcceptedPosition> AttentionModel::AcceptedPositions() const {
  using data::PositionForm;
  const auto tiles = [&](bool bwd) {
    return data::AcceptedPosition{PositionForm::kTile, bwd, static_cast<int>(runs_.t_r), static_cast<int>(runs_.t_c)};
  };
  std::vector<data::AcceptedPosition> a = {{PositionForm::kStart}, {PositionForm::kEnd}, {PositionForm::kEvent, false, EventCount()},
                                           tiles(false), {PositionForm::kRead}, {PositionForm::kWriteTensor},
                                           {PositionForm::kComputeTensor}};
  if (BwdTrace())
    a.insert(a.end(), {{PositionForm::kStart, true}, {PositionForm::kEnd, true}, tiles(true), {PositionForm::kRead, true},
                       {PositionForm::kWriteTensor, true}, {PositionForm::kComputeTensor, true}});
  return a;
}

int AttentionModel::Find(const data::Position& p) const {
  using data::PositionForm;
  // 1-based, as the panel's "event N/total" and every other index on screen.
  if (p.form == PositionForm::kEvent) return p.n <= EventCount() ? p.n - 1 : -1;
  if (!p.backward) {
    if (p.form == PositionForm::kStart) return 0;
    if (p.form == PositionForm::kEnd) return std::max(1, FwdCount()) - 1;   // the forward's last event
    return FindIn(runs_.run.trace, p);
  }
  const auto* b = BwdTrace();
  if (!b) return -1;
  if (p.form == PositionForm::kStart) return FwdCount();
  if (p.form == PositionForm::kEnd) return EventCount() - 1;
  const int e = FindIn(*b, p);
  return e < 0 ? -1 : FwdCount() + e;
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
  // Labels and panel strings differ only in digits between events of one kind: the panels of the
  // first event of each label (digits aside) among the first 64 forward and 64 backward events, and
  // of each pass's last event (the comparison with the reference). A lesson switch builds these
  // texts (the atlas check) in its first frame: 256 panels were 18 ms of BWD's.
  // GlyphCoverage.ModelTextsHoldEveryEventsCharacters checks every event of every shipped file.
  std::vector<int> sample;
  for (int e = 0; e < std::min(EventCount(), 64); ++e) sample.push_back(e);
  sample.push_back(FwdCount() - 1);
  if (BwdTrace()) {
    for (int e = FwdCount(); e < std::min(EventCount(), FwdCount() + 64); ++e) sample.push_back(e);
    sample.push_back(EventCount() - 1);
  }
  std::set<std::string> kinds;
  for (const int e : sample) {
    std::string label = EventLabel(e);
    texts.push_back(label);
    std::erase_if(label, [](char c) { return c >= '0' && c <= '9'; });
    if (!kinds.insert(label).second) continue;
    for (const auto* lang : {"zh", "en"}) AppendPanelTexts(Panels(e, lang), texts);
  }
  return texts;
}

}  // namespace bw::view
