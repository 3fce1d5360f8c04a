// The references for tools/dev/bench-overhead.sh (docs/measurements/performance.md): minimal
// hand-written MPI-IO loops, no harness.
//
//   hand_io ior PATH BUFFER SEGMENTS REPS [phase|unit]
//     The MPI-IO calls IOR 4 makes for `ior -a MPIIO -b BUFFER -t BUFFER -s SEGMENTS -g -w -r`
//     (src/ior.c TestIoSys / WriteOrRead, src/aiori-MPIIO.c MPIIO_Open / MPIIO_Xfer): per
//     repetition a write phase, then a read phase, each:
//       MPI_Barrier; MPI_File_open(WORLD, MPI_MODE_WRONLY|CREATE|UNIQUE_OPEN, an empty info
//       object from MPI_Info_create) then MPI_File_set_size(0) (IOR_TRUNC); for the read
//       MPI_MODE_RDONLY|UNIQUE_OPEN; MPI_Barrier (-g); t0 = clock; per segment s one
//       MPI_File_write_at_c / read_at_c of BUFFER MPI_BYTEs at (s * ranks + rank) * BUFFER
//       (no file view) and MPI_Get_elements_x on its status; t1 = clock; MPI_Barrier (-g);
//       MPI_File_close; MPI_Barrier.
//     Transfer time = max over ranks of t1 - min over ranks of t0 (IOR's wrRdTime).
//     `unit` adds pio-harness's per-unit synchronisation of TimingScope unit
//     (docs/reference/timing.md): per segment a one-int MPI_Allreduce (B1), the transfer, a one-int
//     MPI_Allreduce (B2), and an untimed one-int MPI_Allreduce (the agreement after the unit); the
//     transfer time is then the sum over segments of end-of-B1 to end-of-B2 on rank 0, as the
//     harness times it. Prints per repetition and phase on rank 0: "write|read TRANSFER_S OWN_MAX_S
//     BYTES", where OWN_MAX_S is the largest per-rank sum of the transfer calls' own times.
//
//   hand_io barriers UNITS REPS
//     Per unit the three one-int MPI_Allreduce of TimingScope unit (B1, B2 timed from the end
//     of B1, the agreement after) around nothing; prints the median over repetitions of µs per
//     unit on rank 0 (the null module's reference).
//
//   hand_io pread PATH UNITS FILE_BYTES REPS
//     The pread calls of pio's random_offsets (4 KiB blocks, Seed 1: rank r's block of unit u is
//     output u of splitmix64 seeded 1 + r * 2^32, mod FILE_BYTES / 4096), on the rank's own file
//     PATH.<rank>, the offsets drawn before the loop as IOR draws them; the blocks read are
//     written first, as the pattern's read mode prepares them. Per repetition: MPI_Barrier,
//     t0, the preads, t1; prints on rank 0 "µs per unit" of (max t1 - min t0) / UNITS.
#include <fcntl.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <boost/align/aligned_allocator.hpp>

namespace {

/// A transfer buffer on its own pages, as IOR allocates it (aligned_buffer_alloc).
using PageAligned = std::vector<char, boost::alignment::aligned_allocator<char, 4096>>;

/// A one-int allreduce: the harness's barriers carry its error flag this way.
void sync_int(MPI_Comm comm) {
  int in = 0, out = 0;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, comm);
}

