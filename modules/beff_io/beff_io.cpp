// b_eff_io, the effective I/O bandwidth benchmark (Koniges, Rabenseifner et al., seeds/000
// §3.2, §5.1 with Table 2, §5.4, §6; Rabenseifner & Koniges, seeds/002 §2-§4) as a pio-bench
// module.
//
// Structure (docs/beff_io.md): per partition, one harness test per access method and pattern
// type, in the paper's order (§5.1): every pattern type's initial write, then every type's
// rewrite, then every type's read. Each pattern type has its own file (§5.1 "for each pattern
// type, an individual file is used", TestFile.type<k>), which the harness opens and closes
// around each test, so a pattern type's time per access method runs from open to close. The
// write and rewrite tests keep the file for the tests after them; the read test releases it.
// A test's phases are the selected patterns of its type; each write or rewrite loop is
// followed by a one-unit "sync" phase (MPI_File_sync, §5.1). Every loop is scheduled
// T/3*U/ΣU; the root keeps the partition to T by taking its lag off the next time-driven loop.
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "beff_math.hpp"
#include "common/strided_geometry.hpp"
#include "pio/pio.hpp"

namespace pio::beff {
namespace {

const char *const kTypeTitles[kPatternTypes] = {
    "scatter (strided collective, file view)", "shared (strided collective, one call per chunk)",
    "separate (one file per process, non-collective)", "segmented (non-collective)",
    "seg-coll (segmented, collective)"};

/// One phase of a test: which pattern, I/O or the closing sync.
struct PhaseDesc {
  size_t pattern = 0; ///< index into TestMeta::patterns
  bool sync = false;
};

/// What init_module decided for one test: one access method of one pattern type.
struct TestMeta {
  int procs = 1;
  int type = 0;
  Method method = Method::Write;
  std::int64_t mpart = 0;
  int sum_u = 0;                 ///< ΣU over the selected patterns of all types
  std::vector<Pattern> patterns; ///< the selected patterns of this type, in file order
  std::vector<PhaseDesc> phases;
  std::map<std::string, std::map<std::string, std::string>> chunk_hints; ///< chunk -> hints
  std::vector<Phase> initial_phases; ///< the phases as init_module declared them
};

/// What the initial write left in one pattern type's file, for the rewrite and the read after
/// it (§5.1: "rewrite and read repeat what the write measured").
struct TypeFile {
  std::vector<std::int64_t> write_units;   ///< per pattern: units of the last complete write
  std::vector<std::int64_t> rewrite_units; ///< per pattern: units of the last complete rewrite
  std::int64_t segment = 0;                ///< LSEG of types 3 and 4
  std::int64_t segment_used = 0;           ///< bytes before the fill pattern in each segment
  bool written = false;                    ///< the initial write completed
  bool rewritten = false;                  ///< the rewrite completed
};

/// Splits "a:b:c" into its parts.
std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep))
    out.push_back(cur);
  return out;
}

/// Memory of this node in bytes (sysconf, else /proc/meminfo), 0 if unknown.
std::int64_t detect_node_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0)
    return static_cast<std::int64_t>(pages) * page;
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::int64_t kb = 0;
  while (in >> key >> kb) {
    if (key == "MemTotal:")
      return kb * 1024;
    in.ignore(1 << 10, '\n');
  }
  return 0;
}

class BeffIo : public Module {
public:
  std::vector<TestSpec> init_module(const ModuleContext &ctx) override;
  void describe_test(TestContext &test) override;
  void before_work_unit(UnitContext &unit) override;
  std::int64_t work_unit(UnitContext &unit) override;
  void after_work_unit(UnitContext &unit) override;
  void cleanup_test(TestContext &test) override;
  void cleanup_module(const ModuleContext &) override { std::vector<std::uint8_t>().swap(buffer_); }
  nlohmann::json summarize(const nlohmann::json &module_results) override {
    return summarize_results(module_results, notes_);
  }

private:
  /// Calls fn(buffer offset, file offset, length) for each piece this rank moves in unit u.
  template <class Fn> void for_each_piece(const PhaseDesc &d, std::int64_t u, Fn fn) const;
  void start_phase(const PhaseDesc &d);
  std::int64_t unit_bytes(const PhaseDesc &d) const;
  std::int64_t pattern_base(size_t index) const;
  void sized_by_types_0_to_2();
  void plan_initial_write(TestContext &test);
  void repeat_the_write(TestContext &test);
  void keep_schedule(size_t phase);
  void rewind_pattern(const PhaseDesc &d);
  /// The unit of the initial write that unit u of a rewrite or read repeats (they cycle
  /// through what the write wrote when their scheduled time outlasts it).
  std::int64_t slot(const PhaseDesc &d, std::int64_t u) const;

