// Shared by the fuzz targets: what "loaded" must mean for the app. A document either throws
// bw::data::LoadError (any other exception escapes and is a finding: the app would show it without
// a JSON path) or gives a model whose every event builds a scene, panels and quantities with no
// NaN shown that the numerics report leaves unexplained (view::UnexplainedNaNs, the check the corpus
// test shares). Events are capped per input so one case stays fast.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "data/json_file.h"
#include "view/numerics_panel.h"
#include "view/scenario_model.h"

namespace bw::fuzz {

inline void Exercise(const view::ScenarioModel& m) {
  const int n = m.EventCount();
  if (n < 1) std::abort();
  const auto palette = view::ClassroomPalette();
  // Every event of small runs; a sample of large ones (first, last and a stride).
  const int stride = n <= 64 ? 1 : n / 32;
  for (const auto& line : view::UnexplainedNaNs(m, stride)) {
    std::fprintf(stderr, "NaN shown with no cause named: %s\n", line.c_str());
    std::abort();
  }
  for (int e = 0; e < n; e += stride) {
    m.BuildScene(e, "en", palette);
    m.Panels(e, "zh");
    m.EventLabel(e);
  }
  m.BuildScene(n - 1, "zh", palette);
  m.BlockMarks();
  m.Texts();
}

// One scenario target: the kind's own parser (`parse(doc, file)`), then the model the app builds.
template <class Parse>
int FuzzScenario(const std::uint8_t* data, std::size_t size, const std::string& file, Parse parse) {
  try {
    const auto doc = data::ParseJsonText(std::string(reinterpret_cast<const char*>(data), size), file);
    parse(doc, file);
    Exercise(*view::ParseScenarioModel(doc, file));
  } catch (const data::LoadError&) {
  }
  return 0;
}

}  // namespace bw::fuzz
