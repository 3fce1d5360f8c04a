#pragma once
/// The settings a block takes from the site config's global lines unless it writes its own, and
/// the one list of how the results document writes them.

#include <map>
#include <string>

#include "pio/cache_mode.hpp"
#include "pio/verify_mode.hpp"

namespace pio {

/// Verify, Collective, FileView, SyncWrites, CacheMode, WarmUpReps, Hint and Interface: declared
/// once for the config (the global defaults and each block's, one directive table row each) and
/// the results (ModuleResult, each_result_setting).
struct BlockSettings {
  VerifyMode verify = VerifyMode::Off;      ///< Verify: off, on or timed
  bool collective = false;                  ///< Collective
  bool file_view = true;                    ///< FileView
  bool sync_writes = false;                 ///< SyncWrites
  CacheMode cache_mode = CacheMode::Keep;   ///< CacheMode
  long warm_up_reps = 0;                    ///< WarmUpReps: repetitions run first, not recorded
  std::map<std::string, std::string> hints; ///< Hint key value (a block's lines overlay the global)
  /// Interface: the backend's word (docs/reference/interfaces.md); in a config block the plan
  /// may take the module's default instead when no line reaches it, in the results the backend
  /// the block ran on
  std::string interface = "mpiio";
};

/// Calls f(key, value) for every setting as the results document names and types it: "verify"
/// and "cache_mode" their words, "collective", "file_view" and "sync_writes" booleans,
/// "warm_up_reps" a number, "hints" a map, "interface" its word.
template <class F> void each_result_setting(const BlockSettings &s, F &&f) {
  f("verify", std::string(to_string(s.verify)));
  f("collective", s.collective);
  f("file_view", s.file_view);
  f("sync_writes", s.sync_writes);
  f("cache_mode", std::string(to_string(s.cache_mode)));
  f("warm_up_reps", s.warm_up_reps);
  f("hints", s.hints);
  f("interface", s.interface);
}

} // namespace pio
