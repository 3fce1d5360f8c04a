// The replay's trace readers without MPI or the harness (modules/replay): darshan-dxt-parser's
// text as its documentation shows it, strace -f -ttt -T [-y] lines and the descriptors,
// positions and processes behind them, and every bad trace named at its file:line.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "dxt_reader.hpp"
#include "pio/error.hpp"
#include "strace_reader.hpp"
#include "strace_syntax.hpp"
#include "trace_format.hpp"

using namespace pio::replay;

namespace {

/// Everything a reader hands on.
struct Collect : TraceSink {
  std::vector<std::string> files;
  std::vector<TraceOp> ops;
  std::vector<std::string> others; // "file:call"
  std::int64_t nprocs = 0;
  std::string only; // wanted file path ("" = every file)

  void trace_ranks(std::int64_t n, std::int64_t) override { nprocs = n; }
  void file_seen(std::uint32_t index, const std::string &path) override {
    if (files.size() <= index)
      files.resize(index + 1);
    files[index] = path;
  }
  bool wants(std::uint32_t file) const override { return only.empty() || files[file] == only; }
  void op(const TraceOp &op) override { ops.push_back(op); }
  void other(std::uint32_t file, std::int64_t, const std::string &call, std::int64_t) override {
    others.push_back(files[file] + ":" + call);
  }
  /// The wanted operations as "rank kind offset+length".
  std::vector<std::string> wanted() const {
    std::vector<std::string> out;
    for (const auto &o : ops)
      if (wants(o.file))
        out.push_back(std::to_string(o.rank) + " " + to_string(o.kind) + " " +
                      std::to_string(o.offset) + "+" + std::to_string(o.length));
    return out;
  }
};

Collect dxt(const std::string &text) {
  std::istringstream in(text);
  TraceLines lines(in, "t.dxt");
  Collect c;
  read_dxt(lines, c);
  return c;
}

Collect strace(const std::string &text, const std::string &only = "") {
  std::istringstream in(text);
  TraceLines lines(in, "t.log");
  Collect c;
  c.only = only;
  read_strace(lines, c);
  return c;
}

/// The message of the pio::Error `f` throws ("" if none).
template <class F> std::string error_of(F f) {
  try {
    f();
  } catch (const pio::Error &e) {
    return e.what();
  }
  return "";
}

// darshan-util's "Guide to darshan-dxt-parser output", two ranks of the POSIX module (the
// pthread column of Darshan 3.6), then an MPI-IO record of an older parser (no pthread column).
const std::string kPreamble = "# darshan log version: 3.41\n"
                              "# exe: ./ior\n"
                              "# nprocs: 2\n"
                              "# run time: 0.0100\n\n"
                              "# ***************************************************\n"
                              "# DXT_POSIX module data\n"
                              "# ***************************************************\n\n";
const std::string kHeader = "# Module    Rank  Wt/Rd  Segment          Offset          Length    "
                            "Start(s)      End(s)     Pthread-ID\n";

std::string block(int rank, int writes, int reads, const std::string &file = "/tmp/test/testFile") {
  return "# DXT, file_id: 12998263815182938503, file_name: " + file +
         "\n# DXT, rank: " + std::to_string(rank) +
         ", hostname: acfs\n# DXT, write_count: " + std::to_string(writes) +
         ", read_count: " + std::to_string(reads) + "\n# DXT, mnt_pt: /homes, fs_type: autofs\n" +
         kHeader;
}

} // namespace

TEST_CASE("DXT: the parser's documented output", "[replay][dxt]") {
  const auto c = dxt(kPreamble + block(0, 2, 1) +
                     " X_POSIX       0  write        0               0              30      "
                     "0.0018      0.0018     139823019705024\n"
                     " X_POSIX       0  write        1             120              10      "
                     "0.0019      0.0020     139822945752832\n"
                     " X_POSIX       0   read        0               0              10      "
                     "0.0019      0.0019     139822945752832\n\n" +
                     block(1, 1, 0) +
                     " X_POSIX       1  write        0              30              30      "
                     "0.0018      0.0018     -1\n"
                     "\n# ***************************************************\n"
                     "# DXT_MPIIO module data\n"
                     "# ***************************************************\n\n" +
                     block(1, 1, 0) +
                     " X_MPIIO       1  write        0              30              30      "
                     "0.0017      0.0019\n");
  CHECK(c.nprocs == 2);
  REQUIRE(c.files == std::vector<std::string>{"/tmp/test/testFile"});
  REQUIRE(c.ops.size() == 5);
  CHECK(c.wanted() == std::vector<std::string>{"0 write 0+30", "0 write 120+10", "0 read 0+10",
                                               "1 write 30+30", "1 write 30+30"});
  CHECK(c.ops[1].start == Approx(0.0019));
  CHECK(c.ops[1].end == Approx(0.0020));
  CHECK(c.ops[1].line == 16);
  CHECK(c.ops[3].layer == Layer::Posix);
  CHECK(c.ops[4].layer == Layer::MpiIo);
  CHECK(c.ops[4].start == Approx(0.0017));
}

