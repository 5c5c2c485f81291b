// Saving a file without ever losing the one already there: the bytes go to a temporary file in the
// same folder, are flushed to disk (fsync), and only then renamed over the target — rename(2) within
// one file system is atomic, so a reader sees the old file or the new one, never half of either.
// Any failure (read-only folder, full disk, file-size limit, I/O error) removes the temporary file,
// leaves the original untouched, and throws SaveError naming the file and the reason on one line.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bw::data {

class SaveError : public std::runtime_error {
 public:
  SaveError(const std::string& file, const std::string& reason)
      : std::runtime_error(file + ": not saved: " + reason + " (the file on disk, if any, is unchanged)"),
        file_(file),
        reason_(reason) {}
  const std::string& file() const { return file_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, reason_;
};

// Writes `bytes` to `path` atomically (temp file + fsync + rename + fsync of the folder).
// A new file gets mode 0644 (less the umask); an existing file keeps its permission bits. An existing
// file without any write permission (read-only), a folder, a device or a pipe is refused.
// Throws SaveError; on return the file holds exactly `bytes`.
void WriteFileAtomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace bw::data
