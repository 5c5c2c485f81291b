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
    return file + ": " + (path.empty() ? std::string("(document)") : path) + ": " + reason;
  }
  std::string file_, json_path_, reason_;
};

}  // namespace bw::data
