// Files that are not ours, leftovers of a crashed run, and failures that must be named
// (issue 14, docs/reference/reliability.md).
#include <catch2/catch.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "guard/owned_files.hpp"
#include "guard/owner_record.hpp"
#include "guard/position.hpp"
#include "guard/watchdog.hpp"
#include "mpi_test.hpp"
#include "pio/context.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {
std::string null_block(const std::string &test_file, const std::string &extra = "") {
  return "TestFile " + test_file + "\n" + extra +
         "<ap_module>\nModuleName test_faults\nTests 1\n</ap_module>\n";
}
std::string text_of(const std::string &path) {
  auto b = pio::test::read_bytes(path);
  return std::string(b.begin(), b.end());
}
bool is_link(const std::string &path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}
/// Names in dir that contain `part`.
std::vector<std::string> names_with(const std::string &dir, const std::string &part) {
  std::vector<std::string> out;
  if (DIR *d = ::opendir(dir.c_str())) {
    while (dirent *e = ::readdir(d))
      if (std::string(e->d_name).find(part) != std::string::npos)
        out.emplace_back(e->d_name);
    ::closedir(d);
  }
  return out;
}
long long now_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}
/// The line a run stamps into its owner record after closing path: device, inode, size, mtime.
std::string stamp_line(const std::string &path) {
  struct stat st {};
  ::lstat(path.c_str(), &st);
  return "file closed " + std::to_string(st.st_dev) + " " + std::to_string(st.st_ino) + " " +
         std::to_string(st.st_size) + " " +
         std::to_string(static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL +
                        st.st_mtim.tv_nsec) +
         "\n";
}
/// A leftover: the file and an owner record naming `host`, `pid` and its start (collective);
/// stamped as a run leaves it after closing the file, unless `stamped` is false (a run that
/// died between writing its record and making the file).
void leftover(const std::string &path, const std::string &host, long pid, bool stamped = true,
              long long start = 1) {
  pio::test::write_text(path, "left by a dead run"); // collective
  const auto &me = pio::harness::my_owner_record();
  pio::test::write_text(pio::harness::owner_record_path(path),
                        "pio-bench owner record v1\nrun dead-run\nhost " + host + "\npid " +
                            std::to_string(pid) + "\nboot " + me.boot_id + "\nstart " +
                            std::to_string(start) + "\nstarted_at 2020-01-01T00:00:00Z\ncreated " +
                            std::to_string(now_ns() - 10000000000LL) + "\n" +
                            (stamped ? stamp_line(path) : ""));
}
/// A pid no process can have: above the kernel's pid_max.
long dead_pid() {
  long pid_max = 4194304;
  std::ifstream("/proc/sys/kernel/pid_max") >> pid_max;
  return pid_max + 1;
}
} // namespace

