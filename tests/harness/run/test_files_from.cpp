// FilesFrom (docs/reference/configuration.md, "Blocks that share files"): a block works on the
// files an earlier block of the run made, as IOR -E and IO500's read phases do. The read finds the
// write's bytes (no untimed preparing of its own), goes no further than a stonewalled write got,
// and the files stay until the chain's last block; config mistakes stop the run with file:line; a
// chain whose block failed runs no further and leaves nothing.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <map>

#include "mpi_test.hpp"
#include "report/reporter.hpp"

using pio::test::all_ranks;
using pio::test::on_root;

namespace {

/// What a file was when a reporter call came (rank 0): absent, or its inode, size and mtime.
struct FileState {
  bool exists = false;
  ino_t ino = 0;
  off_t size = 0;
  long long mtime_ns = 0;
  bool operator==(const FileState &o) const {
    return exists == o.exists && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
  }
};

FileState state_of(const std::string &path) {
  FileState s;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return s;
  s.exists = true;
  s.ino = st.st_ino;
  s.size = st.st_size;
  s.mtime_ns = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  return s;
}

/// Records the state of one file after each block's tests and at each block's end, by label.
class FileWatcher : public pio::harness::Reporter {
public:
  explicit FileWatcher(std::string path) : path_(std::move(path)) {}
  void test_finished(const pio::RunResult &, const pio::ModuleResult &m,
                     const pio::TestResult &) override {
    after_test[m.label] = state_of(path_);
  }
  void block_finished(const pio::RunResult &, const pio::ModuleResult &m) override {
    at_end[m.label] = state_of(path_);
  }
  std::map<std::string, FileState> after_test, at_end;

private:
  std::string path_;
};

std::string block(const std::string &body) { return "<ap_module>\n" + body + "</ap_module>\n"; }

pio::test::Ran run_watched(const pio::test::TempDir &dir, const std::string &name,
                           const std::string &text, FileWatcher &watcher) {
  pio::harness::RunOptions o;
  o.reporters = {&watcher};
  return pio::test::run_config_with(dir, name, text, o);
}

const nlohmann::json &module_labelled(const nlohmann::json &results, const std::string &label) {
  for (const auto &m : results.at("modules"))
    if (m.at("label") == label)
      return m;
  throw std::runtime_error("no block " + label);
}

std::int64_t units_of(const nlohmann::json &m) {
  return m.at("tests").at(0).at("reps").at(0).at("phases").at(0).at("units").get<std::int64_t>();
}

} // namespace

TEST_CASE("a read block reads the bytes its chain's write block left, and they stay until the "
          "chain's last block",
          "[files_from]") {
  for (const bool per_process : {true, false}) {
    DYNAMIC_SECTION((per_process ? "a file per process" : "one shared file")) {
      pio::test::TempDir dir;
      const std::string data = dir.file("data");
      // Rank 0's file: data.0 per process, data shared.
      FileWatcher watcher(per_process ? data + ".0" : data);
      const std::string pattern = per_process ? "\"Segmented (" : "\"Simple Strided (";
      const std::string fpp = per_process ? "FilePerProcess on\n" : "";
      // The write verifies nothing: the reads' Verify on passes only if it wrote the stamps.
      const std::string text = "TestFile " + data + "\n" +
                               block("ModuleName " + pattern + "write)\"\nLabel w\n" + fpp +
                                     "BufferSizes 4K\nWorkUnits 16\n") +
                               block("ModuleName " + pattern + "read)\"\nLabel r\nFilesFrom w\n" +
                                     fpp + "BufferSizes 4K\nWorkUnits 16\nVerify on\n") +
                               block("ModuleName null\nLabel between\nWorkUnits 1\n") +
                               block("ModuleName " + pattern + "read)\"\nLabel r2\nFilesFrom w\n" +
                                     fpp + "BufferSizes 4K\nWorkUnits 16\nVerify timed\n");
      const auto ran = run_watched(dir, "chain", text, watcher);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        for (const char *label : {"w", "r", "r2"}) {
          const auto &m = module_labelled(ran.results, label);
          CHECK(m.at("error").is_null());
          CHECK(m.at("tests").at(0).at("error").is_null());
          CHECK(units_of(m) == 16);
        }
        // The results say which block's files each used.
        CHECK(module_labelled(ran.results, "w").at("files_from").is_null());
        CHECK(module_labelled(ran.results, "r").at("files_from") == "w");
        CHECK(module_labelled(ran.results, "r2").at("files_from") == "w");
        const FileState written = watcher.at_end.at("w");
        CHECK(written.exists);
        CHECK(written.size >= 16 * 4096);
        // The reads wrote nothing: the same file, size and modification time as the write left.
        CHECK(watcher.after_test.at("r") == written);
        CHECK(watcher.at_end.at("r") == written); // r2 still needs it
        CHECK(watcher.at_end.at("between") == written);
        // The chain's last block removes it after its test, as a block with its own file does.
        CHECK(!watcher.after_test.at("r2").exists);
        CHECK(!watcher.at_end.at("r2").exists);
        return true;
      }));
      REQUIRE(all_ranks(!pio::test::exists(data + ".0") && !pio::test::exists(data) &&
                        !pio::test::exists(data + ".0.pio-owner") &&
                        !pio::test::exists(data + ".pio-owner")));
    }
  }
}

