// require_gpu.h — the GPU tests' first line: skip (not fail) where there is no usable GPU, with the
// reason GpuAvailable gives, so the same binaries pass on a machine without one (CI) and test on one.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "cuda/attention_cuda.h"

#define REQUIRE_GPU()                                       \
  do {                                                      \
    std::string why;                                        \
    if (!::bw::cuda::GpuAvailable(&why)) GTEST_SKIP() << why; \
  } while (0)
