#pragma once
/// What the harness passes to each of the seven module methods (thesis Appendix A, Tables
/// A.1-A.4, modernised: 64-bit sizes, communicator, hints, collective and flush flags).

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>

#include "pio/directive.hpp"
#include "pio/test_spec.hpp"

namespace pio {

/// Module-wide context (Table A.1): valid from init_module to cleanup_module.
struct ModuleContext {
  MPI_Comm comm = MPI_COMM_WORLD; ///< all ranks of the run
  int rank = 0;                   ///< rank in comm
  int size = 1;                   ///< size of comm
  std::string module_name;        ///< the name this block selected
  Settings settings;              ///< the module's own directives, validated, defaults filled in
  std::string test_file;          ///< TestFile (global or per block)
  bool verify = false;            ///< Verify on: stamp written data and check it (untimed)
  bool sync_writes = false;       ///< SyncWrites: flush every write inside the timed unit
  bool collective = false;        ///< Collective on: use collective MPI-IO calls
  bool use_file_view = true;      ///< FileView on: describe accesses with a file view
  std::map<std::string, std::string> hints; ///< Hint lines of the block (applied by the harness)
};

/// Per-test context (Tables A.2, A.4): valid from describe_test to cleanup_test of one repetition.
struct TestContext {
  const ModuleContext *module = nullptr; ///< the module-wide context
  TestSpec *spec = nullptr;      ///< this test; describe_test may fill in phases[k].work_units
  int test_index = 0;            ///< index into the list init_module returned
  int rep = 0;                   ///< repetition (0 .. ModuleReps-1)
  MPI_Comm comm = MPI_COMM_NULL; ///< ranks taking part in this test
  int rank = 0;                  ///< rank in comm
  int size = 1;                  ///< size of comm
  MPI_File file =
      MPI_FILE_NULL;     ///< the open file (MPI_FILE_NULL for FileUse::None or in cleanup_test)
  std::string file_path; ///< path of this rank's file (per-process files differ by rank)
};

/// Per-work-unit context (Table A.3).
struct UnitContext {
  TestContext *test = nullptr; ///< the test this unit belongs to
  int phase = 0;               ///< index into spec->phases
  std::int64_t unit = 0;       ///< index of this unit within the phase (0-based)
  std::int64_t units = 0;      ///< units in the phase, or -1 while a time-driven phase is running
  bool flush = false;          ///< flush writes inside the unit (SyncWrites)
  bool collective = false;     ///< use collective calls
};

} // namespace pio