TEST_CASE("the results file: never a file this run did not create, a link or a directory",
          "[hardening]") {
  pio::test::TempDir dir;
  const std::string data = dir.file("r.dat");
  pio::harness::RunOptions opt;
  SECTION("an existing results file is refused and kept, unless --overwrite") {
    opt.results_path = dir.file("old.json");
    pio::test::write_text(opt.results_path, "precious");
    auto ran = pio::test::run_config_with(dir, "old", null_block(data), opt);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(all_ranks(text_of(opt.results_path) == "precious"));
    REQUIRE(on_root([&] {
      return ran.err.find("exists and was not written by this run") != std::string::npos &&
             ran.err.find("--overwrite") != std::string::npos;
    }));
    opt.overwrite = true;
    ran = pio::test::run_config_with(dir, "old", null_block(data), opt);
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(
        all_ranks(text_of(opt.results_path).find("\"status\": \"complete\"") != std::string::npos));
  }
  SECTION("a symbolic link is refused, even with --overwrite, and stays a link") {
    opt.results_path = dir.file("link.json");
    pio::test::write_text(dir.file("target.json"), "target");
    if (pio::test::rank() == 0)
      REQUIRE(::symlink(dir.file("target.json").c_str(), opt.results_path.c_str()) == 0);
    MPI_Barrier(MPI_COMM_WORLD);
    opt.overwrite = true;
    const auto ran = pio::test::run_config_with(dir, "link", null_block(data), opt);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(all_ranks(is_link(opt.results_path) && text_of(dir.file("target.json")) == "target"));
    REQUIRE(on_root([&] { return ran.err.find("is a symbolic link") != std::string::npos; }));
  }
  SECTION("a directory, or a directory that does not exist, is refused before any I/O") {
    opt.results_path = dir.path();
    auto ran = pio::test::run_config_with(dir, "isdir", null_block(data), opt);
    REQUIRE(all_ranks(ran.exit_code == 2));
    opt.results_path = dir.file("no/such/dir/r.json");
    ran = pio::test::run_config_with(dir, "nodir", null_block(data), opt);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(on_root([&] { return ran.err.find("does not exist") != std::string::npos; }));
    REQUIRE(all_ranks(!pio::test::exists(data)));
  }
  SECTION("a user's <results>.tmp is never touched; our temporaries never stay") {
    opt.results_path = dir.file("t.json");
    pio::test::write_text(opt.results_path + ".tmp", "user's");
    const auto ran = pio::test::run_config_with(dir, "t", null_block(data), opt);
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(all_ranks(text_of(opt.results_path + ".tmp") == "user's"));
    REQUIRE(all_ranks(names_with(dir.path(), "pio-tmp").empty()));
  }
  SECTION("results that cannot be written at the end fail the run (exit 1), never exit 0") {
    ::mkdir(dir.file("res").c_str(), 0755);
    opt.results_path = dir.file("res/r.json");
    const auto ran = pio::test::run_config_with(
        dir, "lost",
        "TestFile " + data + "\n<ap_module>\nModuleName test_faults\nTests 1\nMoveAway " +
            dir.file("res") + "\n</ap_module>\n",
        opt);
    REQUIRE(all_ranks(ran.exit_code == 1));
    REQUIRE(on_root([&] {
      return ran.err.find("results could not be written at the end") != std::string::npos;
    }));
    // What was written before is still there, and no temporary was left.
    REQUIRE(all_ranks(pio::test::exists(dir.file("res.moved/r.json"))));
    REQUIRE(all_ranks(names_with(dir.file("res.moved"), "pio-tmp").empty()));
  }
}

TEST_CASE("a TestFile that is a symbolic link is refused, never followed or deleted",
          "[hardening]") {
  pio::test::TempDir dir;
  const std::string link = dir.file("dangling.dat");
  const std::string target = dir.file("target-never-created.dat");
  if (pio::test::rank() == 0)
    REQUIRE(::symlink(target.c_str(), link.c_str()) == 0);
  MPI_Barrier(MPI_COMM_WORLD);
  for (bool overwrite : {false, true}) {
    const auto ran = pio::test::run_config(dir, "dangling", null_block(link), false, overwrite);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(all_ranks(is_link(link) && !pio::test::exists(target)));
    REQUIRE(on_root([&] { return ran.err.find("is a symbolic link") != std::string::npos; }));
  }
}