  // Module-wide settings.
  double scheduled_ = 0;
  bool verify_ = false;
  std::int64_t fixed_units_ = 0;
  std::int64_t max_file_size_ = 0;
  bool shared_pointers_ = true;
  bool repeat_exactly_ = false; ///< ReadRewrite count
  std::vector<TestMeta> meta_;
  nlohmann::json notes_ = nlohmann::json::object();
  /// partition -> pattern number -> units the initial write ran (types 0-2, for types 3-4).
  std::map<int, std::map<int, std::int64_t>> measured_;
  std::map<int, double> wall_start_; ///< rank 0: partition -> start of its first test

  /// (partition, pattern type) -> the state of that type's file between its tests.
  std::map<std::pair<int, int>, TypeFile> files_;

  // The running test.
  const TestMeta *cur_ = nullptr;
  TypeFile *file_state_ = nullptr;
  TestContext *test_ = nullptr;
  MPI_File file_ = MPI_FILE_NULL;
  int rank_ = 0, size_ = 1;
  std::vector<std::int64_t> done_; ///< per phase: units run so far
  std::vector<double> nominal_;    ///< per phase: scheduled time T/3*U/ΣU (0: count-driven)

  /// The running schedule (rank 0, which alone decides when a time-driven loop ends):
  /// partition -> scheduled time of the patterns started so far, T/3*U/ΣU each.
  std::map<int, double> scheduled_so_far_;
  std::vector<std::uint8_t> buffer_;
  Datatype filetype_;
  std::int64_t base_ = 0; ///< file offset where the current pattern starts
};

