// See event_title.h.
#include "view/event_title.h"

#include <array>

#include "view/ui_text.h"

namespace bw::view {

namespace {

bool StartsWith(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

struct Pattern {
  const char* prefix;     // the label starts with this
  Str words;              // the words before the rest of the label
};

}  // namespace

std::string EventTitle(const std::string& label, const std::string& lang) {
  const auto T = [&](Str k) { return UiText(k, lang); };
  if (label == "start") return T(Str::ev_start);
  if (label == "end") return T(Str::ev_end);
  if (label == "write") return T(Str::ev_write);
  if (label == "(no events)") return T(Str::ev_no_events);
  // The backward's events (FlashAttention-2 Algorithm 2) follow the forward's with this prefix.
  if (StartsWith(label, "bwd ")) return UiFormat(Str::ev_backward, lang, {EventTitle(label.substr(4), lang)});
  // The MoE deployment views (moe_views.cpp).
  if (label == "compute") return T(Str::ev_compute);
  if (label == "ep:dispatch") return T(Str::ev_ep_dispatch);
  if (label == "ep:compute") return T(Str::ev_ep_compute);
  if (label == "ep:combine") return T(Str::ev_ep_combine);
  if (label == "chart") return T(Str::ev_chart);
  if (label == "cpu_gpu") return T(Str::ev_cpu_gpu);
  if (label == "partial") return T(Str::ev_partial);  // split-KV decoding (decode_model.h)
  if (label == "tail") return T(Str::ev_gpu_tail);      // a recorded GPU run (gpu_run_model.h)
  if (label == "compare") return T(Str::ev_gpu_compare);
  if (StartsWith(label, "cpu_gpu:")) return EventTitle("cpu_gpu", lang) + T(Str::list_sep) + EventTitle(label.substr(8), lang);
  // Prefix patterns: the rest of the label (indices, tensor names, a token's text) is kept as it is.
  static const std::array<Pattern, 19> patterns = {{
      {"replay ", Str::evp_gpu_replay},
      {"ring step:", Str::evp_ring_step},
      {"ring send:", Str::evp_ring_send},
      {"splits load:", Str::evp_splits_load},
      {"splits update:", Str::evp_splits_update},
      {"combine:", Str::evp_combine},
      {"logits S_", Str::evp_logits_s},
      {"load:", Str::evp_load},
      {"update:", Str::evp_update},
      {"read ", Str::evp_read},
      {"write ", Str::evp_write},
      {"skip ", Str::evp_skip},
      {"merge ", Str::evp_merge},
      {"init ", Str::evp_init},
      {"compute ", Str::evp_compute},
      {"grads ", Str::evp_grads},
      {"token:", Str::evp_token},
      {"S_", Str::evp_s},
      {"O_", Str::evp_o},
  }};
  for (const auto& p : patterns)
    if (StartsWith(label, p.prefix)) return T(p.words) + label.substr(std::string(p.prefix).size());
  return label;
}

}  // namespace bw::view
