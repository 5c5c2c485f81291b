// libFuzzer target: single-query scenario file v1 (src/data/scenario.cpp) and its model.
#include <cstdint>
#include <string>

#include "data/json_file.h"
#include "data/scenario.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string file = "fuzz_v1.json";
  try {
    const auto doc = bw::data::ParseJsonText(std::string(reinterpret_cast<const char*>(data), size), file);
    bw::data::ParseSingleQueryScenario(doc, file);
    bw::fuzz::Exercise(*bw::view::ParseScenarioModel(doc, file));
  } catch (const bw::data::LoadError&) {
  }
  return 0;
}
