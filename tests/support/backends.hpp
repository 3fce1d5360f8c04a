#pragma once
/// The in-tree backends for tests that make a backend's calls directly (the harness loads the
/// same code from their objects): a backend configured with options over its defaults.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pio/io/backend.hpp"

namespace pio::test {

/// The description of the in-tree backend `name` (mpiio, posix or hdf5).
const pio::io::BackendInfo &backend_info(const std::string &name);

/// Backend `name` made with `options` (name -> words) over its options' defaults.
std::unique_ptr<pio::io::Backend>
backend(const std::string &name,
        const std::map<std::string, std::vector<std::string>> &options = {});

/// The posix backend with its defaults, made once (the metadata family's helpers under test).
pio::io::Backend &posix();

} // namespace pio::test