std::vector<TestSpec> BeffIo::init_module(const ModuleContext &ctx) {
  const Settings &s = ctx.settings;
  scheduled_ = s.real("ScheduledTime");
  if (scheduled_ <= 0)
    throw Error("ScheduledTime must be positive", "give T in seconds, e.g. ScheduledTime 900");
  verify_ = ctx.verify;
  fixed_units_ = s.integer("FixedUnits");
  repeat_exactly_ = s.text("ReadRewrite") == "count";
  if (fixed_units_ < 0)
    throw Error("FixedUnits must not be negative", "use 0 for the time-driven schedule");

  // Partitions (§5.1: "a set of partitions"); default: all processes of the run.
  std::vector<int> partitions;
  if (s.has("Partitions"))
    for (auto p : s.integers("Partitions")) {
      if (p < 1 || p > ctx.size)
        throw Error("Partitions: " + std::to_string(p) + " is not between 1 and the " +
                        std::to_string(ctx.size) + " processes of the run",
                    "list process counts up to the mpiexec -n count, e.g. Partitions 1 2 4");
      if (std::find(partitions.begin(), partitions.end(), p) == partitions.end())
        partitions.push_back(static_cast<int>(p));
    }
  if (partitions.empty())
    partitions.push_back(ctx.size);

  std::set<int> types;
  for (auto t : s.integers("PatternTypes")) {
    if (t < 0 || t >= kPatternTypes)
      throw Error("PatternTypes: " + std::to_string(t) + " is not a pattern type",
                  "pattern types are 0 (scatter) to 4 (segmented collective), §5.1");
    types.insert(static_cast<int>(t));
  }
  std::set<int> numbers;
  if (s.has("Patterns"))
    for (auto n : s.integers("Patterns")) {
      if (n < 0 || n > 42)
        throw Error("Patterns: " + std::to_string(n) + " is not a pattern of Table 2",
                    "pattern numbers are 0-42 (25-33 type 3, 34-42 type 4)");
      numbers.insert(static_cast<int>(n));
    }
  const bool all_patterns = types.size() == kPatternTypes && numbers.empty();

  // Memory per node (detected or MemoryPerNode) and processes per node give M_PART (§5.1).
  std::int64_t node_memory = 0;
  std::string memory_source;
  if (s.has("MemoryPerNode")) {
    node_memory = s.size("MemoryPerNode");
    memory_source = "MemoryPerNode directive";
  } else {
    node_memory = detect_node_memory();
    MPI_Allreduce(MPI_IN_PLACE, &node_memory, 1, MPI_INT64_T, MPI_MIN, ctx.comm);
    memory_source = "detected (sysconf _SC_PHYS_PAGES, minimum over nodes)";
  }
  if (node_memory <= 0)
    throw Error("cannot detect the memory per node", "set MemoryPerNode, e.g. MemoryPerNode 64G");
  // Ranks of the run on each node, so each partition knows its processes per node.
  MPI_Comm node_comm = MPI_COMM_NULL;
  mpi_check(
      MPI_Comm_split_type(ctx.comm, MPI_COMM_TYPE_SHARED, ctx.rank, MPI_INFO_NULL, &node_comm),
      "MPI_Comm_split_type");
  Comm node(node_comm);
  int node_size = 1;
  MPI_Comm_size(node.get(), &node_size);
  std::vector<int> node_ranks(static_cast<size_t>(node_size));
  MPI_Allgather(&ctx.rank, 1, MPI_INT, node_ranks.data(), 1, MPI_INT, node.get());

  // Shared file pointers (type 1): probed once on a scratch file the module creates and MPI
  // deletes on close; fall back to individual pointers if they fail (seeds/002 §5).
  const std::string sp_mode = s.text("SharedPointers");
  std::string positioning = "shared file pointers (MPI_File_write_ordered / read_ordered)";
  shared_pointers_ = sp_mode != "off";
  if (sp_mode == "off")
    positioning = "individual file pointers (fallback forced by SharedPointers off)";
  if (types.count(1) && sp_mode != "off") {
    const std::string probe = ctx.test_file + ".beff_io-probe";
    MPI_File fh = MPI_FILE_NULL;
    int rc =
        MPI_File_open(ctx.comm, probe.c_str(),
                      MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE,
                      MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS)
      mpi_check(rc, ("MPI_File_open(\"" + probe + "\") for the shared file pointer probe (" +
                     "it must not exist; remove a stale one)")
                        .c_str());
    char byte = 0;
    int bad = MPI_File_write_ordered(fh, &byte, 1, MPI_BYTE, MPI_STATUS_IGNORE) != MPI_SUCCESS;
    if (!bad)
      bad = MPI_File_seek_shared(fh, 0, MPI_SEEK_SET) != MPI_SUCCESS;
    MPI_File_close(&fh);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, ctx.comm);
    if (bad) {
      if (sp_mode == "on")
        throw Error("shared file pointers do not work on " + probe +
                        " (MPI_File_write_ordered or MPI_File_seek_shared failed)",
                    "use SharedPointers auto to fall back to individual file pointers");
      shared_pointers_ = false;
      positioning = "individual file pointers (fallback: shared file pointers failed on this "
                    "file system)";
    }
  }
  notes_["positioning_type1"] = positioning;

  // MaxFileSize: a safety cap on all pattern types' files together (tmpfs lives in memory).
  if (s.has("MaxFileSize")) {
    max_file_size_ = s.size("MaxFileSize");
  } else {
    std::int64_t avail = 0;
    if (ctx.rank == 0) {
      std::string dir = ctx.test_file;
      const auto slash = dir.find_last_of('/');
      dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : dir.substr(0, slash));
      struct statvfs st;
      if (::statvfs(dir.c_str(), &st) == 0)
        avail = static_cast<std::int64_t>(st.f_bavail) * static_cast<std::int64_t>(st.f_frsize);
    }
    MPI_Bcast(&avail, 1, MPI_INT64_T, 0, ctx.comm);
    max_file_size_ = avail * 2 / 5;
  }

  std::map<int, std::map<std::string, std::string>> type_hints;
  if (s.has("TypeHints"))
    for (const auto &w : s.texts("TypeHints")) {
      const auto parts = split(w, ':');
      const auto eq = parts.size() == 2 ? parts[1].find('=') : std::string::npos;
      if (eq == std::string::npos || eq == 0)
        throw Error("TypeHints: '" + w + "' is not TYPE:key=value",
                    "e.g. TypeHints 0:romio_cb_write=enable *:romio_ds_read=disable");
      for (int t = 0; t < kPatternTypes; ++t)
        if (parts[0] == "*" || parts[0] == std::to_string(t))
          type_hints[t][parts[1].substr(0, eq)] = parts[1].substr(eq + 1);
    }

  std::vector<TestSpec> specs;
  for (int procs : partitions) {
    // Processes per node within this partition (the first `procs` ranks).
    int on_node = static_cast<int>(
        std::count_if(node_ranks.begin(), node_ranks.end(), [&](int r) { return r < procs; }));
    MPI_Allreduce(MPI_IN_PLACE, &on_node, 1, MPI_INT, MPI_MAX, ctx.comm);
    on_node = std::max(on_node, 1);
    const std::int64_t per_process = node_memory / on_node;
    std::int64_t mpart = mpart_for(per_process);
    bool mpart_definition = true;
    if (s.has("MPart")) {
      mpart = s.size("MPart");
      mpart_definition = false;
      if (mpart < 1)
        throw Error("MPart must be positive", "give a size, e.g. MPart 2M, or omit it");
    }
    // One MPI call per chunk: keep M_PART within an int count (§5.4 notes the same limit).
    if (mpart > kMaxBytesPerCall) {
      mpart = kMaxBytesPerCall;
      mpart_definition = false;
    }
    const auto table = table2(mpart);
    int sum_u = 0;
    for (const auto &p : table)
      if (types.count(p.type) && (numbers.empty() || numbers.count(p.number)))
        sum_u += p.U;
    // One template per pattern type; the tests are then laid out method-major (§5.1).
    std::vector<std::pair<TestMeta, TestSpec>> per_type;
    for (int type : types) {
      TestMeta m;
      m.procs = procs;
      m.type = type;
      m.mpart = mpart;
      m.sum_u = sum_u;
      std::string list;
      for (const auto &p : table)
        if (p.type == type && (numbers.empty() || numbers.count(p.number))) {
          m.patterns.push_back(p);
          list += (list.empty() ? "" : " ") + std::to_string(p.number);
        }
      if (m.patterns.empty())
        continue;
      if (s.has("ChunkHints"))
        for (const auto &w : s.texts("ChunkHints")) {
          const auto parts = split(w, ':');
          const auto eq = parts.size() == 3 ? parts[2].find('=') : std::string::npos;
          if (eq == std::string::npos || eq == 0)
            throw Error("ChunkHints: '" + w + "' is not TYPE:CHUNK:key=value",
                        "e.g. ChunkHints 0:1K:cb_buffer_size=1048576 (CHUNK: 1K, 1K+8, 32K, "
                        "32K+8, 1M, 1M+8, MPART, fill or *)");
          if (parts[0] == "*" || parts[0] == std::to_string(type))
            for (const auto &p : m.patterns)
              if (parts[1] == "*" || parts[1] == p.chunk)
                m.chunk_hints[p.chunk][parts[2].substr(0, eq)] = parts[2].substr(eq + 1);
        }

      TestSpec t;
      t.file = type == 2 ? FileUse::FilePerProcess : FileUse::Shared;
      // §5.4: never MPI_MODE_UNIQUE_OPEN (it would let MPI defer MPI_File_sync to close).
      t.amode = MPI_MODE_RDWR | MPI_MODE_CREATE;
      t.procs = procs;
      t.hints = type_hints[type];
      t.buffer_size = 0;
      // Each pattern type has its own file (§5.1), kept from its write to its read.
      t.file_suffix = ".type" + std::to_string(type);
      std::string chunk_hints;
      for (const auto &[chunk, hints] : m.chunk_hints)
        for (const auto &[k, v] : hints)
          chunk_hints += (chunk_hints.empty() ? "" : " ") + chunk + ":" + k + "=" + v;
      t.params = {{"partition", std::to_string(procs)},
                  {"pattern_type", std::to_string(type)},
                  {"pattern_type_name", kTypeTitles[type]},
                  {"patterns", list},
                  {"all_patterns", all_patterns ? "yes" : "no"},
                  {"scheduled_time_s", std::to_string(scheduled_)},
                  {"sum_U", std::to_string(sum_u)},
                  {"M_PART", std::to_string(mpart)},
                  {"mpart_by_definition", mpart_definition ? "yes" : "no"},
                  {"memory_per_node", std::to_string(node_memory)},
                  {"memory_source", memory_source},
                  {"processes_per_node", std::to_string(on_node)},
                  {"memory_per_process", std::to_string(per_process)},
                  {"fixed_units", std::to_string(fixed_units_)},
                  {"max_file_size", std::to_string(max_file_size_)},
                  {"open_mode", "MPI_MODE_RDWR|MPI_MODE_CREATE (no MPI_MODE_UNIQUE_OPEN, §5.4)"},
                  {"chunk_hints", chunk_hints},
                  {"order", "all pattern types written, then rewritten, then read; one open and "
                            "close per pattern type and access method (§5.1)"},
                  {"read_rewrite", repeat_exactly_ ? "count: exactly the units of the initial write"
                                                   : "time: T/3*U/sumU, cycling through the "
                                                     "units of the initial write"}};
      if (type == 1)
        t.params["positioning"] = positioning;
      if (type >= 3)
        t.params["segment"] = "size-driven from the initial writes of types 0-2, LSEG rounded "
                              "up to 1 MB (§5.1, §5.4)";
      per_type.emplace_back(std::move(m), std::move(t));
    }
    for (Method method : all_methods())
      for (const auto &[type_meta, type_spec] : per_type) {
        TestMeta m = type_meta;
        TestSpec t = type_spec;
        m.method = method;
        t.label = "P" + std::to_string(procs) + " type " + std::to_string(m.type) + " " +
                  method_name(method);
        t.params["access_method"] = method_name(method);
        // The write and the rewrite leave the file for the tests after them; the read is its
        // last use, after which the harness deletes it (the next partition writes it anew).
        t.keep_file = method != Method::Read;
        t.phases.clear();
        for (size_t i = 0; i < m.patterns.size(); ++i) {
          m.phases.push_back({i, false});
          if (method != Method::Read)
            m.phases.push_back({i, true});
        }
        for (const auto &d : m.phases) {
          Phase ph;
          ph.label = phase_label(method, m.patterns[d.pattern], d.sync);
          ph.work_units = 1; // set per repetition in describe_test
          const Pattern &p = m.patterns[d.pattern];
          // Loops of types 0-2 are time-driven: T/3 * U/ΣU each (§5.1); rewrite and read too
          // unless ReadRewrite count. A write loop ends at the pattern's share of MaxFileSize
          // (all ranks' bytes) as a safety cap; all selected pattern types' files exist
          // together, so the cap is shared by U over all of them.
          const bool time_driven = !d.sync && m.type <= 2 && p.U > 0 && fixed_units_ == 0 &&
                                   (method == Method::Write || !repeat_exactly_);
          if (time_driven)
            ph.time_budget_s = pattern_budget(scheduled_, p.U, sum_u);
          if (time_driven && method == Method::Write) {
            const std::int64_t per_unit = procs * p.L; // type 2: the sum of the ranks' files
            if (max_file_size_ > 0 && sum_u > 0)
              ph.max_work_units =
                  std::max<std::int64_t>(1, max_file_size_ / sum_u * p.U / per_unit);
          }
          t.phases.push_back(ph);
        }
        m.initial_phases = t.phases;
        meta_.push_back(std::move(m));
        specs.push_back(std::move(t));
      }
  }
  if (meta_.empty())
    throw Error("no b_eff_io pattern is selected",
                "check PatternTypes and Patterns (Table 2 numbers of those types)");
  return specs;
}

