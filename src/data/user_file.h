// Reading a file the user named (a scenario, a lesson, a course, the settings, a GPU recording):
// the one function every such read goes through (issue 31). It refuses what is not a regular file
// before opening it (a FIFO would block the app for ever, /dev/zero would fill its memory), caps the
// bytes it reads (the cap is the caller's, per kind: kMaxFileBytes for documents), and names what
// went wrong in the user's words: "file not found", "is a folder, not a file", "a symbolic link
// loop", "the path is longer than the file system allows".
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace bw::data {

// The whole of `path`, at most `max_bytes` bytes (a larger file is refused, not cut). Throws LoadError
// (file = path, JSON path "") with the reason; `what` names the kind in the size message ("file is 17 bytes; …", "a recording is …").
std::string ReadUserFile(const std::filesystem::path& path, std::uintmax_t max_bytes, const char* what = "file");

// True when `s` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
// U+10FFFF). A file name that is not (caf\xE9.json on Linux) cannot be written into a JSON document
// as it is.
bool IsUtf8(const std::string& s);

}  // namespace bw::data