TEST_CASE("DXT: Lustre OST columns and X_MPIIO offsets of -1 are read", "[replay][dxt]") {
  const auto c =
      dxt(block(0, 1, 0) + " X_POSIX 0 write 0 1048576 65536 0.1000 0.1100 [ 3] [ 4]  7\n" +
          block(0, 1, 0) + " X_MPIIO 0 write 0 -1 65536 0.1000 0.1200  7\n");
  REQUIRE(c.ops.size() == 2);
  CHECK(c.ops[0].offset == 1048576);
  CHECK(c.ops[1].offset == -1);
}

TEST_CASE("DXT: bad traces are named at their file:line", "[replay][dxt]") {
  const std::string ok = " X_POSIX 0 write 0 0 10 0.1 0.2\n";
  struct Case {
    std::string text, message;
  };
  const Case cases[] = {
      {block(0, 2, 0) + ok + " X_POSIX 0 write 1 10\n",
       "t.dxt:7: a truncated record: 5 fields where a DXT record has 8 (Module Rank Wt/Rd Segment "
       "Offset Length Start(s) End(s))"},
      {block(0, 2, 0) + ok + " X_POSIX 0 write 1 10 10 0.3",
       "t.dxt:7: the trace ends in the middle of a record (7 of its 8 fields"},
      {block(0, 1, 0) + " X_STDIO 0 write 0 0 10 0.1 0.2\n",
       "t.dxt:6: unknown module 'X_STDIO': darshan-dxt-parser writes X_POSIX and X_MPIIO records"},
      {block(0, 1, 0) + " X_POSIX 0 write 0 -4096 10 0.1 0.2\n",
       "t.dxt:6: a negative offset -4096"},
      {block(0, 1, 0) + " X_POSIX 0 write 0 0 -10 0.1 0.2\n", "t.dxt:6: a negative length -10"},
      {block(0, 1, 0) + " X_POSIX 0 wrote 0 0 10 0.1 0.2\n",
       "t.dxt:6: 'wrote' is neither write nor read"},
      {block(0, 1, 0) + " X_POSIX 0 write 0 0 10 0.3 0.2\n",
       "t.dxt:6: an operation that ends (0.2 s) before it starts (0.3 s)"},
      {block(0, 1, 0) + " X_POSIX 1 write 0 0 10 0.1 0.2\n",
       "t.dxt:6: a record of rank 1 in the block of rank 0 (line 1)"},
      {ok,
       "t.dxt:1: a record before any '# DXT, file_id: ..., file_name: ...' line names its file"},
      {block(0, 3, 1) + ok + ok, "t.dxt:1: the block of file /tmp/test/testFile, rank 0 announces "
                                 "3 writes and 1 reads, and 2 "
                                 "writes and 0 reads follow it"},
  };
  for (const auto &c : cases) {
    INFO(c.text);
    const std::string e = error_of([&] { dxt(c.text); });
    INFO(e);
    CHECK(e.find(c.message) == 0);
  }
}

