// libFuzzer target: lesson file v1 (src/data/lesson.cpp) through view::LoadLessonModel, which loads
// every bound scenario and resolves every position. The input is written to lesson.json in a scratch
// folder that also holds a copy of lessons/scenarios/, so real lessons work as seeds and the fuzzer
// can reach paths inside, outside and missing.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "data/json_file.h"
#include "data/load_error.h"
#include "fuzz_common.h"
#include "view/lesson_model.h"

namespace {

std::filesystem::path Scratch() {
  namespace fs = std::filesystem;
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("bw_fuzz_lesson_" + std::to_string(::getpid()));
    fs::create_directories(d / "scenarios");
    for (const auto& e : fs::directory_iterator(fs::path(BLOCKWISE_ROOT) / "lessons" / "scenarios"))
      if (e.is_regular_file()) fs::copy_file(e.path(), d / "scenarios" / e.path().filename(), fs::copy_options::overwrite_existing);
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Most inputs are not JSON: the same parser the loader uses refuses them in memory, without the
  // file round trip (about 10x more executions per second).
  try {
    bw::data::ParseJsonText(std::string(reinterpret_cast<const char*>(data), size), "lesson.json");
  } catch (const bw::data::LoadError&) {
    return 0;
  }
  const auto path = Scratch() / "lesson.json";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const auto m = bw::view::LoadLessonModel(path);
    for (size_t i = 0; i < m.lesson.steps.size(); ++i) {
      const int s = static_cast<int>(i);
      for (const char* lang : {"zh", "en"}) {
        m.Text(s, &bw::data::LessonStep::title, lang);
        m.Text(s, &bw::data::LessonStep::body, lang);
        m.Text(s, &bw::data::LessonStep::further, lang);
      }
    }
    for (const auto& [key, sc] : m.scenarios) bw::fuzz::Exercise(*sc);
  } catch (const bw::data::LoadError&) {
  }
  return 0;
}
