// Issue 34: the "ring" scenario kind — ring attention over 4 simulated devices as the app scrubs it.
// N = 8 rows, causal. Contiguous shards: device p holds rows 2p, 2p + 1; at step t it holds shard
// (p − t) mod 4. Its own (diagonal) shard gives 3 allowed pairs, an earlier shard 4, a later one none
// (idle). Steps: t = 1: 3, 3, 3, 3; t = 2: idle, 4, 4, 4; t = 3: idle, idle, 4, 4; t = 4: idle, idle,
// idle, 4 — 6 idle (device, step) pairs; the ring waits Σ_t max = 3 + 4 + 4 + 4 = 15 against
// 36 / 4 = 9 evenly shared: imbalance 15·4/36 = 5/3. One shard on a link: 2 rows × (d 128 + d_v 1)
// × 2 bytes = 516 B; 4 links × 3 sends.
#include <gtest/gtest.h>

#include "view/format.h"
#include "view/ring_model.h"

namespace bw::view {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;

std::shared_ptr<const ScenarioModel> Load(const char* name) { return LoadScenarioModel(kRoot + "/lessons/scenarios/" + name); }

TEST(RingModel, TheTraceIsStepsAndSends) {
  const auto m = Load("ring_causal.json");
  ASSERT_EQ(m->Kind(), "ring");
  std::vector<std::string> labels;
  for (int e = 0; e < m->EventCount(); ++e) labels.push_back(m->EventLabel(e));
  EXPECT_EQ(labels, (std::vector<std::string>{"start", "ring step:1", "ring send:1", "ring step:2", "ring send:2", "ring step:3",
                                              "ring send:3", "ring step:4", "write"}));
  EXPECT_EQ(m->FindPosition("step:2"), 3);
  EXPECT_EQ(m->FindPosition("send:3"), 6);
  EXPECT_EQ(m->FindPosition("send:4"), -1);   // nothing is sent after the last step
  EXPECT_EQ(m->FindPosition("step:5"), -1);
  EXPECT_EQ(m->FindPosition("write"), 8);
  EXPECT_EQ(m->EventTitle(2, "en"), "every device passes its shard on, step 1");
}

TEST(RingModel, CausalContiguousShardsIdleAndZigZagDoesNot) {
  const auto m = Load("ring_causal.json");
  const auto q = m->QuantitiesAt(m->EventCount() - 1);
  EXPECT_EQ(q.at("idle_steps"), "6");
  EXPECT_EQ(q.at("idle@1"), "3");
  EXPECT_EQ(q.at("idle@4"), "0");
  EXPECT_EQ(q.at("total_pairs"), "36");
  EXPECT_EQ(q.at("imbalance"), FormatExact(engine::Rational(5, 3)));
  EXPECT_EQ(q.at("bytes_per_link"), FormatBytes(516));
  EXPECT_EQ(q.at("total_link_bytes"), FormatBytes(12 * 516));
  EXPECT_EQ(q.at("rows@2"), "(3, 4)");
  const auto at2 = m->QuantitiesAt(m->FindPosition("step:2"));
  EXPECT_EQ(at2.at("pairs_now@1"), "0");
  EXPECT_EQ(at2.at("shard_now@1"), "4");
  EXPECT_EQ(at2.at("pairs_now@2"), "4");
  const auto n = m->NumberAt(0, "imbalance");
  ASSERT_TRUE(n && n->exact);
  EXPECT_EQ(*n->exact, engine::Rational(5, 3));
  // The zig-zag file: the same problem; every device has the same work at every step.
  const auto z = Load("ring_zigzag.json");
  const auto zq = z->QuantitiesAt(z->EventCount() - 1);
  EXPECT_EQ(zq.at("idle_steps"), "0");
  EXPECT_EQ(zq.at("other_imbalance"), q.at("imbalance"));
  EXPECT_EQ(zq.at("rows@1"), "(1, 8)");
  const auto zn = z->NumberAt(0, "imbalance");
  ASSERT_TRUE(zn && zn->exact);
  EXPECT_LT(*zn->exact, engine::Rational(5, 3));
}

TEST(RingModel, EveryRowEqualsTheOneDeviceRunExactly) {
  for (const char* f : {"ring_causal.json", "ring_zigzag.json"}) {
    const auto m = Load(f);
    const auto& run = dynamic_cast<const RingModel&>(*m).run();
    ASSERT_TRUE(run.exact.has_value()) << f;
    EXPECT_EQ(run.exact->output, run.exact->reference_output) << f;
    const auto panels = m->Panels(m->EventCount() - 1, "en");
    bool seen = false;
    for (const auto& s : panels)
      for (const auto& r : s.rows)
        if (r.name == UiText(Str::ring_compare, "en")) {
          seen = true;
          EXPECT_EQ(r.value, UiText(Str::ring_identical, "en"));
        }
    EXPECT_TRUE(seen);
  }
}

TEST(RingModel, TheSceneHatchesTheIdleCells) {
  const auto m = Load("ring_causal.json");
  const Scene sc = m->BuildScene(m->FindPosition("step:2"), "en", ClassroomPalette());
  for (const char* id : {"device.1", "device.4", "link.1", "link.4", "work.1.1", "work.4.4"}) EXPECT_NE(sc.FindRect(id), nullptr) << id;
  EXPECT_EQ(sc.FindRect("device.1")->state, TileState::kMasked);
  EXPECT_EQ(sc.FindRect("device.1")->sublabel, UiText(Str::ring_idle, "en"));
  EXPECT_EQ(sc.FindRect("work.1.2")->state, TileState::kMasked);
  EXPECT_EQ(sc.FindRect("work.2.2")->state, TileState::kInSram);
  EXPECT_EQ(sc.FindRect("work.2.2")->label, "4");
  EXPECT_EQ(sc.FindRect("work.2.3")->state, TileState::kPending);
  const Scene send = m->BuildScene(m->FindPosition("send:1"), "en", ClassroomPalette());
  EXPECT_NE(send.FindRect("link.1")->label.find(FormatBytes(516)), std::string::npos);
  EXPECT_NE(send.FindRect("device.1")->label.find("shard 4"), std::string::npos);   // received from device 4
}

}  // namespace
}  // namespace bw::view
