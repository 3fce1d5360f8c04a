#pragma once
/// Versions of the pio-bench module API and of the tool itself.

namespace pio {

/// Bumped whenever Module, ModuleInfo or the context structs change layout or meaning.
/// The loader refuses a module whose pio_api_version differs (DESIGN §3).
inline constexpr int kApiVersion = 1;

/// Version of the pio-bench tool, recorded in every results document.
inline constexpr const char *kToolVersion = "0.1.0";

/// Version of the results JSON schema (docs/results.md).
inline constexpr int kResultsSchemaVersion = 1;

} // namespace pio
