#pragma once
/// Versions of the pio-bench module API and of the tool itself.

namespace pio {

/// Bumped whenever Module, ModuleInfo, the context structs or the results types change layout
/// or meaning. The loader refuses a module whose pio_api_version differs, naming both.
/// Version 2: typed results and figures, communication semantics, rank groups, harness
/// services, read-only tests, directive limits, ABI fingerprint. Version 3: pre-flight
/// (ModuleContext::validate_only). Version 4: pio/spec.hpp (was pio/test_spec.hpp), no
/// ModuleInfo::needs_file (FileUse decides), CommSemantics::table, TestContext::all, the I/O
/// seam (pio/io/), TestSpec::merit (ops/s). Version 5: the block's I/O interface
/// (ModuleContext::io, TestContext::io opened by the harness; Interface::sync and shape).
/// Version 6: Services::claim_tree (a claimed directory's TreeRule, pio/tree_rule.hpp); the
/// suite's time budget (ModuleInfo::time_directive, ModuleContext::time_budget_s,
/// ModuleResult::time_budget_s) and Output::Figure (the console shows the figure, not the tests).
/// Version 7: Verify has three values (ModuleContext::verify and ModuleResult::verify are a
/// VerifyMode, pio/verify_mode.hpp: off, on, timed). Version 8: ModuleContext::shared (FilesFrom:
/// files an earlier block made or a later block uses). Version 9: TestSpec::chain_cap and
/// Interface::size (a FilesFrom reader bounded by the file as found). Version 10: backends are
/// plugins (pio/io/backend.hpp): ModuleContext::interface, capabilities and backend replace
/// ModuleContext::io; TestContext::file is gone (views, seeks and set_info are Interface
/// calls); ModuleInfo::default_interface; AbiFingerprint::backend_info_size;
/// ModuleContext::progress and beat() (progress inside a long step, for StepTimeout), and
/// Services::claim_tree called by every rank of the block (rank 0 claims, the others join).
/// Phase::access (what a phase does to the file, for the page-cache checks) and the results'
/// flags, page cache, steadiness and conditions (pio/flag.hpp, pio/cache_mode.hpp).
/// Version 11: queue depth through the seam (Interface::queue_depth, Interface::report_latencies
/// and LatencySink, Backend::check_test_file; UnitContext::may_overlap and in_flight;
/// PhaseResult::latency and units_overlapped).
/// Version 12: WarmUpReps (TestContext::rep counts the warm-up repetitions first;
/// ModuleResult::warm_up_reps), the page cache after a write phase (CacheCheck::dirty_bytes),
/// Flag::WriteCache, ModuleInfo::runs_once, and a module's family (ModuleInfo::family and
/// ModuleResult::family, pio/module_family.hpp). Version 13: TestConditions::node_cpu_pressure.
/// Version 14: TimingScope is typed (pio/timing_scope.hpp: TestResult::timing_scope and
/// PhaseResult::timing_scope), and so is how a time-driven phase ended (PhaseResult::end_check, a
/// PhaseEnd); NodeConditions::rank_cpus. Version 15: ModuleResult's block settings are a
/// BlockSettings (pio/block_settings.hpp), which also carries the block's hints.
inline constexpr int kApiVersion = 15;

/// Version of the pio-bench tool, recorded in every results document. Its minor number is the
/// module API (kApiVersion): a new API is a new release line, 0.<API>.<patch>, which
/// find_package(pio-bench 0.<API>) asks for (docs/guides/writing-a-module.md, "Versions and the
/// module API"); the top CMakeLists.txt reads the project's version from here.
inline constexpr const char *kToolVersion = "0.15.0";

/// Version of the results JSON schema (docs/reference/results.md). 3: a block's `verify` is the
/// text off, on or timed (was a boolean). 4: `flags` on every test and repetition, `notes`,
/// `conditions` (tests and hosts), a phase's `cache`, the summary's `steadiness`, a block's
/// `cache_mode`, `read_shift` and `reps_auto`.
inline constexpr int kResultsSchemaVersion = 4;

} // namespace pio
