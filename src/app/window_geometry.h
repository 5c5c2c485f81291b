// The first window's size and place: the requested logical size × the monitor's content scale,
// shrunk to fit the monitor's work area (the screen less panels and docks), centred in it. The
// monitor's scale and work area are the platform's to ask (platform_glfw.cpp: FirstWindowGeometry).
#pragma once

namespace bw::app {

struct WorkArea {
  int x = 0, y = 0, w = 0, h = 0;  // screen coordinates (pixels on X11)
};

struct WindowGeometry {
  int x = 0, y = 0, w = 0, h = 0;  // screen coordinates of the client area
  bool placed = false;             // x, y are meaningful (a work area was known)
};

// Pure: `logical_w × logical_h` at `scale`, never larger than `margin` × the work area (room for the
// window manager's title bar and borders), centred in it. An empty work area keeps the scaled size.
WindowGeometry FitWindow(int logical_w, int logical_h, float scale, const WorkArea& area, float margin = 0.94f);

}  // namespace bw::app
