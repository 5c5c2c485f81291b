// Data root, export folder and "$schema" references; see paths.h.
#include "app/paths.h"

#include "data/schema_url.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace bw::app {

namespace fs = std::filesystem;

namespace {

fs::path ExecutablePath() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);  // Linux; empty elsewhere
  return ec ? fs::path() : exe;
}

bool HasLessons(const fs::path& root) {
  std::error_code ec;
  return fs::is_directory(root / "lessons", ec);
}

// `inner` lies inside `outer` (both made absolute and normal).
bool Inside(const fs::path& inner, const fs::path& outer) {
  const fs::path a = fs::weakly_canonical(inner), b = fs::weakly_canonical(outer);
  auto i = a.begin();
  for (auto o = b.begin(); o != b.end(); ++o, ++i)
    if (i == a.end() || *i != *o) return false;
  return true;
}

DataRoot Resolve() {
  if (const char* env = std::getenv("BLOCKWISE_ROOT"); env && *env) return {fs::absolute(env), "BLOCKWISE_ROOT"};
  const fs::path exe = ExecutablePath();
  if (!exe.empty()) {
    const fs::path installed = (exe.parent_path() / ".." / "share" / "blockwise").lexically_normal();
    if (HasLessons(installed)) return {installed, "installed"};
#if defined(BLOCKWISE_SOURCE_ROOT) && defined(BLOCKWISE_BUILD_ROOT)
    if (Inside(exe, BLOCKWISE_BUILD_ROOT) && HasLessons(BLOCKWISE_SOURCE_ROOT)) return {BLOCKWISE_SOURCE_ROOT, "source tree"};
#endif
  }
  return {};
}

}  // namespace

const DataRoot& FindDataRoot() {
  static const DataRoot root = Resolve();
  return root;
}

std::string Root() { return FindDataRoot().path.string(); }

fs::path DefaultExportDir() {
  std::error_code ec;
  const char* home_env = std::getenv("HOME");
  const fs::path home = home_env && *home_env ? fs::path(home_env) : fs::path();
  // user-dirs.dirs lines look like XDG_PICTURES_DIR="$HOME/Pictures".
  const auto expand = [&](std::string v) {
    if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
    if (v.rfind("$HOME", 0) == 0) v = home.string() + v.substr(5);
    return fs::path(v);
  };
  fs::path pictures;
  if (const char* env = std::getenv("XDG_PICTURES_DIR"); env && *env) {
    pictures = expand(env);
  } else {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const fs::path config = xdg && *xdg ? fs::path(xdg) : home / ".config";
    std::ifstream in(config / "user-dirs.dirs");
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("XDG_PICTURES_DIR=", 0) == 0) pictures = expand(line.substr(17));
    if (pictures.empty() && !home.empty()) pictures = home / "Pictures";
  }
  if (!pictures.empty() && fs::is_directory(pictures, ec)) return pictures;
  if (!home.empty() && fs::is_directory(home, ec)) return home;
  return fs::current_path(ec);
}

std::string SchemaRefFor(const fs::path& saved_file, const std::string& schema_file) {
  const std::string schema_id = data::SchemaUrl(schema_file);
  std::error_code ec;
  const fs::path root = FindDataRoot().path;
  const fs::path schema = root.empty() ? fs::path() : fs::weakly_canonical(root / "schemas" / schema_file, ec);
  if (root.empty() || ec || !fs::exists(schema, ec)) return schema_id;
  const fs::path folder = fs::weakly_canonical(fs::absolute(saved_file).parent_path(), ec);
  if (ec) return schema_id;
  const fs::path rel = schema.lexically_relative(folder);
  return rel.empty() ? schema_id : rel.generic_string();
}

}  // namespace bw::app