TEST_CASE("a read after a stonewalled write reads the units the write completed, no more",
          "[files_from]") {
  pio::test::TempDir dir;
  const std::string text =
      "TestFile " + dir.file("hard") + "\n" +
      block("ModuleName \"Simple Strided (write)\"\nLabel hw\nBufferSizes 4K\nWorkUnits "
            "100000000\nStoneWall 0.05\nStoneWallWearOut on\n") +
      block("ModuleName \"Simple Strided (read)\"\nLabel hr\nFilesFrom hw\nBufferSizes 4K\n"
            "WorkUnits 100000000\nVerify on\n");
  const auto ran = pio::test::run_config(dir, "stonewall", text);
  REQUIRE(all_ranks(ran.exit_code == 0));
  REQUIRE(on_root([&] {
    const auto &w = module_labelled(ran.results, "hw");
    const auto &r = module_labelled(ran.results, "hr");
    CHECK(r.at("tests").at(0).at("error").is_null());
    CHECK(units_of(w) > 0);
    CHECK(units_of(w) < 100000000);
    CHECK(units_of(r) == units_of(w)); // Verify on read every unit: all were written
    return true;
  }));
}

TEST_CASE("a random read of an earlier block's files draws its own units from the file as found",
          "[files_from]") {
  // IO500's ior-rnd4K-easy-read: 4 KiB reads at random offsets of ior-easy's files. FileSize
  // (64 GiB) is only a bound: an offset beyond what the write left would read short or find
  // unstamped bytes, and Verify on would fail the read.
  for (const bool stonewalled : {false, true}) {
    DYNAMIC_SECTION((stonewalled ? "after a stonewalled write" : "after a write of 8 units")) {
      pio::test::TempDir dir;
      const std::string write = stonewalled ? "WorkUnits 1000000\nStoneWall 0.05\n"
                                              "StoneWallWearOut on\n"
                                            : "WorkUnits 8\n";
      const std::string text =
          "TestFile " + dir.file("easy") + "\n" +
          block("ModuleName \"Segmented (write)\"\nLabel ew\nFilePerProcess on\n"
                "BufferSizes 64K\n" +
                write) +
          block("ModuleName \"Random Offsets (read)\"\nLabel rnd\nFilesFrom ew\n"
                "BufferSizes 4K\nFileSize 64G\nWorkUnits 200\nVerify on\n");
      const auto ran = pio::test::run_config(dir, "rnd", text);
      REQUIRE(all_ranks(ran.exit_code == 0));
      REQUIRE(on_root([&] {
        const auto &w = module_labelled(ran.results, "ew");
        const auto &r = module_labelled(ran.results, "rnd");
        CHECK(r.at("tests").at(0).at("error").is_null());
        CHECK(r.at("files_from") == "ew");
        // Its units are its own, not capped at the write's 64 KiB units (8 of them).
        if (!stonewalled)
          CHECK(units_of(w) == 8);
        CHECK(units_of(w) > 0);
        CHECK(units_of(r) == 200);
        return true;
      }));
      REQUIRE(all_ranks(!pio::test::exists(dir.file("easy.0"))));
    }
  }
  SECTION("a file shorter than one block is refused, naming both sizes") {
    pio::test::TempDir dir;
    const std::string text =
        "TestFile " + dir.file("tiny") + "\n" +
        block("ModuleName \"Segmented (write)\"\nLabel tw\nFilePerProcess on\nBufferSizes 1K\n"
              "WorkUnits 2\n") +
        block("ModuleName \"Random Offsets (read)\"\nLabel rnd\nFilesFrom tw\n"
              "BufferSizes 4K\nFileSize 1M\nWorkUnits 10\n");
    const auto ran = pio::test::run_config(dir, "tiny", text);
    REQUIRE(all_ranks(ran.exit_code != 0));
    REQUIRE(on_root([&] {
      const std::string e =
          module_labelled(ran.results, "rnd").at("tests").at(0).at("error").dump();
      CHECK_THAT(
          e, Catch::Contains("the file the FilesFrom block left holds 2K, not one block of 4K"));
      CHECK_THAT(e, Catch::Contains("FilesFrom"));
      return true;
    }));
    REQUIRE(all_ranks(!pio::test::exists(dir.file("tiny.0"))));
  }
}

