#include "guard/tree_sweep.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace pio::harness {

namespace {

/// The number a name spells after prefix: canonical decimal (no sign, no leading zero, at most
/// 18 digits), else -1.
std::int64_t number_after(const std::string &name, const std::string &prefix) {
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0)
    return -1;
  const std::string digits = name.substr(prefix.size());
  if (digits.size() > 18 || (digits.size() > 1 && digits[0] == '0') ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return -1;
  return std::stoll(digits);
}

/// The entries of a directory other than . and .., in name order; false if it cannot be read.
bool entries_of(const std::string &dir, std::vector<std::string> &names) {
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return false;
  while (const dirent *e = ::readdir(d))
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
      names.emplace_back(e->d_name);
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return true;
}

struct Sweeper {
  const TreeRules &rules;
  long long changed_after_ns; ///< 0, or the latest change an item of the run may have
  TreeRule rule;              ///< the rule of the root being walked
  std::int64_t nodes = 0;     ///< its nodes()
  TreeSweep out;

  bool refuse(const std::string &path, const std::string &why) {
    out.foreign = path;
    out.why = why;
    return false;
  }

  /// An item's owner and index from its name, or false.
  bool item_of(const std::string &name, std::int64_t &owner, std::int64_t &item) const {
    const std::string &p = rule.item_prefix;
    if (name.size() <= p.size() || name.compare(0, p.size(), p) != 0)
      return false;
    const auto dot = name.find('.', p.size());
    if (dot == std::string::npos)
      return false;
    owner = number_after(name.substr(0, dot), p);
    item = number_after(name, name.substr(0, dot + 1));
    return owner >= 0 && item >= 0;
  }

  /// Node `node` of a root: owner is the root's owner, or -1 for a shared root.
  bool node(const std::string &path, std::int64_t node, std::int64_t owner) {
    std::vector<std::string> names;
    if (!entries_of(path, names))
      return refuse(path, std::string("it cannot be read: ") + std::strerror(errno));
    for (const auto &name : names) {
      const std::string child = path + "/" + name;
      struct stat st;
      if (::lstat(child.c_str(), &st) != 0)
        return refuse(child, std::string("lstat failed: ") + std::strerror(errno));
      const std::int64_t sub = number_after(name, rule.dir_prefix);
      std::int64_t o = -1, i = -1;
      if (sub > node * rule.branching && sub <= node * rule.branching + rule.branching &&
          sub < nodes) {
        if (!S_ISDIR(st.st_mode))
          return refuse(child, "the rule has a directory of that name, this is not one");
        if (!this->node(child, sub, owner))
          return false;
      } else if (item_of(name, o, i)) {
        if (o >= rule.owners || (owner >= 0 && o != owner))
          return refuse(child,
                        "an item of owner " + std::to_string(o) + ", which has no items here");
        if (i >= rule.items || i % nodes != node)
          return refuse(child, "item " + std::to_string(i) + " does not belong in this directory");
        if (!S_ISREG(st.st_mode))
          return refuse(child, "not a regular file (a link or special file is never the run's)");
        if (st.st_size > rule.item_size)
          return refuse(child, std::to_string(st.st_size) + " bytes, more than the rule's " +
                                   std::to_string(rule.item_size));
        const long long changed =
            static_cast<long long>(st.st_ctim.tv_sec) * 1000000000LL + st.st_ctim.tv_nsec;
        if (changed_after_ns > 0 && changed > changed_after_ns)
          return refuse(child, "changed at " + std::to_string(changed) +
                                   " ns, after the run that made the tree was last seen: not "
                                   "its item");
        out.items.push_back(child);
      } else {
        return refuse(child, "a name the rule does not make");
      }
    }
    out.dirs.push_back(path);
    return true;
  }

