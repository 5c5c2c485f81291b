// Trace events as words on screen. EventLabel is the id a lesson's "position" names ("update:2",
// "merge (2,1)", "token:3 (cat)"); EventTitle is what the timeline shows, in the chosen language
// ("合并块 2" / "merge block 2"). Indices stay 1-based, as in the papers.
#pragma once

#include <string>

namespace bw::view {

// `label` as the trace writes it → the words shown for it in `lang` ("zh" or "en"). An unknown
// label is returned unchanged (the zh test over every lesson catches it).
std::string EventTitle(const std::string& label, const std::string& lang);

}  // namespace bw::view
