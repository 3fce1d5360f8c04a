#pragma once
/// syncfs(2) and sync(2) interposed in the test program: every call this rank makes (the
/// module's too, which the loader resolves to the program's definition) is logged, syncfs with the
/// directory it named; a hook may run after each syncfs (to change files between phases).

#include <functional>
#include <string>
#include <vector>

namespace pio::test {

/// The path of each descriptor syncfs was called on since the last clear, in order.
const std::vector<std::string> &syncfs_calls();

/// Forgets the calls logged so far (syncfs and sync).
void clear_syncfs_calls();

/// How many times sync(2) was called since the last clear.
int sync_calls();

/// Runs `hook` after every later syncfs of this rank (an empty function: none).
void set_syncfs_hook(std::function<void()> hook);

} // namespace pio::test