void BeffIo::sized_by_types_0_to_2() {
  // §5.1, §5.4: types 3 and 4 are size-driven. For each chunk size l the repetition factor comes
  // from what types 0-2 measured for that l in this partition's initial write; LSEG is the sum
  // of l times those factors, rounded up to a multiple of 1 MB.
  const auto &measured = measured_[cur_->procs];
  const auto table = table2(cur_->mpart);
  TypeFile &f = *file_state_;
  std::vector<std::pair<std::int64_t, std::int64_t>> l_and_reps;
  for (size_t i = 0; i < cur_->patterns.size(); ++i) {
    const Pattern &p = cur_->patterns[i];
    if (p.fill)
      continue;
    if (p.U > 0) {
      if (fixed_units_ > 0) {
        f.write_units[i] = fixed_units_;
      } else {
        std::vector<ChunkMeasurement> ms;
        for (const auto &q : table)
          if (q.type <= 2 && q.chunk == p.chunk && q.U > 0 && measured.count(q.number))
            ms.push_back({measured.at(q.number) * (q.L / q.l), q.U});
        f.write_units[i] = segment_repetitions(p.U, ms);
      }
    }
    l_and_reps.emplace_back(p.l, f.write_units[i]);
  }
  f.segment = segment_size(l_and_reps);
  f.segment_used = 0;
  for (const auto &[l, r] : l_and_reps)
    f.segment_used += l * r;
  if (rank_ == 0)
    notes_["segment_size"][std::to_string(cur_->procs)] = f.segment;
}

