// WriteFileAtomically: the file holds the new bytes after a save, and after a failing save — a
// read-only folder, a full disk (simulated with RLIMIT_FSIZE: write() fails part-way with EFBIG,
// exactly where ENOSPC would) — the original is byte-for-byte intact, no temporary file is left
// behind, and the error says which file and why. Failures run in a forked child so that the
// limit or the dropped privileges never touch the test process.
#include "data/atomic_write.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using bw::data::SaveError;
using bw::data::WriteFileAtomically;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path FreshDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("bw_atomic_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

int CountEntries(const fs::path& d) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d)) ++n;
  return n;
}

// Runs `body` in a child process; returns the SaveError message it caught ("" = no error,
// "CRASH" = the child died). The message travels through a pipe.
template <class F>
std::string InChild(F body) {
  int fds[2];
  if (::pipe(fds) != 0) return "pipe failed";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    std::string msg;
    try {
      body();
    } catch (const SaveError& e) {
      msg = e.what();
    } catch (const std::exception& e) {
      msg = std::string("OTHER: ") + e.what();
    }
    if (!msg.empty() && ::write(fds[1], msg.data(), msg.size()) < 0) _exit(3);
    _exit(0);
  }
  ::close(fds[1]);
  std::string out;
  char buf[512];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "CRASH";
  return out;
}

TEST(AtomicWrite, WritesNewFileAndReplacesExisting) {
  const auto d = FreshDir("ok");
  const auto f = d / "lesson.json";
  WriteFileAtomically(f, "first");
  EXPECT_EQ(Slurp(f), "first");
  ::chmod(f.c_str(), 0640);
  WriteFileAtomically(f, std::string(100000, 'x'));
  EXPECT_EQ(Slurp(f), std::string(100000, 'x'));
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u) << "an existing file keeps its permissions";
  WriteFileAtomically(f, "");
  EXPECT_EQ(Slurp(f), "");
  EXPECT_EQ(CountEntries(d), 1) << "no temporary file left behind";
  fs::remove_all(d);
}

// A settings file or an output kept in a dotfiles folder through a link (issue 31): the link stays a
// link and the file it names gets the bytes (the rename replaced the link and left the file old).
TEST(AtomicWrite, WritesThroughASymbolicLink) {
  const auto d = FreshDir("link");
  fs::create_directories(d / "dotfiles");
  const auto target = d / "dotfiles" / "settings.json";
  WriteFileAtomically(target, "{\"old\": true}");
  fs::create_symlink("dotfiles/settings.json", d / "settings.json");  // relative, as `ln -s` makes them
  fs::create_symlink(d / "settings.json", d / "chain.json");          // a link to the link
  WriteFileAtomically(d / "chain.json", "new");
  EXPECT_TRUE(fs::is_symlink(d / "settings.json"));
  EXPECT_TRUE(fs::is_symlink(d / "chain.json"));
  EXPECT_EQ(Slurp(target), "new");
  EXPECT_EQ(CountEntries(d / "dotfiles"), 1) << "no temporary file left beside the target";
  // A dangling link creates the file it names; a loop is refused by name.
  fs::create_symlink("dotfiles/later.json", d / "later.json");
  WriteFileAtomically(d / "later.json", "made");
  EXPECT_EQ(Slurp(d / "dotfiles" / "later.json"), "made");
  EXPECT_TRUE(fs::is_symlink(d / "later.json"));
  fs::create_symlink("loop_b.json", d / "loop_a.json");
  fs::create_symlink("loop_a.json", d / "loop_b.json");
  try {
    WriteFileAtomically(d / "loop_a.json", "x");
    ADD_FAILURE() << "a link loop was written";
  } catch (const SaveError& e) {
    EXPECT_NE(std::string(e.what()).find("symbolic link loop"), std::string::npos) << e.what();
  }
  fs::remove_all(d);
}

