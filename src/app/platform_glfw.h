// Inside the platform's files only (platform_glfw*.cpp, platform_web.cpp): the opaque
// platform::Window (platform.h) is a GLFW window, on the desktop and on the web alike. The app's own
// files include platform.h, never this.
#pragma once

#include "app/platform.h"

struct GLFWwindow;

namespace bw::app::platform {

inline GLFWwindow* GlfwOf(Window* w) { return reinterpret_cast<GLFWwindow*>(w); }
inline Window* WindowOf(GLFWwindow* w) { return reinterpret_cast<Window*>(w); }

}  // namespace bw::app::platform
