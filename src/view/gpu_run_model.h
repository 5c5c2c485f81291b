// ScenarioModel for "gpu_run" scenarios (data/gpu_run_scenario.h, issue 33): a GPU run recorded on a
// real device (assets/gpu/*.json), replayed without a GPU so that a lesson can point at moments of it.
// The scene is the GPU panel's pictures as data (gpu_scene.h): a title naming the kernel and the device,
// the tile grid coloured by start time and the SM × time lanes at the event's replay time, and a line of
// what is done. With a second recording ("compare"), the last event shows both runs' lanes on one time
// axis, each with its own time.
//
// Events: start (nothing done), "replay k/12" (k twelfths of the run's span, from the earliest tile
// start to the latest end), "tail" (the moment the first SM has finished its last tile: from then on
// SMs fall idle while others still work) in time order among them, end (the whole run), and compare
// when the scenario names a second recording.
// Positions: start, event:N, tail, end, compare (only with a comparison).
// Scene ids: "run.title", "run.now", the grid's "gpu.I,J" (1-based), the lanes' "lane.SM.K", "lanes.idle";
// at compare "cmp.title.1", "cmp.title.2" and the second run's lanes prefixed "cmp.".
// With "scene": "warps" (data/gpu_run_scenario.h) every position shows instead the recording's warp
// timeline as the GPU panel draws it (gpu_warps.h, zoom only): three consecutive tiles of the first
// sampled CTA, one row per warpgroup (producer, consumer 1, consumer 2), phases in the panel's colours,
// titled "measured on <device>"; ids those of BuildWarpTimelineScene ("warps.title", "warps.zoom",
// "warpbg.z.W", "warp.z.W.K", "warps.zrow.W", "warps.legend.P", …).
// Panels: run, sms, counters, compare (with a comparison).
// Every quantity is measured (the recording: CUDA-event time, the tile records' %globaltimer and SM ids,
// the kernel's own counters), model (cuda::PredictCounters: the traffic FlashAttention-2 Algorithm 1
// implies for the recording's problem and tiling) or published (the device's datasheet peaks);
// placeholder_reference.cpp says which for each name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuda/gpu_types.h"
#include "data/gpu_run_scenario.h"
#include "view/gpu_scene.h"
#include "view/scenario_model.h"

namespace bw::view {

// What the tile records say of a run as a whole (times relative to the earliest tile start).
struct GpuRunStats {
  std::uint64_t span_ns = 0;          // earliest tile start to latest end
  std::uint64_t tail_ns = 0;          // when the first SM that computed a tile finished its last one
  int sms_used = 0;                   // SMs that computed at least one tile
  std::int64_t tiles_computed = 0;    // records not flagged skipped
  double idle_share = 0;              // 1 − (Σ over SMs of the time it ran a tile) / (SM count × span)
  int rows = 0;                       // heads × T_r: the Q tiles, one CTA each
};
GpuRunStats RunStats(const cuda::RunSummary& run);
// Each SM of the device (and any past its count the records name): whether it computed a tile in the whole
// run, and its first start and last end (after the earliest start): the lesson's lanes band by it.
std::vector<SmUse> SmUses(const cuda::RunSummary& run);
// SMs running a tile at `t_ns` after the earliest start.
int BusySmsAt(const cuda::RunSummary& run, std::uint64_t t_ns);
// The traffic model's counters for the recording's problem (cuda::PredictCounters, or the Hopper
// kernel's for kernel "hopper"); nullopt for a mask the recording cannot rebuild (key padding, explicit).
std::optional<cuda::Counters> ModelCounters(const cuda::RunSummary& run);
// The kernel and the mask in the UI's words (gpu_strings.inc), never the recording's ids.
std::string KernelWords(const cuda::RunSummary& run, const std::string& lang);
std::string MaskWords(cuda::MaskKind mask, const std::string& lang);
// Two recordings of the same problem (N_q, N_k, d, d_v, heads, mask): only then is the time ratio the
// speed-up; otherwise the compare panel says which differ and gives the throughput ratio alone.
bool SameProblem(const cuda::RunSummary& a, const cuda::RunSummary& b);
// Each warpgroup's (0 producer, 1 and 2 consumers) share of its recorded time in `phase`, over every
// sampled CTA; 0 when the run has no phases for it.
double WarpPhaseShare(const cuda::RunSummary& run, int warpgroup, cuda::WarpPhase phase);

class GpuRunModel final : public ScenarioModel {
 public:
  // Reads the recordings; throws data::LoadError naming the scenario file and "/recording" or
  // "/compare" with the reason when one does not load.
  explicit GpuRunModel(data::GpuRunScenario sc);
  std::string Kind() const override { return "gpu_run"; }
  const data::LocalText& Title() const override { return scenario_.title; }
  const std::string& File() const override { return scenario_.file; }
  int EventCount() const override { return static_cast<int>(events_.size()); }
  std::string EventLabel(int e) const override;
  std::vector<data::AcceptedPosition> AcceptedPositions() const override;
  int Find(const data::Position& position) const override;
  using ScenarioModel::BuildScene;
  Scene BuildScene(int e, const std::string& lang, const Palette& palette, const SceneFrame& frame) const override;
  std::vector<PanelSection> Panels(int e, const std::string& lang) const override;
  Quantities QuantitiesAt(int e) const override;
  std::vector<TimelineMark> BlockMarks() const override;
  std::vector<std::string> Texts() const override;

  const cuda::RunSummary& run() const { return run_; }
  const std::optional<cuda::RunSummary>& compare() const { return compare_; }
  static constexpr int kFrames = 12;   // replay moments between start and end

  struct Event {
    enum Kind : std::uint8_t { kStart, kFrame, kTail, kEnd, kCompare } kind = kStart;
    std::uint64_t t_ns = 0;   // replay time
    int frame = 0;            // k of "replay k/kFrames"
  };
  const std::vector<Event>& events() const { return events_; }

 private:
  Scene CompareScene(const std::string& lang, const Palette& palette) const;
  Scene WarpScene(const std::string& lang, const Palette& palette, const SceneFrame& frame) const;

  data::GpuRunScenario scenario_;
  cuda::RunSummary run_;
  std::optional<cuda::RunSummary> compare_;
  GpuRunStats stats_, compare_stats_;
  std::optional<cuda::Counters> model_;
  std::vector<Event> events_;
};

}  // namespace bw::view
