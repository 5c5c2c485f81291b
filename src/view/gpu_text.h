// The GPU panel's own strings (issue 33), zh and en, from view/gpu_strings.inc: GpuText(GpuStr::measured,
// lang), GpuFormat with "{}" filled in order, as UiText / UiFormat do for view/ui_strings.inc.
#pragma once

#include <string>
#include <vector>

namespace bw::view {

enum class GpuStr : int {
#define BW_STR(name, zh, en) name,
#include "view/gpu_strings.inc"
#undef BW_STR
};

const std::string& GpuText(GpuStr s, const std::string& lang);
std::string GpuFormat(GpuStr s, const std::string& lang, const std::vector<std::string>& args);
// Every row in both languages (the font atlas bakes them with the rest).
std::vector<std::string> AllGpuTexts();

}  // namespace bw::view