void BeffIo::plan_initial_write(TestContext &test) {
  // A new initial write: whatever an earlier repetition left is replaced.
  TypeFile &f = *file_state_;
  f = TypeFile{};
  const size_t n = cur_->patterns.size();
  f.write_units.assign(n, 1);
  f.rewrite_units.assign(n, 0);
  for (size_t k = 0; k < cur_->phases.size(); ++k) {
    const auto &d = cur_->phases[k];
    const Pattern &p = cur_->patterns[d.pattern];
    if (!d.sync && p.U > 0 && fixed_units_ > 0)
      test.spec->phases[k].work_units = fixed_units_;
  }
  if (cur_->type >= 3) {
    sized_by_types_0_to_2();
    for (size_t k = 0; k < cur_->phases.size(); ++k) {
      const auto &d = cur_->phases[k];
      test.spec->phases[k].time_budget_s = 0;
      test.spec->phases[k].work_units = d.sync ? 1 : f.write_units[d.pattern];
    }
  }
}

void BeffIo::repeat_the_write(TestContext &test) {
  TypeFile &f = *file_state_;
  const std::string what = "pattern type " + std::to_string(cur_->type) + " on " +
                           std::to_string(cur_->procs) + " processes";
  if (!f.written)
    throw Error("the initial write of " + what + " did not complete, so there is nothing to " +
                    method_name(cur_->method),
                "see the error of that type's write test above");
  if (cur_->method == Method::Read && verify_ && !f.rewritten)
    throw Error("the rewrite of " + what +
                    " did not complete, so the data read back cannot be "
                    "verified",
                "see the error of that type's rewrite test above");
  // Rewrite and read repeat each pattern of the initial write: time-driven ones (init_module
  // gave them the pattern's scheduled time) cycle through the units the write wrote if the time
  // outlasts them (slot()); ReadRewrite count and the size-driven types 3, 4 repeat exactly
  // the write's units.
  for (size_t k = 0; k < cur_->phases.size(); ++k)
    if (!cur_->phases[k].sync)
      test.spec->phases[k].work_units = f.write_units[cur_->phases[k].pattern];
  if (cur_->method == Method::Rewrite) {
    f.rewritten = false;
    f.rewrite_units.assign(cur_->patterns.size(), 0);
  }
}

