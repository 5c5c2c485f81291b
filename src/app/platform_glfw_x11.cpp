// How a desktop frame reaches the window (platform.h [redraw]: BackBufferAge, CanRedrawInPart, Present,
// PictureLost): the desktop platform's (platform_glfw.cpp) X11 half. Compiled on its own, outside the unity build: Xlib's macros (None, Status, Bool, Success …) must not
// reach the files a unity batch would compile with it. GLFW's X11 calls are looked up at run time
// (a GLFW built for Wayland has none: frames are then swapped whole), GLX's through GLX itself.
//
// Software OpenGL (llvmpipe, softpipe) with GLX_MESA_copy_sub_buffer: frames are shown by copying
// the changed rectangles of the back buffer to the window, and the back buffer is never swapped, so
// it always holds the last frame (age 1). Mesa's software back buffer takes the window's new size
// only after a swap: when the size differs from the one at the last swap, that frame is swapped and
// the next one drawn and shown whole. A copy that X rejects anyway (a resize racing the copy: BadValue)
// is caught by our error handler, installed around the copy only, and the next frame is shown whole.
// GPU drivers: swaps, with GLX_EXT_buffer_age where the server offers it; else swaps and age 0.
#include <GLFW/glfw3.h>
#include <GL/glx.h>  // Xlib and GLX types (glfw3native.h would also want XRandR's headers)
#include <GL/glxext.h>
#include <X11/Xlib.h>
#include <X11/Xproto.h>
#include <dlfcn.h>

#include <algorithm>
#include <string>

#include "app/platform_glfw.h"

namespace bw::app::platform {
namespace {

struct Presenter {
  enum class Kind { kSwap, kSwapWithAge, kCopySubBuffer } kind = Kind::kSwap;
  Display* dpy = nullptr;
  GLXWindow (*glx_window)(GLFWwindow*) = nullptr;
  PFNGLXQUERYDRAWABLEPROC query = nullptr;
  PFNGLXCOPYSUBBUFFERMESAPROC copy_sub = nullptr;
  int swapped_w = -1, swapped_h = -1;  // the framebuffer size at the last swap (Mesa's back buffer's)
  bool presented = false;              // kCopySubBuffer: the back buffer holds the last frame shown
  bool lost = true;                    // the window's picture must be shown whole
};

int g_shm_major = -1;     // the MIT-SHM extension's request code (Mesa copies with XShmPutImage)
bool g_copy_failed = false;
int (*g_previous_handler)(Display*, XErrorEvent*) = nullptr;  // the handler outside the copy
int OnCopyError(Display* d, XErrorEvent* e) {
  // The copy's own requests (core PutImage or MIT-SHM's): remembered, and the next frame shown whole.
  if (e->request_code == X_PutImage || (g_shm_major >= 0 && e->request_code == g_shm_major)) {
    g_copy_failed = true;
    return 0;
  }
  return g_previous_handler ? g_previous_handler(d, e) : 0;  // anything else is not ours to hide
}

Presenter& PresenterOf() {
  static Presenter p = [] {
    Presenter q;
    const auto display = reinterpret_cast<Display* (*)()>(dlsym(RTLD_DEFAULT, "glfwGetX11Display"));
    q.glx_window = reinterpret_cast<GLXWindow (*)(GLFWwindow*)>(dlsym(RTLD_DEFAULT, "glfwGetGLXWindow"));
    q.dpy = display ? display() : nullptr;
    if (!q.dpy || !q.glx_window) return q;
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const std::string r = renderer ? renderer : "";
    const bool software = r.find("llvmpipe") != std::string::npos || r.find("softpipe") != std::string::npos ||
                          r.find("swrast") != std::string::npos;
    // A GPU driver swaps in no time and may tear or lose vsync with a copy: only software GL copies.
    if (software && glfwExtensionSupported("GLX_MESA_copy_sub_buffer")) {
      q.copy_sub = reinterpret_cast<PFNGLXCOPYSUBBUFFERMESAPROC>(glfwGetProcAddress("glXCopySubBufferMESA"));
      int event = 0, error = 0;
      if (!XQueryExtension(q.dpy, "MIT-SHM", &g_shm_major, &event, &error)) g_shm_major = -1;
      if (q.copy_sub) q.kind = Presenter::Kind::kCopySubBuffer;
    } else if (glfwExtensionSupported("GLX_EXT_buffer_age")) {  // without it the query is an X error
      q.query = reinterpret_cast<PFNGLXQUERYDRAWABLEPROC>(glfwGetProcAddress("glXQueryDrawable"));
      if (q.query) q.kind = Presenter::Kind::kSwapWithAge;
    }
    return q;
  }();
  return p;
}

}  // namespace

int BackBufferAge(Window* window) {
  Presenter& p = PresenterOf();
  switch (p.kind) {
    case Presenter::Kind::kCopySubBuffer: return p.presented ? 1 : 0;
    case Presenter::Kind::kSwapWithAge: {
      unsigned int age = 0;
      p.query(p.dpy, p.glx_window(GlfwOf(window)), GLX_BACK_BUFFER_AGE_EXT, &age);
      return static_cast<int>(age);
    }
    case Presenter::Kind::kSwap: break;
  }
  return 0;
}

void PictureLost(Window*) { PresenterOf().lost = true; }

bool CanRedrawInPart(Window*) { return PresenterOf().kind != Presenter::Kind::kSwap; }

void Present(Window* window, const std::vector<PixelRect>& changed, int fb_w, int fb_h) {
  Presenter& p = PresenterOf();
  if (p.kind != Presenter::Kind::kCopySubBuffer || fb_w != p.swapped_w || fb_h != p.swapped_h) {
    glfwSwapBuffers(GlfwOf(window));
    p.swapped_w = fb_w, p.swapped_h = fb_h;
    p.presented = false;  // a swapped-in back buffer holds nothing known
    p.lost = true;        // and the next copy shows the whole window
    return;
  }
  const GLXWindow win = p.glx_window(GlfwOf(window));
  XSync(p.dpy, False);  // earlier requests' errors go to the handler they were made under
  g_copy_failed = false;
  g_previous_handler = XSetErrorHandler(&OnCopyError);
  const auto copy = [&](const PixelRect& r) {
    const int x0 = std::max(r.x0, 0), y0 = std::max(r.y0, 0), x1 = std::min(r.x1, fb_w), y1 = std::min(r.y1, fb_h);
    if (x1 > x0 && y1 > y0) p.copy_sub(p.dpy, win, x0, fb_h - y1, x1 - x0, y1 - y0);  // GLX counts rows from the bottom
  };
  if (p.lost) copy({0, 0, fb_w, fb_h});
  else
    for (const PixelRect& r : changed) copy(r);
  XSync(p.dpy, False);  // the copy's errors, if any, reach OnCopyError now
  XSetErrorHandler(g_previous_handler);
  p.lost = g_copy_failed;
  p.presented = !g_copy_failed;
  if (g_copy_failed) p.swapped_w = p.swapped_h = -1;  // the next frame swaps: Mesa then takes the window's size
}

}  // namespace bw::app::platform
