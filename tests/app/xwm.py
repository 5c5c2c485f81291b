#!/usr/bin/python3
"""What a window manager does when it iconifies or restores a window (ICCCM 4.1.3.1: WM_STATE
Iconic or Normal, window unmapped or mapped), for tests under a bare Xvfb with no window manager.
Usage: xwm.py iconify WINDOW_ID | xwm.py restore WINDOW_ID   (DISPLAY from the environment)"""
import ctypes
import ctypes.util
import sys

x11 = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XInternAtom.restype = ctypes.c_ulong
x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x11.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
x11.XMapWindow.argtypes = x11.XUnmapWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
x11.XCloseDisplay.argtypes = [ctypes.c_void_p]

NORMAL, ICONIC = 1, 3
action, wid = sys.argv[1], int(sys.argv[2], 0)
dpy = x11.XOpenDisplay(None)
if not dpy:
    sys.exit("xwm.py: cannot open the display")
wm_state = x11.XInternAtom(dpy, b"WM_STATE", 0)
data = (ctypes.c_long * 2)(ICONIC if action == "iconify" else NORMAL, 0)
if action == "iconify":
    x11.XUnmapWindow(dpy, wid)
x11.XChangeProperty(dpy, wid, wm_state, wm_state, 32, 0, ctypes.cast(data, ctypes.c_void_p), 2)  # PropModeReplace
if action == "restore":
    x11.XMapWindow(dpy, wid)
x11.XSync(dpy, 0)
x11.XCloseDisplay(dpy)
