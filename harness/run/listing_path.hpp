#pragma once
/// The module path of a listing (--list-modules, --list-interfaces): the -M directories and the
/// config's ModulePath, printed on one line, and the catalog of the objects found there.

#include <ostream>

#include "load/catalog.hpp"
#include "run/run.hpp"

namespace pio::harness {

/// Prints "<title>: dir dir ..." and a newline on out (flushed: nothing buffered is copied into a
/// child that opens an object), then returns the catalog of that path.
Catalog scan_listing_path(const RunOptions &options, const char *title, std::ostream &out);

} // namespace pio::harness
