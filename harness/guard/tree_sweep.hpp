#pragma once
/// The stale cleanup of a claimed directory (docs/reference/reliability.md): its owner record holds
/// the TreeRules of what the dead run may have made there; the sweep sorts every entry below it
/// into the rules' items and directories, and the cleanup removes them only if no entry falls
/// outside the rules. What the run did not make is never touched, and neither is anything beside
/// it.

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
/// by the rules (an entry of dir itself is the root of the first rule naming it; below a root,
/// that rule alone), stopping at the first entry they do not allow. With changed_after_ns > 0, an
/// item changed later than that (its ctime: made, written or renamed there after the run that
/// made the tree was last seen, OwnerRecord::changed_after_ns) is not allowed either.
TreeSweep sweep_tree(const std::string &dir, const TreeRules &rules,
                     long long changed_after_ns = 0);

/// Unlinks the items and removes the directories (rmdir, never recursively) of a sweep that
/// found no foreign entry. Returns "" or the first failure.
std::string remove_swept(const TreeSweep &sweep);

/// "" if the rule's names can be stored and matched (not empty, no '/' or white space) and its
/// numbers are in range, else what is wrong.
std::string tree_rule_problem(const TreeRule &rule);
/// The first problem of any of the rules ("" if none, or if there are none).
std::string tree_rules_problem(const TreeRules &rules);

/// The rules in words, for messages.
std::string describe_rules(const TreeRules &rules);

} // namespace pio::harness
