// ReadUserFile, IsUtf8; see user_file.h.
#include "data/user_file.h"

#include <cerrno>
#include <fstream>
#include <system_error>

#include "data/load_error.h"

namespace bw::data {

namespace {

std::string StatusReason(const std::error_code& ec) {
  if (ec == std::errc::no_such_file_or_directory) return "file not found";
  if (ec == std::errc::too_many_symbolic_link_levels) return "a symbolic link loop (a link that points back at itself)";
  if (ec == std::errc::filename_too_long) return "the path is longer than the file system allows";
  if (ec == std::errc::not_a_directory) return "file not found (a part of the path is a file, not a folder)";
  if (ec == std::errc::permission_denied) return "permission denied";
  return "cannot read: " + ec.message();
}

}  // namespace

std::string ReadUserFile(const std::filesystem::path& path, std::uintmax_t max_bytes, const char* what) {
  namespace fs = std::filesystem;
  const std::string file = path.string();
  if (path.empty()) throw LoadError(file, "", "no file name given");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);  // follows links: a loop or a long path sets ec
  if (ec || st.type() == fs::file_type::not_found)
    throw LoadError(file, "", StatusReason(ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory)));
  if (st.type() == fs::file_type::directory) throw LoadError(file, "", "is a folder, not a file");
  if (st.type() != fs::file_type::regular)
    throw LoadError(file, "", "is not a regular file (a pipe, device or socket is never read)");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw LoadError(file, "", StatusReason(ec));
  if (size > max_bytes)
    throw LoadError(file, "", std::string(what) + " is " + std::to_string(size) + " bytes; the limit is " + std::to_string(max_bytes));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(file, "", "cannot open for reading (" + StatusReason(std::error_code(errno ? errno : EACCES, std::generic_category())) + ")");
  // Read up to one byte past the cap, whatever the size said: a file that grew since (an editor
  // writing in place) is read whole while it stays under the cap, and refused only past it.
  std::string text;
  text.reserve(static_cast<std::size_t>(size));
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes)
      throw LoadError(file, "", std::string(what) + " grew past the limit of " + std::to_string(max_bytes) + " bytes while it was read");
  }
  if (in.bad()) throw LoadError(file, "", "cannot read: an input/output error");
  return text;
}

bool IsUtf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    unsigned cp = len == 1 ? c : c & (0x7Fu >> len);
    for (std::size_t k = 1; k < len; ++k) {
      const unsigned char b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    if (len > 1 && (cp < (len == 2 ? 0x80u : len == 3 ? 0x800u : 0x10000u) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
      return false;
    i += len;
  }
  return true;
}

}  // namespace bw::data
