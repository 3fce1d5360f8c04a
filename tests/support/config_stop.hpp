#pragma once
/// The check of a config that must stop at pre-flight, shared by the config-error suites.

#include <string>

namespace pio::test {

/// Runs config text (its @DIR@ a scratch directory, @SHM@ one on /dev/shm) that must stop at
/// pre-flight with exit 2 on every rank: rank 0's message is a config error naming `where`
/// (e.g. "bad.conf:7: Hint romio_cb_write applies") and `also`; no results and no test file
/// (t, t.0) are made.
void expect_config_stop(const std::string &config, const std::string &where,
                        const std::string &also);

} // namespace pio::test