void BeffIo::describe_test(TestContext &test) {
  cur_ = &meta_.at(static_cast<size_t>(test.test_index));
  file_state_ = &files_[{cur_->procs, cur_->type}];
  test_ = &test;
  file_ = test.file;
  rank_ = test.rank;
  size_ = test.size;
  if (test.rank == 0 && !wall_start_.count(cur_->procs))
    wall_start_[cur_->procs] = MPI_Wtime();
  test.spec->phases = cur_->initial_phases;
  done_.assign(cur_->phases.size(), 0);
  if (cur_->method == Method::Write)
    plan_initial_write(test);
  else
    repeat_the_write(test);
  nominal_.clear();
  for (const auto &d : cur_->phases)
    nominal_.push_back(
        d.sync ? 0.0 : pattern_budget(scheduled_, cur_->patterns[d.pattern].U, cur_->sum_u));

  std::int64_t largest = kMiB; // the fill pattern writes less than 1 MB (LSEG is rounded up)
  for (const auto &p : cur_->patterns)
    largest = std::max(largest, p.L);
  // One buffer for the whole module, grown when needed: M_PART can be hundreds of MB, and
  // allocating and filling it for each of the 15 tests of a partition would eat into T.
  if (buffer_.size() < static_cast<size_t>(largest))
    buffer_.assign(static_cast<size_t>(largest), verify_ ? 0 : 0x5A);
  // Type 1 with shared pointers works on the plain byte view; setting it resets the shared
  // pointer to the start of the file.
  if (cur_->type == 1 && shared_pointers_)
    mpi_check(MPI_File_set_view(file_, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
              "MPI_File_set_view");
}

std::int64_t BeffIo::unit_bytes(const PhaseDesc &d) const {
  const Pattern &p = cur_->patterns[d.pattern];
  if (p.fill)
    return file_state_->segment - file_state_->segment_used;
  return p.L;
}

std::int64_t BeffIo::pattern_base(size_t index) const {
  // §5.1 footnote: each pattern starts where the previous patterns of its type ended.
  std::int64_t base = 0;
  for (size_t j = 0; j < index; ++j) {
    const Pattern &q = cur_->patterns[j];
    if (q.fill)
      continue;
    base += file_state_->write_units[j] * q.L * (cur_->type <= 1 ? size_ : 1);
  }
  return base;
}

template <class Fn> void BeffIo::for_each_piece(const PhaseDesc &d, std::int64_t u, Fn fn) const {
  const Pattern &p = cur_->patterns[d.pattern];
  const std::int64_t n = size_, r = rank_;
  switch (cur_->type) {
  case 0: // chunk k of the call's L bytes goes to tile u*L/l + k of the strided view
    for (std::int64_t k = 0; k < p.L / p.l; ++k)
      fn(k * p.l, base_ + u * n * p.L + (k * n + r) * p.l, p.l);
    break;
  case 1: // one chunk per call, in rank order (write_ordered or the strided view)
    fn(0, base_ + u * n * p.l + r * p.l, p.l);
    break;
  case 2: // the rank's own file
    fn(0, base_ + u * p.l, p.l);
    break;
  default: { // the rank's segment of the shared file
    const std::int64_t seg = file_state_->segment, used = file_state_->segment_used;
    if (p.fill)
      fn(0, r * seg + used, seg - used);
    else
      fn(0, r * seg + base_ + u * p.l, p.l);
  }
  }
}

void BeffIo::start_phase(const PhaseDesc &d) {
  const Pattern &p = cur_->patterns[d.pattern];
  base_ = pattern_base(d.pattern);
  auto hints = cur_->chunk_hints.find(p.chunk);
  if (hints != cur_->chunk_hints.end()) {
    Info info(hints->second);
    mpi_check(MPI_File_set_info(file_, info.get()), "MPI_File_set_info");
  }
  if (cur_->type == 0 || (cur_->type == 1 && !shared_pointers_)) {
    // Strided view: l bytes at rank*l in every tile of size*l bytes (§5.1, Fig. 1).
    filetype_ = patterns::strided_vector(1, p.l, p.l, p.l * size_);
    mpi_check(MPI_File_set_view(file_, base_ + rank_ * p.l, MPI_BYTE, filetype_.get(), "native",
                                MPI_INFO_NULL),
              "MPI_File_set_view");
  }
  rewind_pattern(d);
}

void BeffIo::rewind_pattern(const PhaseDesc &d) {
  const Pattern &p = cur_->patterns[d.pattern];
  switch (cur_->type) {
  case 0:
  case 1:
    if (cur_->type == 1 && shared_pointers_)
      mpi_check(MPI_File_seek_shared(file_, base_, MPI_SEEK_SET), "MPI_File_seek_shared");
    else // offset 0 of the pattern's strided view is its start
      mpi_check(MPI_File_seek(file_, 0, MPI_SEEK_SET), "MPI_File_seek");
    break;
  case 2:
    mpi_check(MPI_File_seek(file_, base_, MPI_SEEK_SET), "MPI_File_seek");
    break;
  default:
    mpi_check(
        MPI_File_seek(file_,
                      rank_ * file_state_->segment + (p.fill ? file_state_->segment_used : base_),
                      MPI_SEEK_SET),
        "MPI_File_seek");
  }
}

std::int64_t BeffIo::slot(const PhaseDesc &d, std::int64_t u) const {
  if (cur_->method == Method::Write)
    return u;
  return u % std::max<std::int64_t>(1, file_state_->write_units[d.pattern]);
}

void BeffIo::keep_schedule(size_t k) {
  // Every pattern of every method is scheduled T/3*U/ΣU (§5.1); the partition keeps to T by
  // taking what it is behind that schedule (the syncs that end write loops, the last batch of
  // each loop, opens and closes, size-driven types 3 and 4) off the next time-driven loop.
  // Only the root's budget matters: it alone decides when a loop ends.
  if (test_->rank != 0)
    return;
  double &so_far = scheduled_so_far_[cur_->procs];
  Phase &ph = test_->spec->phases[k];
  if (ph.time_budget_s > 0) {
    const double behind = MPI_Wtime() - wall_start_.at(cur_->procs) - so_far;
    ph.time_budget_s = catch_up_budget(ph.time_budget_s, behind);
  }
  so_far += nominal_[k];
}

void BeffIo::before_work_unit(UnitContext &unit) {
  const PhaseDesc &d = cur_->phases[static_cast<size_t>(unit.phase)];
  if (d.sync)
    return;
  if (unit.unit == 0) {
    keep_schedule(static_cast<size_t>(unit.phase));
    start_phase(d);
  } else if (slot(d, unit.unit) == 0) {
    rewind_pattern(d); // a rewrite or read that outlasts the write starts over
  }
  if (!verify_)
    return;
  if (cur_->method == Method::Read) {
    std::fill_n(buffer_.begin(), unit_bytes(d), 0); // no stale stamp can pass the check
    return;
  }
  // Verify: every byte is stamp(rank, file offset, generation); the rewrite is generation 1.
  const int gen = cur_->method == Method::Write ? 0 : 1;
  for_each_piece(d, slot(d, unit.unit), [&](std::int64_t buf, std::int64_t off, std::int64_t len) {
    stamp_fill(buffer_.data() + buf, len, rank_, off, gen);
  });
}

std::int64_t BeffIo::work_unit(UnitContext &unit) {
  const PhaseDesc &d = cur_->phases[static_cast<size_t>(unit.phase)];
  if (d.sync) {
    // §5.1: the write loop of each pattern ends with MPI_File_sync.
    mpi_check(MPI_File_sync(file_), "MPI_File_sync");
    return 0;
  }
  const std::int64_t bytes = unit_bytes(d);
  const int count = static_cast<int>(bytes);
  void *buf = buffer_.data();
  MPI_Status st;
  const bool write = cur_->method != Method::Read;
  int rc = MPI_SUCCESS;
  const char *call = "";
  switch (cur_->type) {
  case 0:
    call = write ? "MPI_File_write_all" : "MPI_File_read_all";
    rc = write ? MPI_File_write_all(file_, buf, count, MPI_BYTE, &st)
               : MPI_File_read_all(file_, buf, count, MPI_BYTE, &st);
    break;
  case 1:
    if (shared_pointers_) {
      call = write ? "MPI_File_write_ordered" : "MPI_File_read_ordered";
      rc = write ? MPI_File_write_ordered(file_, buf, count, MPI_BYTE, &st)
                 : MPI_File_read_ordered(file_, buf, count, MPI_BYTE, &st);
    } else {
      call = write ? "MPI_File_write_all" : "MPI_File_read_all";
      rc = write ? MPI_File_write_all(file_, buf, count, MPI_BYTE, &st)
                 : MPI_File_read_all(file_, buf, count, MPI_BYTE, &st);
    }
    break;
  case 4:
    call = write ? "MPI_File_write_all" : "MPI_File_read_all";
    rc = write ? MPI_File_write_all(file_, buf, count, MPI_BYTE, &st)
               : MPI_File_read_all(file_, buf, count, MPI_BYTE, &st);
    break;
  default: // 2 and 3: non-collective, individual file pointer
    call = write ? "MPI_File_write" : "MPI_File_read";
    rc = write ? MPI_File_write(file_, buf, count, MPI_BYTE, &st)
               : MPI_File_read(file_, buf, count, MPI_BYTE, &st);
  }
  mpi_check(rc, call);
  if (!write) {
    int got = 0;
    MPI_Get_count(&st, MPI_BYTE, &got);
    if (got != count)
      throw Error(std::string(call) + " read " + std::to_string(got) + " of " +
                      std::to_string(count) + " bytes (pattern " +
                      std::to_string(cur_->patterns[d.pattern].number) + ")",
                  "the file is shorter than the initial write left it; is another program "
                  "using it?");
  }
  return bytes;
}

void BeffIo::after_work_unit(UnitContext &unit) {
  const auto k = static_cast<size_t>(unit.phase);
  const PhaseDesc &d = cur_->phases[k];
  TypeFile &f = *file_state_;
  done_[k] = unit.unit + 1;
  const bool last_phase = k + 1 == cur_->phases.size();
  if (d.sync && cur_->method == Method::Write) {
    // The write loop of this pattern is over (the root's schedule ended it): the patterns after
    // it start where it ended, and the rewrite and the read repeat it (§5.1).
    const size_t io_phase = k - 1;
    const std::int64_t n = done_[io_phase];
    f.write_units[d.pattern] = n;
    const Pattern &p = cur_->patterns[d.pattern];
    if (cur_->type <= 2 && test_->rep == 0)
      measured_[cur_->procs][p.number] = n;
    const Phase &ran = test_->spec->phases[io_phase];
    if (ran.max_work_units > 0 && n >= ran.max_work_units && test_->rank == 0)
      notes_["capped"].push_back(ran.label + " (P" + std::to_string(cur_->procs) + ")");
    f.written = last_phase;
    return;
  }
  if (d.sync && cur_->method == Method::Rewrite) {
    f.rewrite_units[d.pattern] = std::min(done_[k - 1], f.write_units[d.pattern]);
    f.rewritten = last_phase;
    return;
  }
  if (d.sync || !verify_ || cur_->method != Method::Read)
    return;
  const std::int64_t u = slot(d, unit.unit);
  for_each_piece(d, u, [&](std::int64_t buf, std::int64_t off, std::int64_t len) {
    // A time-driven rewrite may have ended before the last unit the write wrote.
    const int gen = u < f.rewrite_units[d.pattern] ? 1 : 0;
    const std::int64_t bad = stamp_mismatch(buffer_.data() + buf, len, rank_, off, gen);
    if (bad >= 0)
      throw Error("verify: pattern " + std::to_string(cur_->patterns[d.pattern].number) +
                      " (type " + std::to_string(cur_->type) + "), rank " + std::to_string(rank_) +
                      ": byte at file offset " + std::to_string(off + bad) +
                      " is not what the rewrite (or the initial write) wrote there",
                  "the file system returned wrong or stale data; rerun, and check the file "
                  "system's consistency semantics and the hints in effect");
  });
}

void BeffIo::cleanup_test(TestContext &test) {
  filetype_.reset();
  if (cur_ && test.rank == 0 && wall_start_.count(cur_->procs))
    notes_["wall_time_s"][std::to_string(cur_->procs)] = MPI_Wtime() - wall_start_[cur_->procs];
  file_ = MPI_FILE_NULL;
}

} // namespace
} // namespace pio::beff

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    {"beff_io",
     "b_eff_io",
     "effective I/O bandwidth: pattern types 0-4 of Table 2, write / rewrite / read, "
     "time-driven (scheduled time T), the b_eff_io figure",
     "Koniges, Rabenseifner et al. §5.1, Table 2, §5.4, §6; Rabenseifner & Koniges §4",
     true,
     {{"ScheduledTime", pio::DirectiveType::Real, "900",
       "T in seconds for one partition (the paper's rule needs T >= 900, §5.1)"},
      {"Partitions", pio::DirectiveType::Integers, "",
       "process counts to measure, e.g. 1 2 4 (default: all processes); system = maximum"},
      {"PatternTypes", pio::DirectiveType::Integers, "0 1 2 3 4",
       "pattern types to run (a subset does not meet the paper's rule)"},
      {"Patterns", pio::DirectiveType::Integers, "",
       "Table 2 pattern numbers to run, 0-42 (default: all; a subset does not meet the rule)"},
      {"MemoryPerNode", pio::DirectiveType::Size, "",
       "memory of one node for M_PART (default: detected)"},
      {"MPart", pio::DirectiveType::Size, "",
       "override M_PART = max(2 MB, memory per process / 128) (tests; breaks the rule)"},
      {"SharedPointers",
       pio::DirectiveType::Text,
       "auto",
       "type 1 positioning: auto (shared pointers, else fall back), on (required), off (force "
       "the individual-pointer fallback)",
       {"auto", "on", "off"}},
      {"ReadRewrite",
       pio::DirectiveType::Text,
       "time",
       "rewrite and read loops: time (the pattern's scheduled time, cycling through the units "
       "the write wrote, §5.1) or count (exactly the units the write wrote)",
       {"time", "count"}},
      {"FixedUnits", pio::DirectiveType::Integer, "0",
       "run every write loop this many units instead of the time-driven schedule (tests)"},
      {"MaxFileSize", pio::DirectiveType::Size, "",
       "cap on all pattern types' files together, shared by the patterns by U (default: 40% of the "
       "free space of the TestFile's directory)"},
      {"TypeHints", pio::DirectiveType::Texts, "",
       "MPI-IO hints per pattern type at open: TYPE:key=value ... (TYPE 0-4 or *)"},
      {"ChunkHints", pio::DirectiveType::Texts, "",
       "hints per pattern type and chunk via MPI_File_set_info: TYPE:CHUNK:key=value ..."}},
     [] { return std::make_unique<pio::beff::BeffIo>(); }}})
