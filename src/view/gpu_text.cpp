// The GPU panel's strings; see gpu_text.h.
#include "view/gpu_text.h"

#include <array>

namespace bw::view {

namespace {

struct Row {
  std::string zh, en;
};

const std::vector<Row>& Rows() {
  static const std::vector<Row> rows = {
#define BW_STR(name, zh, en) {zh, en},
#include "view/gpu_strings.inc"
#undef BW_STR
  };
  return rows;
}

}  // namespace

const std::string& GpuText(GpuStr s, const std::string& lang) {
  const Row& r = Rows()[static_cast<size_t>(s)];
  return lang == "zh" ? r.zh : r.en;
}

std::string GpuFormat(GpuStr s, const std::string& lang, const std::vector<std::string>& args) {
  const std::string& t = GpuText(s, lang);
  std::string out;
  size_t k = 0, at = 0;
  for (size_t p = t.find("{}"); p != std::string::npos; p = t.find("{}", at)) {
    out += t.substr(at, p - at);
    if (k < args.size()) out += args[k++];
    at = p + 2;
  }
  return out + t.substr(at);
}

std::vector<std::string> AllGpuTexts() {
  std::vector<std::string> out;
  for (const Row& r : Rows()) out.push_back(r.zh), out.push_back(r.en);
  return out;
}

}  // namespace bw::view
