// libFuzzer target: attention scenario file v2 (src/data/attention_scenario.cpp) and its model
// (which runs the engine: reference, FA-2, FA-1 and, when asked, the backward pass).
#include <cstdint>
#include <string>

#include "data/attention_scenario.h"
#include "data/json_file.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string file = "fuzz_v2.json";
  try {
    const auto doc = bw::data::ParseJsonText(std::string(reinterpret_cast<const char*>(data), size), file);
    bw::data::ParseAttentionScenario(doc, file);
    bw::fuzz::Exercise(*bw::view::ParseScenarioModel(doc, file));
  } catch (const bw::data::LoadError&) {
  }
  return 0;
}