  /// The owner of root `name` under the rule (-1 for a shared root), or -2 if it is not one.
  static std::int64_t root_owner(const TreeRule &r, const std::string &name) {
    if (!r.per_owner)
      return name == r.root_name ? -1 : -2;
    const std::int64_t owner = number_after(name, r.root_name);
    return owner >= 0 && owner < r.owners ? owner : -2;
  }

  void top(const std::string &dir) {
    std::vector<std::string> names;
    if (!entries_of(dir, names)) {
      refuse(dir, std::string("it cannot be read: ") + std::strerror(errno));
      return;
    }
    for (const auto &name : names) {
      const std::string child = dir + "/" + name;
      std::int64_t owner = -2;
      for (const auto &r : rules)
        if ((owner = root_owner(r, name)) != -2) {
          rule = r;
          nodes = r.nodes();
          break;
        }
      if (owner == -2) {
        refuse(child, "a name the rule does not make");
        return;
      }
      struct stat st;
      if (::lstat(child.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        refuse(child, "the rule has a directory of that name, this is not one");
        return;
      }
      if (!node(child, 0, owner))
        return;
    }
  }
};

bool plain(const std::string &name) {
  return !name.empty() && name.find_first_of("/ \t\n\r\v\f") == std::string::npos;
}

} // namespace

TreeSweep sweep_tree(const std::string &dir, const TreeRules &rules, long long changed_after_ns) {
  Sweeper s{rules, changed_after_ns, {}, 0, {}};
  s.top(dir);
  if (!s.out.foreign.empty()) {
    s.out.items.clear();
    s.out.dirs.clear();
  }
  return s.out;
}

std::string remove_swept(const TreeSweep &sweep) {
  if (!sweep.foreign.empty())
    return "the directory holds " + sweep.foreign;
  for (const auto &item : sweep.items)
    if (::unlink(item.c_str()) != 0 && errno != ENOENT)
      return "unlink " + item + ": " + std::strerror(errno);
  for (const auto &dir : sweep.dirs)
    if (::rmdir(dir.c_str()) != 0 && errno != ENOENT)
      return "rmdir " + dir + ": " + std::strerror(errno);
  return "";
}

std::string tree_rule_problem(const TreeRule &rule) {
  for (const auto *name : {&rule.root_name, &rule.dir_prefix, &rule.item_prefix})
    if (!plain(*name))
      return "the tree rule's name '" + *name + "' is empty or holds '/' or white space";
  if (rule.owners < 1 || rule.depth < 0 || rule.branching < 1 || rule.items < 0 ||
      rule.item_size < 0)
    return "the tree rule needs owners >= 1, depth >= 0, branching >= 1, items and item size >= 0";
  double nodes = 0, level = 1; // in floating point: a rule read from a record may be anything
  for (int d = 0; d <= rule.depth && nodes <= 1e12; ++d, level *= rule.branching)
    nodes += level;
  if (nodes > 1e12)
    return "the tree rule has more than 10^12 directories";
  return "";
}

std::string tree_rules_problem(const TreeRules &rules) {
  for (const auto &r : rules)
    if (std::string problem = tree_rule_problem(r); !problem.empty())
      return problem;
  return "";
}

namespace {
std::string describe_rule(const TreeRule &rule) {
  return std::string(rule.per_owner ? "a tree per owner " + rule.root_name + "<0.." +
                                          std::to_string(rule.owners - 1) + ">"
                                    : "one tree " + rule.root_name) +
         " of depth " + std::to_string(rule.depth) + " and branching " +
         std::to_string(rule.branching) + " (" + rule.dir_prefix + "<n>), " +
         std::to_string(rule.items) + " items " + rule.item_prefix + "<owner>.<i> per owner of " +
         std::to_string(rule.owners) + ", at most " + std::to_string(rule.item_size) +
         " bytes each";
}

} // namespace

std::string describe_rules(const TreeRules &rules) {
  std::string out;
  for (const auto &r : rules)
    out += (out.empty() ? "" : "; ") + describe_rule(r);
  return out;
}

} // namespace pio::harness
