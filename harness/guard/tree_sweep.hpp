#pragma once
/// The stale cleanup of a claimed directory (docs/reliability.md): its owner record holds the
/// TreeRule of what the dead run may have made there; the sweep sorts every entry below it into
/// the rule's items and directories, and the cleanup removes them only if no entry falls outside
/// the rule. What the run did not make is never touched, and neither is anything beside it.

#include <string>
#include <vector>

#include "pio/tree_rule.hpp"

namespace pio::harness {

/// What a walk of a claimed directory found.
struct TreeSweep {
  std::vector<std::string> items; ///< regular files the rule allows
  std::vector<std::string> dirs;  ///< the rule's directories, children before parents
  std::string foreign;            ///< the first entry (in name order) the rule does not allow
  std::string why;                ///< why it is not allowed
};

/// Walks dir (never following a link, directories in name order) and sorts each entry below it
/// by the rule, stopping at the first entry it does not allow.
TreeSweep sweep_tree(const std::string &dir, const TreeRule &rule);

/// Unlinks the items and removes the directories (rmdir, never recursively) of a sweep that
/// found no foreign entry. Returns "" or the first failure.
std::string remove_swept(const TreeSweep &sweep);

/// "" if the rule's names can be stored and matched (not empty, no '/' or white space), else
/// what is wrong.
std::string tree_rule_problem(const TreeRule &rule);

/// The rule in words, for messages.
std::string describe_rule(const TreeRule &rule);

} // namespace pio::harness
