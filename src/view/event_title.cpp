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
  // The backward's events (FlashAttention-2 Algorithm 2) follow the forward's with this prefix.
  if (StartsWith(label, "bwd ")) return std::string(zh ? "反向：" : "backward: ") + EventTitle(label.substr(4), lang);
  // The MoE deployment views (moe_views.cpp).
  if (label == "compute") return zh ? "训练算力估算 6·N·D" : "training compute 6·N·D";
  if (label == "ep:dispatch") return zh ? "专家并行：分发" : "expert parallelism: dispatch";
  if (label == "ep:compute") return zh ? "专家并行：各设备计算" : "expert parallelism: compute";
  if (label == "ep:combine") return zh ? "专家并行：合并" : "expert parallelism: combine";
  if (label == "chart") return zh ? "图表" : "chart";
  if (label == "cpu_gpu") return zh ? "CPU/GPU 放置" : "CPU/GPU placement";
  if (StartsWith(label, "cpu_gpu:")) return EventTitle("cpu_gpu", lang) + (zh ? "，" : ", ") + EventTitle(label.substr(8), lang);
  // Prefix patterns: the rest of the label (indices, tensor names, a token's text) is kept as it is.
  static const std::array<Pattern, 13> patterns = {{
      {"logits S_", "片上的给定分数块 S_", "on chip: the given scores S_"},
      {"load:", "读入块 ", "load block "},
      {"update:", "合并块 ", "merge block "},
      {"read ", "读入 ", "read "},
      {"write ", "写回 ", "write "},
      {"skip ", "跳过全被遮蔽的分块 ", "skip the fully masked tile "},
      {"merge ", "合并分块 ", "merge tile "},
      {"init ", "初始化 ", "initialise "},
      {"compute ", "计算 ", "compute "},
      {"grads ", "梯度分块 ", "gradients of tile "},
      {"token:", "token ", "token "},
      {"S_", "片上计算 S_", "on chip: S_"},
      {"O_", "归一化 O_", "normalise O_"},
  }};
  for (const auto& p : patterns)
    if (StartsWith(label, p.prefix)) return std::string(zh ? p.zh : p.en) + label.substr(std::string(p.prefix).size());
  return label;
}

}  // namespace bw::view