/// Aborts with a message when an MPI call fails (IOR's MPI_CHECK).
void check(int rc, const char *what) {
  if (rc == MPI_SUCCESS)
    return;
  std::fprintf(stderr, "hand_io: %s failed (%d)\n", what, rc);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

struct PhaseResult {
  double transfer_s = 0; ///< IOR's wrRdTime (phase) or the harness's unit-scope sum (unit)
  double own_max_s = 0;  ///< the largest per-rank sum of transfer-call times
};

/// One IOR write or read phase over `segments` transfers of `buffer` bytes.
PhaseResult ior_phase(bool write, const char *path, long long buffer, long long segments,
                      bool per_unit, PageAligned &buf) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Info info = MPI_INFO_NULL;
  check(MPI_Info_create(&info), "MPI_Info_create"); // SetHints: no IOR_HINT__ variables set
  const int amode =
      (write ? MPI_MODE_WRONLY | MPI_MODE_CREATE : MPI_MODE_RDONLY) | MPI_MODE_UNIQUE_OPEN;
  MPI_File fh = MPI_FILE_NULL;
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  check(MPI_File_open(MPI_COMM_WORLD, path, amode, info, &fh), "MPI_File_open");
  if (write)
    check(MPI_File_set_size(fh, 0), "MPI_File_set_size");
  MPI_Info_free(&info);
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");

  double own = 0, unit_sum = 0;
  const double t0 = MPI_Wtime();
  for (long long s = 0; s < segments; ++s) {
    const MPI_Offset off = (s * size + rank) * buffer;
    if (per_unit)
      sync_int(MPI_COMM_WORLD);
    const double u0 = MPI_Wtime();
    MPI_Status status;
    if (write)
      check(MPI_File_write_at_c(fh, off, buf.data(), buffer, MPI_BYTE, &status),
            "MPI_File_write_at_c");
    else
      check(MPI_File_read_at_c(fh, off, buf.data(), buffer, MPI_BYTE, &status),
            "MPI_File_read_at_c");
    MPI_Count moved = 0;
    check(MPI_Get_elements_x(&status, MPI_BYTE, &moved), "MPI_Get_elements_x");
    if (moved != buffer) {
      std::fprintf(stderr, "hand_io: short transfer at %lld: %lld of %lld bytes\n",
                   static_cast<long long>(off), static_cast<long long>(moved), buffer);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    own += MPI_Wtime() - u0;
    if (per_unit) {
      sync_int(MPI_COMM_WORLD);
      unit_sum += MPI_Wtime() - u0;
      sync_int(MPI_COMM_WORLD);
    }
  }
  const double t1 = MPI_Wtime();
  PhaseResult r;
  double first = 0, last = 0;
  MPI_Reduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&t1, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&own, &r.own_max_s, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  r.transfer_s = per_unit ? unit_sum : last - first;
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  check(MPI_File_close(&fh), "MPI_File_close");
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
  return r;
}

/// Output `index` of splitmix64 seeded with `seed` (random_offsets' generator).
std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// The pread mode: random 4 KiB reads of the rank's file, prints µs per unit per repetition.
void pread_loop(const std::string &base, long long units, long long file_bytes, int reps) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  constexpr long long kBlock = 4096;
  const std::string path = base + "." + std::to_string(rank);
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    std::perror(path.c_str());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  PageAligned buf(kBlock, static_cast<char>(rank + 1));
  const auto blocks = static_cast<std::uint64_t>(file_bytes / kBlock);
  const std::uint64_t seed = 1 + (static_cast<std::uint64_t>(rank) << 32);
  std::vector<off_t> offsets(static_cast<size_t>(units));
  for (long long u = 0; u < units; ++u)
    offsets[static_cast<size_t>(u)] =
        static_cast<off_t>(splitmix64_at(seed, static_cast<std::uint64_t>(u)) % blocks) * kBlock;
  for (const off_t off : offsets)
    if (::pwrite(fd, buf.data(), kBlock, off) != kBlock)
      MPI_Abort(MPI_COMM_WORLD, 1);
  for (int rep = 0; rep < reps; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (const off_t off : offsets)
      if (::pread(fd, buf.data(), kBlock, off) != kBlock) {
        std::perror("pread");
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    const double t1 = MPI_Wtime();
    double first = 0, last = 0;
    MPI_Reduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t1, &last, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("%.4f\n", (last - first) / static_cast<double>(units) * 1e6);
  }
  ::close(fd);
  ::unlink(path.c_str());
}

int usage(int rank) {
  if (rank == 0)
    std::fprintf(stderr, "usage: hand_io ior PATH BUFFER SEGMENTS REPS [phase|unit]\n"
                         "       hand_io barriers UNITS REPS\n"
                         "       hand_io pread PATH UNITS FILE_BYTES REPS\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string mode = argc > 1 ? argv[1] : "";
  int rc = 0;
  if (mode == "ior" && (argc == 6 || argc == 7)) {
    const char *path = argv[2];
    const long long buffer = std::atoll(argv[3]);
    const long long segments = std::atoll(argv[4]);
    const int reps = std::atoi(argv[5]);
    const bool per_unit = argc == 7 && std::string(argv[6]) == "unit";
    PageAligned buf(static_cast<size_t>(buffer), static_cast<char>(rank + 1));
    const long long bytes = buffer * segments * size;
    for (int rep = 0; rep < reps; ++rep) {
      for (const bool write : {true, false}) {
        const PhaseResult r = ior_phase(write, path, buffer, segments, per_unit, buf);
        if (rank == 0)
          std::printf("%s %.9f %.9f %lld\n", write ? "write" : "read", r.transfer_s, r.own_max_s,
                      bytes);
      }
    }
  } else if (mode == "barriers" && argc == 4) {
    const long long units = std::atoll(argv[2]);
    const int reps = std::atoi(argv[3]);
    std::vector<double> per_unit_us;
    for (int rep = 0; rep < reps; ++rep) {
      double total = 0;
      for (long long u = 0; u < units; ++u) {
        sync_int(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        sync_int(MPI_COMM_WORLD);
        total += MPI_Wtime() - t0;
        sync_int(MPI_COMM_WORLD); // the untimed agreement after the unit
      }
      per_unit_us.push_back(total / static_cast<double>(units) * 1e6);
    }
    std::sort(per_unit_us.begin(), per_unit_us.end());
    if (rank == 0 && !per_unit_us.empty())
      std::printf("%.3f\n", per_unit_us[per_unit_us.size() / 2]);
  } else if (mode == "pread" && argc == 6) {
    pread_loop(argv[2], std::atoll(argv[3]), std::atoll(argv[4]), std::atoi(argv[5]));
  } else {
    rc = usage(rank);
  }
  MPI_Finalize();
  return rc;
}
