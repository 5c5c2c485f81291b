// ScenarioModel for "decode" scenarios (data/decode_scenario.h): one new query against a KV cache cut
// into splits that run side by side, one thread block each, then the combine (engine/split_kv.h,
// Flash-Decoding 2023). The scene puts the splits in columns — their tiles in HBM, each split's
// (m_s, l_s, O_s) in its own thread block, the partial outputs O_s and lse_s written to HBM — and the
// combine below them (once it has begun, the splits' blocks have exited: the chip holds the combine's);
// the panels compare the right combine with the three wrong ones, the HBM traffic
// with and without splitting, and how many of the GPU's multiprocessors a decoding step keeps busy.
//
// Events (the engine's trace, every split's r-th tile at the same step):
//   start; "splits load:r", "splits update:r" (r = 1 … the longest split's tiles; shorter splits idle);
//   partial (each split writes O_s, lse_s); combine:s (s = 1 … S); write (O to HBM).
// Positions: start, load:N, update:N, partial, combine:N, write, end, event:N.
// Scene ids: hbm, hbm.q, hbm.kv.J (the cache's tiles), hbm.partial.S, hbm.o, split.S, combine.
// Panels: combine, compare (the right and the wrong combines), splits, traffic, gpu (when the file gives "gpu").
// Placeholders: lesson_text.h's {m} {l} {u} {output_so_far} (the combine's running state) {output}
// {reference} {weights} {values} {n} {mode}, and {splits} {tiles} {split_tiles} {lse}
// {wrong_mean} {wrong_no_rescale} {wrong_max_only}; per split S {tiles@S} {keys@S} {m_s@S} {l_s@S}
// {u_s@S} {o_s@S} {lse_s@S} {share@S} (e^{lse_s − lse}), and after combining split S {m@S} {l@S}
// {u@S} {alpha@S} {beta@S}; traffic {hbm_unsplit} {hbm_split} {hbm_extra} {table_reads}
// {block_table} {page_size}; GPU {sm_count} {thread_blocks} {cache_tiles} {busy_unsplit}
// {busy_unsplit_percent} {split_count} {split_thread_blocks} {busy_split} {busy_split_percent}.
#pragma once

#include <map>

#include "data/decode_scenario.h"
#include "engine/split_kv.h"
#include "view/scenario_model.h"

namespace bw::view {

class DecodeModel final : public ScenarioModel {
 public:
  explicit DecodeModel(data::DecodeScenario sc);
  std::string Kind() const override { return "decode"; }
  const data::LocalText& Title() const override { return scenario_.title; }
  const std::string& File() const override { return scenario_.file; }
  int EventCount() const override { return static_cast<int>(run_.events.size()); }
  std::string EventLabel(int e) const override;
  std::vector<data::AcceptedPosition> AcceptedPositions() const override;
  int Find(const data::Position& position) const override;
  using ScenarioModel::BuildScene;
  Scene BuildScene(int e, const std::string& lang, const Palette& palette, const SceneFrame& frame) const override;
  std::vector<PanelSection> Panels(int e, const std::string& lang) const override;
  Quantities QuantitiesAt(int e) const override;
  std::optional<ExpectedNumber> NumberAt(int e, const std::string& name) const override;
  std::vector<TimelineMark> BlockMarks() const override;
  std::vector<std::string> Texts() const override;
  const engine::NumericsReport* Numerics() const override { return &run_.numerics; }

  const engine::SplitKvRun& run() const { return run_; }

 private:
  // What a split has merged once event e has happened (its tiles, 0 … tiles), and the tile it holds
  // in SRAM then (1-based within the split, 0 = none).
  int MergedAt(int split, int e) const;
  int InSramAt(int split, int e) const;
  int CombinedAt(int e) const;   // splits merged by the combine
  bool PartialWrittenAt(int e) const;
  // The exact values of the one-number quantities at event e ({output}, {l@2}, {o_s@1} …).
  std::map<std::string, engine::Rational> ExactAt(int e) const;
  // A running maximum and an lse as the panels, the placeholders and the diagram (decode_scene.cpp)
  // print them: with exact weights ln of M, of M·l (the sum of the split's weights).
  static std::string StateM(double m, const engine::ExactState* ex);
  static std::string Lse(double lse, const engine::ExactState* ex);

  data::DecodeScenario scenario_;
  engine::SplitKvRun run_;
};

}  // namespace bw::view
