// test_hopper_layout.cpp — CPU test (no GPU, no CUDA) of the Hopper kernel's shared-memory arithmetic
// (hopper_layout.h): for every wgmma k-step of S = Q K^T and O += P V, every operand element that the
// kernel's descriptor addresses (by wgmma's canonical 128-byte-swizzle layouts) is the element TMA wrote
// there, for D = 64 and 128 and both consumer warpgroups. A wrong panel stride, k-step offset or swapped
// LBO/SBO fails here. (That the hardware follows these documented layouts is checked on the GPU by
// test_cuda_hopper.)
#include "cuda/hopper_layout.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

namespace bw::cuda::hopper {
namespace {

// tile byte offset -> (row, col) of the element TMA put there (low byte of each bf16)
std::vector<std::pair<int, int>> TmaImage(int D) {
  std::vector<std::pair<int, int>> img(128 * D * 2, {-1, -1});
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < D; ++c) {
      const unsigned off = TileOffset(r, c);
      EXPECT_LT(off + 1, img.size());
      EXPECT_EQ(img[off].first, -1) << "two elements on one byte";
      img[off] = {r, c};
    }
  return img;
}

TEST(HopperLayout, TmaSwizzleIsAPermutationOfEachPanel) {
  for (int D : {64, 128}) {
    const auto img = TmaImage(D);
    int filled = 0;
    for (size_t b = 0; b < img.size(); b += 2) filled += img[b].first >= 0;
    EXPECT_EQ(filled, 128 * D);
    EXPECT_EQ(TileOffset(0, 0), 0u);
    EXPECT_EQ(TileOffset(1, 0), 128u + 16u);       // row 1's first chunk moves to chunk 1
    EXPECT_EQ(TileOffset(0, 64), kPanelBytes);      // second panel
  }
}

TEST(HopperLayout, QAndKDescriptorsReadTheRightElements) {
  for (int D : {64, 128}) {
    const auto img = TmaImage(D);
    for (int kk = 0; kk < D / 16; ++kk) {
      for (int wg = 0; wg < 2; ++wg)
        for (int m = 0; m < 64; ++m)
          for (int k = 0; k < 16; ++k) {
            const unsigned a = KMajorAddr(QDescOffset(wg, kk), m, k, kGroupBytes);
            ASSERT_EQ(img.at(a), std::make_pair(64 * wg + m, 16 * kk + k)) << "Q D=" << D << " kk=" << kk << " wg=" << wg;
          }
      for (int n = 0; n < 128; ++n)
        for (int k = 0; k < 16; ++k) {
          const unsigned a = KMajorAddr(KDescOffset(kk), n, k, kGroupBytes);
          ASSERT_EQ(img.at(a), std::make_pair(n, 16 * kk + k)) << "K D=" << D << " kk=" << kk;
        }
    }
  }
}

TEST(HopperLayout, VDescriptorReadsTheTransposedTile) {
  for (int D : {64, 128}) {
    const auto img = TmaImage(D);
    for (int kc = 0; kc < 8; ++kc)
      for (int n = 0; n < D; ++n)  // n: head-dim column (N of O += P V), k: key (K of the product)
        for (int k = 0; k < 16; ++k) {
          const unsigned a = MNMajorAddr(VDescOffset(kc), n, k, kVLbo, kGroupBytes);
          ASSERT_EQ(img.at(a), std::make_pair(16 * kc + k, n)) << "V D=" << D << " kc=" << kc;
        }
  }
}

TEST(HopperLayout, SwappedStridesWouldBeCaught) {
  // The check can fail: V read with LBO and SBO swapped lands on other elements (D = 128).
  const auto img = TmaImage(128);
  int wrong = 0;
  for (int n = 0; n < 128; ++n)
    for (int k = 0; k < 16; ++k) {
      const unsigned a = MNMajorAddr(VDescOffset(1), n, k, kGroupBytes, kVLbo);
      wrong += (a >= img.size() || img[a] != std::make_pair(16 + k, n)) ? 1 : 0;
    }
  EXPECT_GT(wrong, 0);
}

}  // namespace
}  // namespace bw::cuda::hopper