TEST(AtomicWrite, ReadOnlyFolderLeavesOriginalIntact) {
  const auto d = FreshDir("ro");
  const auto f = d / "scenario.json";
  WriteFileAtomically(f, "original");
  ::chmod(d.c_str(), 0555);
  const std::string msg = InChild([&] {
    // root ignores folder permissions: drop to "nobody" in the child so the folder really is read-only.
    if (::geteuid() == 0 && ::setuid(65534) != 0) throw std::runtime_error("cannot drop root");
    WriteFileAtomically(f, "new bytes");
  });
  ::chmod(d.c_str(), 0755);
  EXPECT_NE(msg.find(f.string() + ": not saved: cannot create a temporary file in"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Permission denied"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unchanged"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line";
  EXPECT_EQ(Slurp(f), "original");
  EXPECT_EQ(CountEntries(d), 1);
  fs::remove_all(d);
}

TEST(AtomicWrite, FullDiskLeavesOriginalIntact) {
  const auto d = FreshDir("full");
  const auto f = d / "export.json";
  WriteFileAtomically(f, "original");
  const std::string msg = InChild([&] {
    // Files may grow to 4096 bytes; the save needs 1 MB. write() then fails with EFBIG part-way,
    // as it would fail with ENOSPC on a full disk (SIGXFSZ ignored so the error is returned).
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim {4096, 4096};
    if (::setrlimit(RLIMIT_FSIZE, &lim) != 0) throw std::runtime_error("setrlimit failed");
    WriteFileAtomically(f, std::string(1 << 20, 'y'));
  });
  EXPECT_NE(msg.find(f.string() + ": not saved: the file is larger than this process may write"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unchanged"), std::string::npos) << msg;
  EXPECT_EQ(Slurp(f), "original");
  EXPECT_EQ(CountEntries(d), 1) << "the partial temporary file is removed";
  fs::remove_all(d);
}

TEST(AtomicWrite, RefusesFoldersDevicesAndMissingFolders) {
  const auto d = FreshDir("odd");
  try {
    WriteFileAtomically(d, "x");
    ADD_FAILURE() << "wrote over a folder";
  } catch (const SaveError& e) {
    EXPECT_NE(std::string(e.what()).find("is a folder"), std::string::npos) << e.what();
  }
  try {
    WriteFileAtomically("/dev/null", "x");
    ADD_FAILURE() << "replaced /dev/null";
  } catch (const SaveError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  try {
    WriteFileAtomically(d / "no_such_folder" / "a.json", "x");
    ADD_FAILURE() << "wrote into a missing folder";
  } catch (const SaveError& e) {
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
  EXPECT_EQ(CountEntries(d), 0);
  fs::remove_all(d);
}

// Issue 31, item 8: Save As replaced a read-only file (the folder was writable; root ignores modes).
TEST(AtomicWrite, RefusesAReadOnlyFileAndKeepsIt) {
  const auto d = FreshDir("readonly");
  const auto f = d / "shipped.json";
  WriteFileAtomically(f, "original");
  ::chmod(f.c_str(), 0444);
  try {
    WriteFileAtomically(f, "replacement");
    ADD_FAILURE() << "a read-only file was replaced";
  } catch (const SaveError& e) {
    EXPECT_NE(std::string(e.what()).find("read-only"), std::string::npos) << e.what();
  }
  EXPECT_EQ(Slurp(f), "original");
  EXPECT_EQ(CountEntries(d), 1) << "no temporary file left behind";
  ::chmod(f.c_str(), 0644);
  fs::remove_all(d);
}

// Issue 31, item 12: a legal 245-byte name failed with "File name too long" (the temporary name is
// the target's name and ~25 bytes more).
TEST(AtomicWrite, SavesUnderTheLongestLegalName) {
  const auto d = FreshDir("longname");
  const auto f = d / (std::string(245, 'n') + ".json");  // 250 bytes: legal (NAME_MAX 255)
  WriteFileAtomically(f, "saved");
  EXPECT_EQ(Slurp(f), "saved");
  EXPECT_EQ(CountEntries(d), 1);
  fs::remove_all(d);
}

}  // namespace

namespace {

// Issue 31, item 16: SIGTERM (or Ctrl+C, or a closed terminal) during a save left the temporary
// ".x.json.tmp-PID-N" beside the file. The child writes 256 MiB; the parent waits for the temporary
// file to appear (inotify), sends the signal, and finds the original intact and nothing else there.
TEST(AtomicWrite, ASignalDuringASaveLeavesNoTemporaryFile) {
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    SCOPED_TRACE(strsignal(sig));
    const fs::path dir = FreshDir("signal" + std::to_string(sig));
    const fs::path file = dir / "lesson.json";
    std::ofstream(file) << "old";
    const int in = ::inotify_init1(IN_CLOEXEC);
    ASSERT_GE(in, 0);
    ASSERT_GE(::inotify_add_watch(in, dir.c_str(), IN_CREATE), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      try {
        WriteFileAtomically(file, std::string(std::size_t{256} << 20, 'x'));
      } catch (...) {
      }
      ::_exit(0);
    }
    alignas(inotify_event) char buf[4096];
    const ssize_t n = ::read(in, buf, sizeof buf);   // the temporary file was created
    ASSERT_GT(n, 0);
    ::kill(child, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ::close(in);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the child finished its 256 MiB save before the signal";
    EXPECT_EQ(WTERMSIG(status), sig);   // it still dies of the signal, as it would have
    EXPECT_EQ(Slurp(file), "old");
    EXPECT_EQ(CountEntries(dir), 1);
    fs::remove_all(dir);
  }
}

}  // namespace