TEST_CASE("strace: lines taken apart", "[replay][strace]") {
  std::string why;
  auto l = parse_strace_line(
      "18668 1795761250.007780 write(1</tmp/dd.out>, \"\\0\\0, )\"..., 4096) = 4096 <0.000013>",
      &why);
  REQUIRE(l);
  CHECK(l->kind == StraceLine::Kind::Call);
  CHECK(l->pid == 18668);
  CHECK(l->seconds == 1795761250);
  CHECK(l->micros == 7780);
  CHECK(l->name == "write");
  CHECK(l->ret == "4096");
  CHECK(l->duration == Approx(0.000013));
  const auto args = split_arguments(l->args);
  REQUIRE(args.size() == 3);
  CHECK(args[1] == "\"\\0\\0, )\"...");
  const auto fd = parse_fd(args[0]);
  REQUIRE(fd);
  CHECK(fd->fd == 1);
  CHECK(fd->path == "/tmp/dd.out");
  CHECK(unquote(args[1]) == std::string("\0\0, )", 5));

  l = parse_strace_line("[pid  42] 1.5 read(3,  <unfinished ...>", &why);
  REQUIRE(l);
  CHECK(l->kind == StraceLine::Kind::Unfinished);
  CHECK(l->pid == 42);
  CHECK(l->micros == 500000);
  CHECK(l->args == "3, ");
  l = parse_strace_line("42 2.0 <... read resumed>\"ab\", 100) = 2 <0.5>", &why);
  REQUIRE(l);
  CHECK(l->kind == StraceLine::Kind::Resumed);
  CHECK(l->args == "\"ab\", 100) = 2 <0.5>");
  StraceLine joined;
  REQUIRE(complete_call("3, " + l->args, joined));
  CHECK(joined.args == "3, \"ab\", 100");
  CHECK(joined.ret == "2");
  CHECK(joined.duration == Approx(0.5));
  // A brace the first half opened closes in the second.
  REQUIRE(complete_call("3, SIOCGIFHWADDR, {ifr_name=\"eth0\", , ifr_hwaddr={sa_family=1}}) = 0",
                        joined));
  CHECK(joined.ret == "0");
  l = parse_strace_line("1.0 openat(AT_FDCWD</w>, \"x\", O_RDONLY) = 3</w/x> <0.000004>", &why);
  REQUIRE(l);
  CHECK(l->pid == 0);
  CHECK(parse_fd(l->ret)->path == "/w/x");
  CHECK(return_value("-1 ENOENT (No such file or directory)") == -1);
  CHECK(bracketed("[100 => 1100]") == 100);
  CHECK(parse_strace_line("7 1.0 --- SIGCHLD {si_signo=SIGCHLD} ---", &why)->kind ==
        StraceLine::Kind::Event);

  CHECK_FALSE(parse_strace_line("18668 06:10:55.123456 read(0, \"\", 1) = 0", &why));
  CHECK(why.find("strace -t or -tt") != std::string::npos);
  CHECK_FALSE(parse_strace_line("18668 1.0 pwrite64(3, \"ab\", 2, 10", &why));
}

