// The zh rule the classroom tests apply: the English words (3 or more Latin letters) in a text,
// less the names a Chinese machine-learning class reads as they are (HBM, softmax, token …) and
// `also` (names a particular check allows besides). Used by classroom_test and ui_text_test.
#pragma once

#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace bw::app {

inline std::vector<std::string> EnglishWords(const std::string& t, const std::set<std::string>& also = {}) {
  static const std::set<std::string> kNames = {
      "HBM", "SRAM", "GPU", "CPU", "FLOPs", "FLOP", "FlashAttention", "exp", "softmax", "max", "min", "rowsum", "MoE",
      "NUMA", "Triton", "Pallas", "Splash", "KTransformers", "TFLOP", "GiB", "MiB", "KiB", "TB/s", "GB/s", "Alg", "top",
      "QKᵀ", "ReLU", "Eigen", "CUDA", "H200", "SM", "PCIe", "NaN", "inf", "log",
      // Words a Chinese machine-learning class uses as they are.
      "token", "bit", "bits", "ln", "logits", "train", "all", "ceil", "lse"};
  std::vector<std::string> out;
  std::string cur;
  const auto flush = [&] {
    if (cur.size() >= 3 && !kNames.count(cur) && !also.count(cur)) out.push_back(cur);
    cur.clear();
  };
  for (char c : t) {
    if (std::isalpha(static_cast<unsigned char>(c))) cur += c;
    else flush();
  }
  flush();
  return out;
}

}  // namespace bw::app
