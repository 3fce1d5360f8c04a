#pragma once
/// syncfs(2) interposed in the test program: every call this rank makes (the module's too, which
/// the loader resolves to the program's definition) is logged with the directory it named.

#include <string>
#include <vector>

namespace pio::test {

/// The path of each descriptor syncfs was called on since the last clear, in order.
const std::vector<std::string> &syncfs_calls();

/// Forgets the calls logged so far.
void clear_syncfs_calls();

} // namespace pio::test
