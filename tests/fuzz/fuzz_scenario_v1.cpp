// libFuzzer target: single-query scenario file v1 (src/data/scenario.cpp) and its model.
#include "data/scenario.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return bw::fuzz::FuzzScenario(data, size, "fuzz_v1.json", bw::data::ParseSingleQueryScenario);
}