TEST_CASE("strace: descriptors, positions and processes", "[replay][strace]") {
  // dd's shape (dup2 onto stdout, lseek, writes at the position), pread/pwrite, vectors,
  // copy_file_range with and without offsets, O_APPEND, a thread and a forked child.
  const std::string log =
      "10 100.000000 openat(AT_FDCWD, \"/d/out\", O_RDWR|O_CREAT, 0666) = 3 <0.000010>\n"
      "10 100.000010 dup2(3, 1) = 1 <0.000001>\n"
      "10 100.000020 close(3) = 0 <0.000001>\n"
      "10 100.000030 lseek(1, 8192, SEEK_CUR) = 8192 <0.000001>\n"
      "10 100.000040 write(1, \"\\0\"..., 4096) = 4096 <0.000010>\n"
      "10 100.000060 write(1, \"\\0\"..., 4096) = 100 <0.000010>\n"
      "10 100.000070 pwrite64(1, \"x\", 1, 5) = 1 <0.000001>\n"
      "10 100.000080 writev(1, [{iov_base=\"ab\", iov_len=2}, {iov_base=\"cd\", iov_len=2}], 2) = "
      "4 "
      "<0.000001>\n"
      "10 100.000090 pwritev2(1, [{iov_base=\"ab\", iov_len=2}], 1, -1, 0) = 2 <0.000001>\n"
      "10 100.000100 fsync(1) = 0 <0.001000>\n"
      "10 100.002000 openat(AT_FDCWD, \"/d/in\", O_RDONLY) = 4 <0.000001>\n"
      "10 100.002010 copy_file_range(4, NULL, 1, [0], 300, 0) = 300 <0.000100>\n"
      "10 100.002200 read(4, \"\", 10) = 0 <0.000001>\n"
      "10 100.002300 pread64(1, 0x7f00, 10, 99999) = -1 EIO (Input/output error) <0.000001>\n"
      "10 100.003000 clone(child_stack=NULL, flags=CLONE_VM|CLONE_FILES|CLONE_THREAD) = 11\n"
      "11 100.003100 pwrite64(1, \"t\", 1, 7) = 1 <0.000001>\n"
      "10 100.003200 fork() = 12\n"
      "12 100.003300 write(1, \"f\", 1) = 1 <0.000001>\n"
      "12 100.003400 openat(AT_FDCWD, \"/d/out\", O_WRONLY|O_APPEND) = 5 <0.000001>\n"
      "12 100.003500 write(5, \"g\", 3) = 3 <0.000001>\n"
      "10 100.003900 ioctl(1, SIOCGIFHWADDR, {ifr_name=\"eth0\",  <unfinished ...>\n"
      "12 100.003950 fdatasync(5) = 0 <0.000001>\n"
      "10 100.003990 <... ioctl resumed>, ifr_hwaddr={sa_family=ARPHRD_ETHER}}) = -1 ENOTTY "
      "(Inappropriate ioctl for device) <0.000001>\n"
      "10 100.004000 read(1,  <unfinished ...>\n"
      "12 100.004100 pwrite64(5, \"h\", 1, 0) = 1 <0.000001>\n"
      "10 100.004500 <... read resumed>\"zz\", 2) = 2 <0.000500>\n"
      "10 100.005000 +++ exited with 0 +++\n";
  const auto c = strace(log, "/d/out");
  CHECK(c.wanted() == std::vector<std::string>{
                          "0 write 8192+4096", "0 write 12288+100", "0 write 5+1",
                          "0 write 12388+4", "0 write 12392+2", "0 write 0+300",
                          "0 write 7+1",     // the thread: process 10's rank and descriptors
                          "1 write 12394+1", // the child: the position it shares with its parent
                          "1 write 12395+3", // O_APPEND: at the end of the furthest write
                          "1 write 0+1",
                          "0 read 12395+2"}); // the shared position, moved by the child
  // Times: from the log's first line; -T the duration; a resumed call from its first half.
  REQUIRE(c.ops.size() == 11);
  const auto &last = c.ops.back();
  CHECK(last.start == Approx(0.004));
  CHECK(last.end == Approx(0.0045));
  CHECK(last.line == 26);
  // The copy is a read of /d/in too, at its own position.
  const auto in = strace(log, "/d/in");
  CHECK(in.wanted() == std::vector<std::string>{"0 read 0+300"});
  CHECK(c.others == std::vector<std::string>{"/d/out:openat", "/d/out:dup2", "/d/out:close",
                                             "/d/out:lseek", "/d/out:fsync",
                                             "/d/out:pread64 (failed)", "/d/out:openat",
                                             "/d/out:fdatasync", "/d/out:ioctl (failed)"});
}

TEST_CASE("strace: -y paths name descriptors opened before the log", "[replay][strace]") {
  const auto c = strace("5 10.0 write(1</w/out>, \"ab\", 2) = 2 <0.1>\n"
                        "5 10.5 openat(AT_FDCWD</w>, \"rel\", O_RDONLY) = 3</w/rel> <0.1>\n"
                        "5 10.6 read(3</w/rel>, \"abc\", 3) = 3 <0.1>\n");
  CHECK(c.files == std::vector<std::string>{"/w/out", "/w/rel"});
  CHECK(c.wanted() == std::vector<std::string>{"0 write 0+2", "0 read 0+3"});
}

TEST_CASE("strace: a log cut short or not strace's is named at its line", "[replay][strace]") {
  CHECK(error_of([] {
          strace("5 10.0 write(1, \"ab\", 2) = 2 <0.1>\n5 10.1 write(1, \"ab\"");
        }).find("t.log:2: the log ends in the middle of a line") == 0);
  CHECK(error_of([] {
          strace("5 10.0 write(1, \"ab\", 2) = 2 <0.1>\nhello world\n");
        }).find("t.log:2: not a line of strace -f -ttt -T output") == 0);
  CHECK(error_of([] {
          strace("write(1, \"ab\", 2) = 2\n");
        }).find("t.log:1: not a line of strace -f -ttt -T output: no -ttt timestamp") == 0);
}

TEST_CASE("the format is told from the first lines", "[replay]") {
  std::istringstream d(kPreamble + block(0, 0, 0));
  CHECK(guess_trace_format(d, "a") == TraceFormat::Dxt);
  std::istringstream s("\n123 1.000001 execve(\"/bin/true\", [\"true\"], 0x0 /* 3 vars */) = 0\n");
  CHECK(guess_trace_format(s, "b") == TraceFormat::Strace);
  std::string line;
  CHECK(std::getline(s, line)); // rewound
  std::istringstream x("hello\nworld\n");
  CHECK(error_of([&] {
          guess_trace_format(x, "c.txt");
        }).find("cannot tell the format of the trace c.txt from its first 2 lines") == 0);
}
