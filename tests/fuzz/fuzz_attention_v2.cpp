// libFuzzer target: attention scenario file v2 (src/data/attention_scenario.cpp) and its model
// (which runs the engine: reference, FA-2, FA-1 and, when asked, the backward pass).
#include "data/attention_scenario.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return bw::fuzz::FuzzScenario(data, size, "fuzz_v2.json", bw::data::ParseAttentionScenario);
}
