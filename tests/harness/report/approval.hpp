#pragma once
/// Approval testing: compare a reporter's output with a checked-in expected text.

#include <string>

namespace pio::test {

/// True if `received` equals approved/<name>. On a mismatch (or a missing approved file) writes
/// `received` to <build dir>/received/<name> and prints a `diff -u` command for the two files.
/// With PIO_APPROVE=1 in the environment it rewrites approved/<name> instead and returns true.
bool matches_approved(const std::string &name, const std::string &received);

} // namespace pio::test
