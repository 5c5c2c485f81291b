// Ring attention (engine/ring.h): equal to the single-device reference (exact with integer weights),
// bytes on each link, the causal idle steps of the contiguous order and the balance of the zig-zag
// order, counted by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/ring.h"

namespace bw::engine {
namespace {

RingProblem Random(int n, int d, int d_v, int devices, RingOrder order, bool causal, unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> g;
  RingProblem p;
  p.attention.Q = AttentionMatrix::NullaryExpr(n, d, [&] { return g(rng); });
  p.attention.K = AttentionMatrix::NullaryExpr(n, d, [&] { return g(rng); });
  p.attention.V = AttentionMatrix::NullaryExpr(n, d_v, [&] { return g(rng); });
  if (causal) p.attention.mask = Mask::Causal();
  p.devices = devices;
  p.order = order;
  return p;
}

// Integer weights W_rc = 1 + (r·3 + c·5) mod 7, values v_c = (c mod 4, c): exact through the logits ln W.
RingProblem Exact(int n, int devices, RingOrder order, bool causal) {
  AttentionMatrix S(n, n), V(n, 2);
  std::vector<std::vector<Rational>> W(n, std::vector<Rational>(n)), EV(n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const int w = 1 + (r * 3 + c * 5) % 7;
      W[r][c] = w;
      S(r, c) = std::log(static_cast<double>(w));
    }
  for (int c = 0; c < n; ++c) {
    V(c, 0) = c % 4;
    V(c, 1) = c;
    EV[c] = {Rational(c % 4), Rational(c)};
  }
  RingProblem p;
  p.attention = AttentionProblem::FromLogits(S, V, causal ? Mask::Causal() : Mask::None());
  p.devices = devices;
  p.order = order;
  p.exact_weights = W;
  p.exact_values = EV;
  return p;
}

TEST(Ring, EqualsTheOneDeviceRunExactly) {
  for (RingOrder order : {RingOrder::kContiguous, RingOrder::kZigZag})
    for (bool causal : {false, true}) {
      const RingRun run = RunRing(Exact(12, 3, order, causal));
      ASSERT_TRUE(run.exact.has_value());
      EXPECT_EQ(run.exact->output, run.exact->reference_output) << ToString(order) << " causal " << causal;
      EXPECT_LT(run.max_abs_error, 1e-12);
    }
}

TEST(Ring, RandomProblemsMatchTheReference) {
  for (int devices : {1, 2, 3, 4, 8})
    for (RingOrder order : {RingOrder::kContiguous, RingOrder::kZigZag})
      for (bool causal : {false, true}) {
        const RingRun run = RunRing(Random(37, 8, 5, devices, order, causal, 11u * devices));
        EXPECT_LT(run.max_abs_error, 1e-12) << devices << ' ' << ToString(order) << ' ' << causal;
      }
}

TEST(Ring, EachLinkCarriesOneShardPerStepButTheLast) {
  const RingRun run = RunRing(Random(16, 8, 4, 4, RingOrder::kContiguous, false));
  // A shard is 4 rows of K (8) and V (4) in bf16: 4·12·2 = 96 bytes; 4 links × 3 sends.
  EXPECT_EQ(run.bytes_per_link_per_step, 96);
  EXPECT_EQ(run.total_link_bytes, 4 * 3 * 96);
  for (int t = 0; t < 4; ++t)
    for (const auto& d : run.steps[t].devices) {
      EXPECT_EQ(d.bytes_sent, t < 3 ? 96 : 0);
      EXPECT_EQ(d.shard, ((d.device - t) % 4 + 4) % 4);
    }
  EXPECT_EQ(run.idle_device_steps, 0);
  EXPECT_DOUBLE_EQ(run.imbalance, 1.0);
}

TEST(Ring, CausalContiguousShardsLeaveDevicesIdle) {
  const RingRun run = RunRing(Random(16, 4, 2, 4, RingOrder::kContiguous, true));
  // Device p holds rows 4p…4p+3. Its own shard (step 0): 4·5/2 = 10 pairs; an earlier shard: 16;
  // a later one: none. Device p idles for the P − 1 − p later shards: 3 + 2 + 1 + 0 = 6.
  EXPECT_EQ(run.idle_device_steps, 6);
  EXPECT_EQ(run.steps[0].devices[2].pairs, 10);
  EXPECT_EQ(run.steps[1].devices[2].pairs, 16);
  EXPECT_TRUE(run.steps[1].devices[0].idle);
  EXPECT_EQ(run.PairsOf(0), 10);
  EXPECT_EQ(run.PairsOf(3), 10 + 3 * 16);
  // Slowest device per step: 10 + 16 + 16 + 16 = 58 against 136 / 4 = 34 balanced.
  EXPECT_DOUBLE_EQ(run.imbalance, 58.0 / 34.0);
}

TEST(Ring, TheZigZagOrderBalancesCausalWork) {
  const RingRun run = RunRing(Random(16, 4, 2, 4, RingOrder::kZigZag, true));
  // Device p holds chunks p and 7 − p (2 rows each). Own shard: 3 + 4 + 3 = 10 pairs; any other
  // shard: chunk 7 − p sees the other's low chunk whole (4) and exactly one of (p vs s, 7−p vs 7−s)
  // is below the diagonal (4): 8 pairs, on every device at every later step.
  EXPECT_EQ(run.shard_rows[1], (std::vector<int>{2, 3, 12, 13}));
  EXPECT_EQ(run.idle_device_steps, 0);
  for (const auto& d : run.steps[0].devices) EXPECT_EQ(d.pairs, 10);
  for (int t = 1; t < 4; ++t)
    for (const auto& d : run.steps[t].devices) EXPECT_EQ(d.pairs, 8);
  EXPECT_DOUBLE_EQ(run.imbalance, 1.0);
}

TEST(Ring, BadProblemsAreRefusedByName) {
  auto refused = [](RingProblem p) {
    try {
      RunRing(p);
    } catch (const ValidationError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  RingProblem p = Random(6, 2, 2, 4, RingOrder::kZigZag, false);
  EXPECT_EQ(refused(p), "devices: 6 rows cannot fill 8 chunks (zigzag order over 4 devices)");
  p = Random(6, 2, 2, 0, RingOrder::kContiguous, false);
  EXPECT_EQ(refused(p), "devices: needs at least one device");
  p = Random(6, 2, 2, 2, RingOrder::kContiguous, false);
  p.attention.Q.conservativeResize(5, 2);
  EXPECT_EQ(refused(p), "attention: ring attention shards one sequence: N_q = 5 but N_k = 6");
  p = Random(6, 2, 2, 2, RingOrder::kContiguous, false);
  p.attention.mask = Mask::KeyPadding({1, 1, 1, 1, 1, 0});
  EXPECT_EQ(refused(p), "attention.mask: ring attention takes none or causal, not key_padding");
}

}  // namespace
}  // namespace bw::engine