TEST_CASE("leftovers of a dead pio-bench run are recognised; unmarked files never touched",
          "[hardening]") {
  pio::test::TempDir dir;
  const std::string data = dir.file("left.dat");
  const auto &me = pio::harness::my_owner_record();
  SECTION("owner provably gone on this host: removed automatically, with ROMIO's files") {
    leftover(data, me.host, dead_pid());
    // ROMIO's shared-file-pointer file of that run; one older than its record; another file's.
    pio::test::write_text(dir.file(".left.dat.shfp.4711"), "shared pointer");
    pio::test::write_text(dir.file(".left.dat.shfp.9"), "older than the run");
    pio::test::write_text(dir.file(".other.dat.shfp.1"), "not next to our file");
    if (pio::test::rank() == 0) {
      const timeval old[2] = {{1000000000, 0}, {1000000000, 0}};
      REQUIRE(::utimes(dir.file(".left.dat.shfp.9").c_str(), old) == 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const auto ran = pio::test::run_config(dir, "gone", null_block(data));
    REQUIRE(all_ranks(!pio::test::exists(dir.file(".left.dat.shfp.4711"))));
    REQUIRE(all_ranks(text_of(dir.file(".left.dat.shfp.9")) == "older than the run"));
    REQUIRE(all_ranks(text_of(dir.file(".other.dat.shfp.1")) == "not next to our file"));
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(on_root([&] {
      return ran.err.find("removed " + data + ", left behind by pio-bench run dead-run") !=
             std::string::npos;
    }));
    REQUIRE(all_ranks(!pio::test::exists(data) &&
                      !pio::test::exists(pio::harness::owner_record_path(data))));
  }
  SECTION("owner on another host: refused, removed with --clean-stale") {
    leftover(data, "some-other-host.invalid", 4242);
    auto ran = pio::test::run_config(dir, "other", null_block(data));
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(all_ranks(text_of(data) == "left by a dead run"));
    REQUIRE(on_root([&] { return ran.err.find("--clean-stale") != std::string::npos; }));
    pio::harness::RunOptions opt;
    opt.clean_stale = true;
    ran = pio::test::run_config_with(dir, "other2", null_block(data), opt);
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(all_ranks(!pio::test::exists(data)));
  }
  SECTION("owner alive (this very process): refused") {
    pio::test::write_text(data, "in use");
    if (pio::test::rank() == 0)
      REQUIRE(pio::harness::write_owner_record(data));
    MPI_Barrier(MPI_COMM_WORLD);
    const auto ran = pio::test::run_config(dir, "alive", null_block(data));
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(on_root([&] { return ran.err.find("which is still running") != std::string::npos; }));
    REQUIRE(all_ranks(text_of(data) == "in use"));
  }
  SECTION("a file with a record that is not ours is an unmarked file: refused, untouched") {
    pio::test::write_text(data, "user data");
    pio::test::write_text(pio::harness::owner_record_path(data), "something else\n");
    pio::harness::RunOptions opt;
    opt.clean_stale = true;
    const auto ran = pio::test::run_config_with(dir, "foreign", null_block(data), opt);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(all_ranks(text_of(data) == "user data"));
  }
  SECTION("owner killed a moment ago and not yet reaped (a zombie): gone, an immediate rerun "
          "goes on") {
    pid_t child = 0;
    long long start = 0;
    if (pio::test::rank() == 0) {
      child = ::fork();
      if (child == 0)
        for (;;)
          ::pause();
      std::ifstream f("/proc/" + std::to_string(child) + "/stat");
      std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      std::istringstream rest(text.substr(text.rfind(')') + 1));
      std::string field;
      for (int i = 3; i <= 22; ++i)
        rest >> field;
      start = std::stoll(field);
      ::kill(child, SIGKILL);
      for (int i = 0; i < 500; ++i) { // until the kernel shows it dead, never reaping it
        std::ifstream st("/proc/" + std::to_string(child) + "/stat");
        std::string all((std::istreambuf_iterator<char>(st)), std::istreambuf_iterator<char>());
        if (all.find(") Z ") != std::string::npos)
          break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    MPI_Bcast(&child, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&start, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    leftover(data, me.host, child, true, start);
    const auto ran = pio::test::run_config(dir, "zombie", null_block(data));
    if (pio::test::rank() == 0)
      ::waitpid(child, nullptr, 0);
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(
        on_root([&] { return ran.err.find("which is no longer running") != std::string::npos; }));
    REQUIRE(all_ranks(!pio::test::exists(data)));
  }
  SECTION("a kept file loses its owner record: it is the user's now") {
    const auto ran = pio::test::run_config(dir, "kept", null_block(data), true);
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(all_ranks(pio::test::exists(data) &&
                      !pio::test::exists(pio::harness::owner_record_path(data))));
  }
}

TEST_CASE("a negative byte count from work_unit is an error naming the rank", "[hardening]") {
  pio::test::TempDir dir;
  const auto ran = pio::test::run_config(
      dir, "negative",
      "TestFile " + dir.file("n.dat") +
          "\n<ap_module>\nModuleName test_faults\nTests 1\nReturnBytes -4096\n</ap_module>\n");
  REQUIRE(all_ranks(ran.exit_code == 1));
  REQUIRE(on_root([&] {
    const auto &t = ran.results.at("modules").at(0).at("tests").at(0);
    return !t.at("error").is_null() && t["error"]["message"].get<std::string>().find(
                                           "negative byte count (-4096)") != std::string::npos;
  }));
}

TEST_CASE("the rank that failed is recorded and named, not the lowest rank of the test",
          "[hardening]") {
  pio::test::TempDir dir;
  const int last = pio::test::size() - 1;
  const auto ran = pio::test::run_config(
      dir, "lastrank",
      "TestFile " + dir.file("l.dat") +
          "\n<ap_module>\nModuleName test_faults\nTests 1\nFailIn describe_test\nFailRank " +
          std::to_string(last) + "\n</ap_module>\n");
  REQUIRE(all_ranks(ran.exit_code == 1));
  REQUIRE(on_root([&] {
    const auto &t = ran.results.at("modules").at(0).at("tests").at(0);
    return t.at("error").at("rank") == last &&
           ran.err.find("rank " + std::to_string(last) + " on ") != std::string::npos;
  }));
}

TEST_CASE("names and comments that are not UTF-8 are recorded, never fatal", "[hardening]") {
  pio::test::TempDir dir;
  pio::harness::RunOptions opt;
  opt.csv_path = dir.file("latin1.csv");
  const std::string data = dir.file("caf\xe9.dat");
  const auto ran = pio::test::run_config_with(
      dir, "latin1",
      "# r\xe9sultats (Latin-1)\nTestFile " + data +
          "\n<ap_module>\nModuleName test_faults\nTests 1\nFileSuffix .\xff\n</ap_module>\n",
      opt);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    // The document on disk is valid JSON (invalid bytes replaced), and so is the CSV written.
    const auto doc = nlohmann::json::parse(text_of(dir.file("latin1.json")));
    const std::string replaced = "caf\xef\xbf\xbd.dat"; // U+FFFD for the byte 0xE9
    return doc.at("status") == "complete" &&
           doc.at("test_file").get<std::string>().find(replaced) != std::string::npos &&
           doc.at("config_text").get<std::string>().find("r\xef\xbf\xbdsultats") !=
               std::string::npos &&
           text_of(opt.csv_path).find("\ntest_faults,") != std::string::npos;
  }));
  REQUIRE(all_ranks(names_with(dir.path(), "pio-tmp").empty()));
}

TEST_CASE("loading: an API-version mismatch leads the message; a module in two named "
          "directories is an error when the config names it",
          "[hardening]") {
  pio::test::TempDir dir, a, b;
  pio::harness::RunOptions opt;
  opt.module_dirs = {PIO_BAD_MODULE_DIR, pio::test::module_dir()};
  auto ran = pio::test::run_config_with(dir, "oldapi",
                                        "TestFile " + dir.file("x.dat") +
                                            "\n<ap_module>\nModuleName bad_version\n</ap_module>\n",
                                        opt);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(on_root([&] {
    const auto at = ran.err.find("module API version 999");
    return at != std::string::npos && at < ran.err.find("no such module");
  }));
  // Two builds of null (their manifests differ in the build id), each with its manifest.
  const auto bytes = pio::test::read_bytes(pio::test::module_dir() + "/null.so");
  const auto manifest = pio::test::read_bytes(pio::test::module_dir() + "/null.pio-manifest");
  if (pio::test::rank() == 0)
    for (const auto *d : {&a, &b}) {
      std::ofstream f(d->file("null.so"), std::ios::binary);
      f.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
      f.close();
      std::string text(manifest.begin(), manifest.end());
      if (d == &b)
        text = std::regex_replace(text, std::regex("build_id [0-9a-f]+"), "build_id 0123");
      std::ofstream(d->file("null.pio-manifest")) << text;
    }
  MPI_Barrier(MPI_COMM_WORLD);
  opt.module_dirs = {a.path(), b.path()};
  ran = pio::test::run_config_with(
      dir, "twice",
      "TestFile " + dir.file("x.dat") + "\n<ap_module>\nModuleName null\n</ap_module>\n", opt);
  REQUIRE(all_ranks(ran.exit_code == 2));
  REQUIRE(on_root([&] {
    return ran.err.find("module null is provided by both " + a.file("null.so") + " and " +
                        b.file("null.so")) != std::string::npos;
  }));
}

TEST_CASE("a user's file is never removed on a stale owner record that does not prove it ours",
          "[hardening]") {
  pio::test::TempDir dir;
  const std::string data = dir.file("t.dat");
  const std::string record = pio::harness::owner_record_path(data);
  const auto &me = pio::harness::my_owner_record();
  auto refused_and_kept = [&](const pio::test::Ran &ran, const std::string &content,
                              const std::string &record_text) {
    return all_ranks(ran.exit_code == 2) && all_ranks(text_of(data) == content) &&
           all_ranks(text_of(record) == record_text) && on_root([&] {
             return ran.err.find("test file " + data + " has the owner record " + record) !=
                        std::string::npos &&
                    ran.err.find("no longer running") != std::string::npos &&
                    ran.err.find("pio-harness removes neither") != std::string::npos &&
                    ran.err.find("remove only the stale record " + record) != std::string::npos;
           });
  };
  SECTION("the user rewrote the file in place, same length (only the mtime differs)") {
    leftover(data, me.host, dead_pid());
    const std::string rec = text_of(record);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    pio::test::write_text(data, "MY OWN DATA, KEEP!"); // as long as "left by a dead run"
    const auto ran = pio::test::run_config(dir, "inplace", null_block(data));
    REQUIRE(refused_and_kept(ran, "MY OWN DATA, KEEP!", rec));
    REQUIRE(on_root(
        [&] { return ran.err.find("was changed after that run left it") != std::string::npos; }));
    // --clean-stale does not change that: the record proves nothing.
    pio::harness::RunOptions opt;
    opt.clean_stale = true;
    REQUIRE(refused_and_kept(pio::test::run_config_with(dir, "inplace2", null_block(data), opt),
                             "MY OWN DATA, KEEP!", rec));
  }
  SECTION("the user rewrote in place a file the dead run had open (its record stamped open, "
          "touched while the run wrote): the change came after the run was last seen") {
    pio::test::write_text(data, "left by a dead run"); // collective
    struct stat st {};
    ::stat(data.c_str(), &st);
    // The run's record: stamped open (device and inode) and refreshed every 5 s while it wrote;
    // its last touch a minute ago, so the user's rewrite (now) came after the run had died.
    pio::test::write_text(record, "pio-bench owner record v1\nrun dead-run\nhost " + me.host +
                                      "\npid " + std::to_string(dead_pid()) + "\nboot " +
                                      me.boot_id +
                                      "\nstart 1\nstarted_at 2020-01-01T00:00:00Z\n"
                                      "created 1\nfile open " +
                                      std::to_string(st.st_dev) + " " + std::to_string(st.st_ino) +
                                      " 0 0 0\nrefresh 5\n");
    if (pio::test::rank() == 0) {
      const timespec a_minute_ago[2] = {{::time(nullptr) - 60, 0}, {::time(nullptr) - 60, 0}};
      REQUIRE(::utimensat(AT_FDCWD, record.c_str(), a_minute_ago, 0) == 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const std::string rec = text_of(record);
    pio::test::write_text(data, "MY OWN DATA, KEEP!"); // in place: the same inode
    ::stat(data.c_str(), &st);
    const auto parsed = pio::harness::read_owner_record(data);
    REQUIRE(
        all_ranks(parsed && parsed->open && parsed->ino == st.st_ino && parsed->refresh_s == 5));
    const auto ran = pio::test::run_config(dir, "openinplace", null_block(data));
    REQUIRE(refused_and_kept(ran, "MY OWN DATA, KEEP!", rec));
    REQUIRE(on_root([&] {
      return ran.err.find("the file was changed after that run was last seen") != std::string::npos;
    }));
  }
  SECTION("a file stamped open is the run's while its change time is within the grace after "
          "the record's last touch, another's after it") {
    pio::test::write_text(data, "written by the run");
    struct stat st {};
    ::stat(data.c_str(), &st);
    pio::harness::OwnerRecord r = me;
    r.stamped = r.open = true;
    r.dev = st.st_dev;
    r.ino = st.st_ino;
    r.refresh_s = 5;
    const long long changed = st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
    r.seen_ns = changed - (pio::harness::kRecordGraceS - 1) * 1000000000LL;
    REQUIRE(all_ranks(pio::harness::file_differs(r, data).empty()));
    r.seen_ns = changed - (pio::harness::kRecordGraceS + 1) * 1000000000LL;
    REQUIRE(all_ranks(pio::harness::file_differs(r, data).find("changed after that run was last "
                                                               "seen") != std::string::npos));
    r.refresh_s = 0; // a record of pio-bench 0.4.0: device and inode alone
    REQUIRE(all_ranks(pio::harness::file_differs(r, data).empty()));
  }
  SECTION("the user replaced the file by a new one") {
    leftover(data, me.host, dead_pid());
    const std::string rec = text_of(record);
    if (pio::test::rank() == 0)
      REQUIRE(::unlink(data.c_str()) == 0);
    pio::test::write_text(dir.file("hold.dat"), "keeps the old inode number in use");
    pio::test::write_text(data, "a new file of the user's, longer than the old one");
    const auto ran = pio::test::run_config(dir, "replaced", null_block(data));
    REQUIRE(refused_and_kept(ran, "a new file of the user's, longer than the old one", rec));
  }
  SECTION("the run died before it made the file: a file there now is not proved ours") {
    leftover(data, me.host, dead_pid(), false);
    const std::string rec = text_of(record);
    const auto ran = pio::test::run_config(dir, "unstamped", null_block(data));
    REQUIRE(refused_and_kept(ran, "left by a dead run", rec));
  }
  SECTION("the stamps a run writes prove its own file, and only while it is unchanged") {
    const std::string mine = dir.file("own." + std::to_string(pio::test::rank()));
    pio::harness::OwnedFiles files(false, false);
    files.claim(mine);
    auto rec = pio::harness::read_owner_record(mine);
    REQUIRE(all_ranks(rec && !rec->stamped && rec->created_ns > 0));
    { std::ofstream(mine) << "written by the run"; }
    files.stamp(mine, true); // opened: device and inode
    rec = pio::harness::read_owner_record(mine);
    struct stat st {};
    ::stat(mine.c_str(), &st);
    REQUIRE(all_ranks(rec && rec->stamped && rec->open && rec->dev == st.st_dev &&
                      rec->ino == st.st_ino));
    { std::ofstream(mine, std::ios::app) << ", more"; }
    REQUIRE(all_ranks(pio::harness::file_differs(*rec, mine).empty())); // open: still moving
    files.stamp(mine, false); // closed: size and modification time too
    rec = pio::harness::read_owner_record(mine);
    ::stat(mine.c_str(), &st);
    REQUIRE(all_ranks(rec && !rec->open && rec->size == st.st_size &&
                      rec->mtime_ns == st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec &&
                      pio::harness::file_differs(*rec, mine).empty()));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    { std::ofstream(mine) << "WRITTEN BY THE RUN, more"; } // same size, later mtime
    REQUIRE(all_ranks(!pio::harness::file_differs(*rec, mine).empty()));
    REQUIRE(all_ranks(files.release(mine) && !pio::test::exists(mine) &&
                      !pio::test::exists(pio::harness::owner_record_path(mine))));
    REQUIRE(all_ranks(names_with(dir.path(), "pio-tmp").empty()));
  }
  SECTION("a file made again under the inode number of the run's file is another file (its "
          "birth time differs), even while the record says open") {
    const std::string mine = dir.file("reborn." + std::to_string(pio::test::rank()));
    pio::harness::OwnedFiles files(false, false);
    files.claim(mine);
    { std::ofstream(mine) << "written by the run"; }
    files.stamp(mine, true);
    auto rec = pio::harness::read_owner_record(mine);
    struct statx sx {};
    const bool has_birth =
        ::statx(AT_FDCWD, mine.c_str(), 0, STATX_BTIME, &sx) == 0 && (sx.stx_mask & STATX_BTIME);
    // Where the file system records births, the stamp carries it; an inode number reused by a
    // new file (ext4 does) is what the record of the same device and inode but another birth
    // stands for here.
    REQUIRE(all_ranks(rec && (!has_birth || rec->btime_ns == sx.stx_btime.tv_sec * 1000000000LL +
                                                                 sx.stx_btime.tv_nsec)));
    REQUIRE(all_ranks(pio::harness::file_differs(*rec, mine).empty()));
    auto reborn = *rec;
    reborn.btime_ns += 1;
    const std::string why = pio::harness::file_differs(reborn, mine);
    REQUIRE(all_ranks(!has_birth || why.find("another one made under the same inode number") !=
                                        std::string::npos));
    REQUIRE(all_ranks(files.release(mine) && !pio::test::exists(mine)));
  }
}

TEST_CASE("a file named <TestFile>.pio-owner that is not an owner record is never removed or "
          "overwritten",
          "[hardening]") {
  pio::test::TempDir dir;
  const std::string data = dir.file("notes.dat");
  const std::string record = pio::harness::owner_record_path(data);
  pio::test::write_text(record, "my notes about notes.dat\n");
  for (bool overwrite : {false, true}) {
    pio::harness::RunOptions opt;
    opt.overwrite = overwrite;
    opt.clean_stale = overwrite;
    const auto ran = pio::test::run_config_with(dir, "notes", null_block(data), opt);
    REQUIRE(all_ranks(ran.exit_code == 2));
    REQUIRE(all_ranks(text_of(record) == "my notes about notes.dat\n"));
    REQUIRE(all_ranks(!pio::test::exists(data)));
    REQUIRE(on_root([&] {
      return ran.err.find(record + " exists but is not a pio-bench owner record") !=
                 std::string::npos &&
             ran.err.find("rename or remove " + record) != std::string::npos;
    }));
  }
}

// 4 ranks: the ranks that agree with each other are a range (ranks 0-2) only at 4 ranks.
TEST_CASE("ranks that disagree on a test's work units are stopped before its first unit, "
          "naming ranks and counts",
          "[hardening][4ranks]") {
  pio::test::TempDir dir;
  const int last = pio::test::size() - 1;
  // StepTimeout 120: waiting for it instead would fail the test by its own ctest timeout.
  const auto ran =
      pio::test::run_config(dir, "units",
                            "StepTimeout 120\nTestFile " + dir.file("u.dat") +
                                "\n<ap_module>\nModuleName test_faults\nTests 1\nFailRank " +
                                std::to_string(last) + "\nUnitsOnFailRank 5\n</ap_module>\n");
  if (pio::test::size() == 1) { // one rank agrees with itself: 5 units run
    REQUIRE(all_ranks(ran.exit_code == 0));
    REQUIRE(on_root([&] {
      return ran.results["modules"][0]["tests"][0]["reps"][0]["phases"][0]["units"] == 5;
    }));
    return;
  }
  REQUIRE(all_ranks(ran.exit_code == 1));
  const std::string others = last == 1 ? "rank 0" : "ranks 0-" + std::to_string(last - 1);
  REQUIRE(on_root([&] {
    const auto &t = ran.results.at("modules").at(0).at("tests").at(0);
    const std::string msg = t.at("error").at("message");
    return t.at("error").at("rank") == last && t.at("reps").empty() &&
           msg.find("disagree on phase 1 before its first work unit: 3 work units on " + others +
                    ", 5 work units on rank " + std::to_string(last)) != std::string::npos &&
           msg.find("(fix: a bug in the module") != std::string::npos;
  }));
  REQUIRE(all_ranks(!pio::test::exists(dir.file("u.dat"))));
}

TEST_CASE("--check does no I/O: a dead run's leftover file and tree are named, never removed",
          "[hardening]") {
  pio::test::TempDir dir;
  const auto &me = pio::harness::my_owner_record();
  const std::string data = dir.file("left.dat"), top = dir.file("md");
  leftover(data, me.host, dead_pid());
  // A dead run's tree: its directory, one item, and the record with the tree's rule.
  if (pio::test::rank() == 0) {
    REQUIRE(::mkdir(top.c_str(), 0755) == 0);
    REQUIRE(::mkdir((top + "/shared").c_str(), 0755) == 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  pio::test::write_text(top + "/shared/file.0.0", "");
  pio::test::write_text(pio::harness::owner_record_path(top),
                        "pio-bench owner record v1\nrun dead-tree\nhost " + me.host + "\npid " +
                            std::to_string(dead_pid()) + "\nboot " + me.boot_id +
                            "\nstart 1\nstarted_at 2020-01-01T00:00:00Z\ncreated 1\n"
                            "tree shared shared 1 0 1 dir. file. 5 10\n");
  const std::string config = "TestFile " + data +
                             "\n<ap_module>\nModuleName test_faults\nTests 1\n</ap_module>\n"
                             "<ap_module>\nModuleName null\nTestFile " +
                             top + "\n</ap_module>\n";
  auto before = [&] {
    return text_of(data) + "|" + text_of(pio::harness::owner_record_path(data)) + "|" +
           std::to_string(pio::test::exists(top + "/shared/file.0.0")) +
           text_of(pio::harness::owner_record_path(top));
  };
  const std::string was = before();
  pio::harness::RunOptions check;
  check.check_only = true;
  const auto ran = pio::test::run_config_with(dir, "check", config, check);
  REQUIRE(all_ranks(ran.exit_code == 0 && before() == was));
  REQUIRE(on_root([&] {
    return ran.err.find(data + " was left behind by pio-bench run dead-run") != std::string::npos &&
           ran.err.find(top + " (a directory of items) was left behind by pio-bench run "
                              "dead-tree") != std::string::npos &&
           ran.err.find("(--check removes nothing)") != std::string::npos &&
           ran.out.find("nothing was run (--check)") != std::string::npos;
  }));
  // The run itself removes both.
  const auto run = pio::test::run_config(dir, "run", config);
  REQUIRE(all_ranks(run.exit_code == 0 && !pio::test::exists(data) && !pio::test::exists(top)));
}

TEST_CASE("the watchdog takes a module's progress inside one long step for life, not a hang",
          "[hardening]") {
  // One step far longer than StepTimeout, with no heartbeat of the harness's in it: only the
  // module's beats (ModuleContext::beat) keep the watchdog from ending the process (exit 3).
  pio::harness::heartbeat("work_unit");
  // StepTimeout 1.5 s (the watchdog looks every 0.2 s), the step 4 s: beyond it more than twice.
  pio::harness::Watchdog watchdog(1.5, pio::test::rank());
  pio::ModuleContext ctx;
  ctx.progress = pio::harness::module_progress();
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(4);
  while (std::chrono::steady_clock::now() < end) {
    ctx.beat();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(all_ranks(true)); // alive after 4 s of one step with StepTimeout 1.5
}
