// WriteFileAtomically; see atomic_write.h. POSIX only (Linux is the target): open(O_EXCL) on a
// unique name beside the target, write in a loop (short writes, EINTR), fsync, rename, fsync the folder.
#include "data/atomic_write.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <random>

namespace bw::data {

namespace {

std::string Errno(const char* what, int err) { return std::string(what) + ": " + std::strerror(err); }

// Temporary files that exist now, for the signal handler below: SIGTERM, SIGINT or SIGHUP during a
// save left ".x.json.tmp-PID-N" beside the file (issue 31, item 16). A few slots, claimed with an
// atomic flag (saves may run on two threads); the handler only reads them and calls unlink(), which
// is async-signal-safe.
constexpr int kSlots = 8;
struct Slot {
  std::atomic<int> state{0};   // 0 free, 1 being filled, 2 holds a path
  char path[4096];
};
Slot g_slots[kSlots];

extern "C" void RemoveTempFilesAndDie(int sig) {
  for (auto& slot : g_slots)
    if (slot.state.load() == 2) ::unlink(slot.path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Installs the handler for the signals still at their default (an application's own handlers are
// left alone), once per process.
void InstallCleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;
      struct sigaction sa {};
      sa.sa_handler = RemoveTempFilesAndDie;
      ::sigemptyset(&sa.sa_mask);
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

// Closes and unlinks the temporary file unless released (after a successful rename); while it
// exists its path is in a slot for the signal handler.
struct TempFile {
  int fd = -1;
  std::string path;
  bool keep = false;
  Slot* slot = nullptr;
  void Track() {
    if (path.size() >= sizeof(Slot::path)) return;
    for (auto& s : g_slots) {
      int expected = 0;
      if (!s.state.compare_exchange_strong(expected, 1)) continue;
      std::memcpy(s.path, path.c_str(), path.size() + 1);
      s.state.store(2);
      slot = &s;
      return;
    }
  }
  void Untrack() {
    if (slot) slot->state.store(0);
    slot = nullptr;
  }
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!keep && !path.empty()) ::unlink(path.c_str());
    Untrack();
  }
};

}  // namespace

void WriteFileAtomically(const std::filesystem::path& asked, std::string_view bytes) {
  const std::string file = asked.string();
  if (asked.empty() || !asked.has_filename()) throw SaveError(file, "no file name given");
  // A symbolic link is written through, as `>` does: the file it names gets the new bytes and the
  // link stays (renaming over it turned a dotfiles link into a plain file and left the real file
  // old: issue 31). A dangling link creates its target; a loop is refused.
  std::filesystem::path path = asked;
  for (int hops = 0;; ++hops) {
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) != 0 || !S_ISLNK(lst.st_mode)) break;
    if (hops >= 40) throw SaveError(file, "a symbolic link loop");
    std::error_code ec;
    const std::filesystem::path to = std::filesystem::read_symlink(path, ec);
    if (ec) throw SaveError(file, "cannot read the symbolic link: " + ec.message());
    path = to.is_absolute() ? to : path.parent_path() / to;
  }
  if (!path.has_filename()) throw SaveError(file, "the symbolic link names a folder");
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");

  struct stat st {};
  mode_t mode = 0644;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw SaveError(file, "is a folder");
    if (!S_ISREG(st.st_mode)) throw SaveError(file, "is not a regular file (a device or pipe is never replaced)");
    // A file nobody may write (chmod a-w) is the user's "do not change": refused, not replaced by a
    // rename that the folder's permissions would allow (and root's would always; issue 31).
    if ((st.st_mode & 0222) == 0) throw SaveError(file, "the file is read-only; choose another name or make it writable");
    mode = st.st_mode & 07777;
  }

  // A hidden name in the same folder, so that rename() never crosses file systems.
  InstallCleanup();
  TempFile tmp;
  std::random_device rd;
  for (int attempt = 0; attempt < 16 && tmp.fd < 0; ++attempt) {
    // The name's first 200 bytes only: a legal 245-byte name plus ".tmp-PID-N" passed NAME_MAX (255)
    // and a save that was allowed failed with "File name too long" (issue 31).
    const std::string name = "." + path.filename().string().substr(0, 200) + ".tmp-" + std::to_string(::getpid()) + "-" +
                             std::to_string(rd() & 0xffffff);
    const std::string candidate = (folder / name).string();
    // The signals wait while the file is created and its path recorded: a SIGTERM in between left it.
    sigset_t block {}, old {};
    ::sigemptyset(&block);
    for (const int sig : {SIGTERM, SIGINT, SIGHUP}) ::sigaddset(&block, sig);
    ::pthread_sigmask(SIG_BLOCK, &block, &old);
    const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    const int err = errno;
    if (fd >= 0) {
      tmp.fd = fd;
      tmp.path = candidate;
      tmp.Track();
    }
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (fd < 0 && err != EEXIST) throw SaveError(file, Errno(("cannot create a temporary file in " + folder.string()).c_str(), err));
  }
  if (tmp.fd < 0) throw SaveError(file, "cannot find a free temporary file name in " + folder.string());

  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(tmp.fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      throw SaveError(file, err == ENOSPC  ? "the disk is full"
                            : err == EFBIG ? "the file is larger than this process may write (file size limit)"
                                           : Errno("write failed", err));
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (::fchmod(tmp.fd, mode) != 0) throw SaveError(file, Errno("cannot set permissions", errno));
  if (::fsync(tmp.fd) != 0) throw SaveError(file, Errno("fsync failed (the data may not be on disk)", errno));
  const int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0) throw SaveError(file, Errno("close failed", errno));
  if (::rename(tmp.path.c_str(), path.c_str()) != 0) throw SaveError(file, Errno("cannot replace the file", errno));
  tmp.keep = true;
  tmp.Untrack();

  // Make the rename itself durable. A failure here is not reported: the new file is in place.
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace bw::data
