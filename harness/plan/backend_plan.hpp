#pragma once
/// Each block's I/O backend resolved from its Interface and its options checked against the
/// backend's own table (docs/reference/interfaces.md), so that the harness knows no backend by
/// name: the backends say which directives they take, what values, and which capabilities they
/// have.

#include <vector>

#include "config/config_model.hpp"
#include "load/catalog.hpp"
#include "plan/block_plan.hpp"

namespace pio::harness {

/// Checks the global lines that are no harness directive (Config's backend_lines): each must name
/// an option of a backend found, with a value its spec accepts. Throws ConfigError at the line.
void check_global_backend_lines(const Config &config, Catalog &catalog);

/// Resolves p's block's backend: the Interface its lines set, else its module's default
/// interface (p.info), else the harness's default; sets p.backend, p.backend_library,
/// p.backend_settings and p.interface_settings. Of `lines` (the block's module directive lines,
/// its sweeps' included), those the module does not declare and the global backend lines are
/// taken: the backend's own options are validated and applied in order, another backend's are
/// checked against that backend's table (an option that asks for a capability the block's
/// backend lacks, set away from its default, is refused); the rest is returned for the module.
/// Throws ConfigError at the line at fault: an unknown Interface, a value the option refuses, an
/// option that cannot be swept, a Hint for a backend without Capability::Hints.
std::vector<DirectiveLine> plan_backend(const Config &config,
                                        const std::vector<DirectiveLine> &lines, Catalog &catalog,
                                        ModulePlan &p);

} // namespace pio::harness