TEST_CASE("FilesFrom mistakes stop the run before any I/O, at the FilesFrom line", "[files_from]") {
  const std::string write = "ModuleName \"Segmented (write)\"\nLabel w\nWorkUnits 2\n";
  struct Case {
    std::string name, text, message, fix;
  };
  const std::vector<Case> cases = {
      {"unknown", block(write) + block("ModuleName \"Segmented (read)\"\nFilesFrom nope\n"),
       "unknown.conf:8: FilesFrom nope: no block has that label",
       "name the Label of an earlier block (before this one: w)"},
      {"later", block("ModuleName \"Segmented (read)\"\nFilesFrom w\n") + block(write),
       "later.conf:3: FilesFrom w names a later block (", "move this block after that one"},
      {"itself", block(write) + block("ModuleName \"Segmented (read)\"\nLabel r\nFilesFrom r\n"),
       "itself.conf:9: FilesFrom r names this block itself", "name the Label of the earlier block"},
      {"processes",
       block(write) + block("ModuleName \"Segmented (read)\"\nProcesses 1\nFilesFrom w\n"),
       "processes.conf:9: FilesFrom w: this block runs on 1 rank and that one (",
       "give both the same Processes"},
      {"testfile",
       block(write) + block("ModuleName \"Segmented (read)\"\nTestFile other\nFilesFrom w\n"),
       "testfile.conf:9: FilesFrom w: this block's TestFile other is not the file of w",
       "remove this block's TestFile"},
      {"reorder",
       block(write) + block("ModuleName \"Segmented (read)\"\nFilesFrom w\nReorderTasks 1\n"),
       "reorder.conf:9: ReorderTasks with FilesFrom", "remove ReorderTasks from this block"},
  };
  for (const auto &c : cases) {
    if (c.name == "processes" && pio::test::size() == 1)
      continue; // Processes 1 is every rank of a run of one
    DYNAMIC_SECTION(c.name) {
      pio::test::TempDir dir;
      const auto ran = pio::test::run_config(dir, c.name, c.text);
      INFO(ran.err);
      REQUIRE(all_ranks(ran.exit_code == 2));
      // Every rank exits with 2; rank 0 says what, where and how to fix it.
      REQUIRE(on_root([&] {
        return ran.err.find(c.message) != std::string::npos &&
               ran.err.find(c.fix) != std::string::npos;
      }));
      // Nothing ran: no test file was made.
      REQUIRE(all_ranks(!pio::test::exists("pio-bench.testfile") &&
                        !pio::test::exists(dir.file("pio-bench.testfile"))));
    }
  }
}

TEST_CASE("a block whose chain failed does not run, and the chain's files are removed",
          "[files_from]") {
  pio::test::TempDir dir;
  const std::string data = dir.file("faults.dat");
  const std::string last = std::to_string(pio::test::size() - 1);
  const std::string text =
      "TestFile " + data + "\n" +
      block("ModuleName test_faults\nLabel f\nUseFile on\nTests 1\nFailIn work_unit\nFailRank " +
            last + "\n") +
      block("ModuleName test_faults\nLabel g\nFilesFrom f\nUseFile on\nTests 1\nFailIn none\n") +
      block("ModuleName null\nLabel after\nWorkUnits 1\n");
  const auto ran = pio::test::run_config(dir, "broken", text);
  REQUIRE(all_ranks(ran.exit_code == 1));
  REQUIRE(on_root([&] {
    const auto &g = module_labelled(ran.results, "g");
    CHECK(g.at("tests").empty());
    CHECK(g.at("error").at("message").get<std::string>().find(
              "FilesFrom f: block f of its chain failed, so the files this block would use may be "
              "incomplete; it did not run") != std::string::npos);
    CHECK(ran.err.find("it did not run") != std::string::npos);
    CHECK(module_labelled(ran.results, "after").at("error").is_null()); // the run went on
    return true;
  }));
  REQUIRE(all_ranks(!pio::test::exists(data) && !pio::test::exists(data + ".pio-owner")));
}
