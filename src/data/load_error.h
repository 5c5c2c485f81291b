// LoadError: the one error type every scenario and lesson loader throws.
// It names the file, the JSON path (RFC 6901 JSON Pointer, "" for the whole document) and the reason,
// and prints as one line:  "<file>: <json path>: <reason>"  — the line the CLI and the app show.
#pragma once

#include <stdexcept>
#include <string>

namespace bw::data {

class LoadError : public std::runtime_error {
 public:
  LoadError(std::string file, std::string json_path, std::string reason)
      : std::runtime_error(Format(file, json_path, reason)),
        file_(std::move(file)),
        json_path_(std::move(json_path)),
        reason_(std::move(reason)) {}

  const std::string& file() const { return file_; }
  const std::string& json_path() const { return json_path_; }  // e.g. "/weights/2"; "" = document
  const std::string& reason() const { return reason_; }

 private:
  static std::string Format(const std::string& file, const std::string& path, const std::string& reason) {
    return OneLine(file, 4096) + ": " + (path.empty() ? std::string("(document)") : OneLine(path, 200)) + ": " +
           OneLine(reason, 600);
  }

 public:
  // The line must stay one line of valid UTF-8 whatever the file held (a key with a newline, bytes
  // that are not UTF-8, a 1 MB string echoed in a reason): control characters and invalid bytes are
  // escaped (\n, \x0B, \xFF, \u202E) and overlong parts are cut at a character boundary with "…".
  static std::string OneLine(const std::string& s, size_t max_bytes) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (size_t i = 0; i < s.size();) {
      if (out.size() >= max_bytes) {
        out += "\xE2\x80\xA6";
        break;
      }
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '\n') { out += "\\n"; ++i; continue; }
      if (c == '\r') { out += "\\r"; ++i; continue; }
      if (c == '\t') { out += "\\t"; ++i; continue; }
      size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
      bool ok = len > 0 && i + len <= s.size();
      for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
      if (ok && len > 1) {  // refuse overlong forms, surrogates and code points past U+10FFFF
        unsigned cp = c & (0x7F >> len);
        for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        ok = cp >= (len == 2 ? 0x80u : len == 3 ? 0x800u : 0x10000u) && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
      }
      if (ok && (c < 0x20 || c == 0x7F)) ok = false;  // other control characters
      if (ok && len > 1) {  // C1 controls (U+009B is a terminal's CSI) and the bidi and line controls
        unsigned cp = c & (0x7F >> len);  // (U+202E turns the rest of a line around): written \uXXXX
        for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        if ((cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
            (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF) {
          out += "\\u";
          for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
          i += len;
          continue;
        }
      }
      if (!ok) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 0xF];
        ++i;
        continue;
      }
      out.append(s, i, len);
      i += len;
    }
    return out;
  }

 private:
  std::string file_, json_path_, reason_;
};

}  // namespace bw::data
