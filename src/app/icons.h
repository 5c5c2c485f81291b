// Icons drawn as shapes, not looked up as glyphs: Noto Sans CJK has no pause sign (U+275A showed as
// "??"), so play and pause are painted with the text colour, sized in font units.
#pragma once

namespace bw::app {

// A frame-height square button showing ▶ (not playing) or ❚❚ (playing); true when clicked.
bool PlayPauseButton(bool playing);

}  // namespace bw::app
