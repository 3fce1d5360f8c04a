#pragma once
/// One config block resolved to its module: the plan's unit.

#include <map>
#include <string>

#include "config/config_model.hpp"
#include "load/library.hpp"
#include "pio/directive.hpp"

namespace pio::harness {

/// Where a block stands in a chain of blocks sharing files (FilesFrom, shared_files.hpp).
struct FileChain {
  int self = 0;            ///< this block's index in the plan
  int source = -1;         ///< the block FilesFrom names (-1: none, the block makes its own files)
  int first = 0;           ///< the chain's first block, which made the files (self if none)
  bool used_later = false; ///< a later block of its chain runs: its files stay after it
  bool last = true;        ///< no later block of the chain: its files go after this block
};

/// One block, resolved: which module of which library, with its validated settings, and which
/// backend with its validated options.
struct ModulePlan {
  const ModuleBlock *block = nullptr;
  const LoadedLibrary *library = nullptr;
  const ModuleInfo *info = nullptr;
  Settings settings;
  const LoadedLibrary *backend_library = nullptr; ///< the object providing the block's backend
  const io::BackendInfo *backend = nullptr;       ///< the block's backend (its Interface)
  Settings backend_settings; ///< the backend's options for the block, defaults filled in
  /// Every option of the backend, by name, as the results and labels show it
  /// (`interface_settings`: {"ODirect": "off"})
  std::map<std::string, std::string> interface_settings;
  /// The line in effect for each of the backend's options the config sets (by the option's
  /// name): where a DirectiveError of the backend is reported.
  std::map<std::string, DirectiveLine> backend_lines;
  std::string label;        ///< the block's label (block_label.hpp), unique in the run
  double time_budget_s = 0; ///< the block's share of SuiteTime, all repetitions (suite_time.hpp)
  std::string test_file;    ///< the TestFile its tests use: its own, the global one or its chain's
  FileChain chain;          ///< the blocks it shares files with (shared_files.hpp)
};

} // namespace pio::harness
