/* The web edition compiles stb_image_write's implementation here (the desktop links Debian's libstb). */
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
