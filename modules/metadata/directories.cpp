#include "directories.hpp"

#include <chrono>
#include <thread>

#include "pio/error.hpp"

namespace pio::metadata {

namespace {

const char *kHint = "give TestFile a path that does not exist yet (the module creates that "
                    "directory and everything in it), or empty the directory yourself";

/// The first entry of a directory other than . and .. ("" if none).
std::string first_entry(io::Backend &b, const std::string &dir) {
  std::string found;
  b.readdir(dir.c_str(), [&](const char *name, io::EntryType) {
    if (found.empty())
      found = name;
  });
  return found;
}

} // namespace

void wait_counting(MPI_Request &req, std::atomic<std::uint64_t> *progress) {
  if (!progress) {
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    return;
  }
  const double start = MPI_Wtime();
  for (int done = 0;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done)
      return;
    progress->store(progress->load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    if (MPI_Wtime() - start > 0.02)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void barrier_counting(MPI_Comm comm, std::atomic<std::uint64_t> *progress) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm, &req);
  wait_counting(req, progress);
}

void raise_agreed(MPI_Comm comm, const std::string &error, std::atomic<std::uint64_t> *progress) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = error.empty() ? size : rank, first = size;
  MPI_Request agreed = MPI_REQUEST_NULL;
  MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm, &agreed);
  wait_counting(agreed, progress);
  if (first == size)
    return;
  std::string text = rank == first ? error : std::string();
  int len = static_cast<int>(text.size());
  MPI_Bcast(&len, 1, MPI_INT, first, comm);
  text.resize(static_cast<size_t>(len));
  MPI_Bcast(text.data(), len, MPI_CHAR, first, comm);
  // The text carries its own fix after " (fix: "; split it back for the Error.
  const auto at = text.find(" (fix: ");
  if (at != std::string::npos && text.back() == ')')
    throw Error((rank == first ? "" : "rank " + std::to_string(first) + ": ") + text.substr(0, at),
                text.substr(at + 7, text.size() - at - 8));
  throw Error((rank == first ? "" : "rank " + std::to_string(first) + ": ") + text,
              "see the message");
}

bool make_test_dir(const ModuleContext &ctx, const std::string &top, const TreeRules &rules,
                   bool made_earlier) {
  std::string error;
  int created = 0;
  if (ctx.rank == 0) {
    try {
      if (top.empty())
        throw Error("TestFile is empty", "set TestFile to the directory the module may create");
      ctx.claim_tree(top, rules); // refuses a link, and an existing path unless Overwrite is on
      io::Backend &b = *ctx.backend;
      if (const auto st = b.stat(top.c_str())) {
        if (st->type != io::FileStat::Type::Directory)
          throw Error("test directory " + top + " exists and is not a directory", kHint);
        const std::string entry = made_earlier ? "" : first_entry(b, top);
        if (!entry.empty())
          throw Error("test directory " + top + " already holds " + entry +
                          ", which this run did not create; the metadata module works only in "
                          "an empty directory of its own",
                      kHint);
      } else {
        try {
          b.mkdir(top.c_str());
        } catch (const Error &e) {
          throw Error(e.what(), "TestFile's parent directory must exist and be writable");
        }
        created = 1;
      }
    } catch (const Error &e) {
      error = std::string(e.what()) + " (fix: " + e.hint() + ")";
    }
  }
  raise_agreed(ctx.comm, error);
  if (ctx.rank != 0) // the others fill it: their messages name it if they are stopped
    ctx.claim_tree(top, rules);
  MPI_Bcast(&created, 1, MPI_INT, 0, ctx.comm);
  return created != 0;
}

std::string make_dirs(io::Backend &b, const std::vector<std::string> &dirs) {
  try {
    for (const auto &d : dirs)
      b.mkdir(d.c_str());
  } catch (const Error &e) {
    return std::string(e.what()) +
           " (fix: nothing else may write into the test directory during the run)";
  }
  return "";
}

std::vector<std::string> remove_dirs(io::Backend &b, const std::vector<std::string> &dirs) {
  std::vector<std::string> left;
  for (auto it = dirs.rbegin(); it != dirs.rend(); ++it)
    try {
      b.rmdir(it->c_str()); // false: not there
    } catch (const Error &) {
      left.push_back(*it);
    }
  return left;
}

} // namespace pio::metadata
