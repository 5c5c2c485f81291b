// See event_title.h.
#include "view/event_title.h"

#include <array>

namespace bw::view {

namespace {

bool StartsWith(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

struct Pattern {
  const char* prefix;     // the label starts with this
  const char* zh;         // the words before the rest of the label
  const char* en;
};

}  // namespace

std::string EventTitle(const std::string& label, const std::string& lang) {
  const bool zh = lang == "zh";
  if (label == "start") return zh ? "开始" : "start";
  if (label == "end") return zh ? "结束" : "end";
  if (label == "write") return zh ? "写回输出 O = u/l" : "write the output O = u/l";
  if (label == "(no events)") return zh ? "（没有事件）" : "(no events)";
  // Prefix patterns: the rest of the label (indices, tensor names, a token's text) is kept as it is.
  static const std::array<Pattern, 12> patterns = {{
      {"load:", "读入块 ", "load block "},
      {"update:", "合并块 ", "merge block "},
      {"read ", "读入 ", "read "},
      {"write ", "写回 ", "write "},
      {"skip ", "跳过全被遮蔽的分块 ", "skip the fully masked tile "},
      {"merge ", "合并分块 ", "merge tile "},
      {"init ", "初始化 ", "initialise "},
      {"compute ", "计算 ", "compute "},
      {"grads ", "梯度分块 ", "gradients of tile "},
      {"token:", "词元 ", "token "},
      {"S_", "片上计算 S_", "on chip: S_"},
      {"O_", "归一化 O_", "normalise O_"},
  }};
  for (const auto& p : patterns)
    if (StartsWith(label, p.prefix)) return std::string(zh ? p.zh : p.en) + label.substr(std::string(p.prefix).size());
  return label;
}

}  // namespace bw::view
