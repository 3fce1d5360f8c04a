// The chains of blocks sharing files as the run goes (file_chains.hpp).
#include "plan/file_chains.hpp"

namespace pio::harness {

const std::string *FileChains::broken_before(const ModulePlan &plan) const {
  if (plan.chain.source < 0)
    return nullptr;
  const auto broken = broken_.find(plan.chain.first);
  return broken == broken_.end() ? nullptr : &broken->second;
}

std::set<std::string> &FileChains::claims_of(const ModulePlan &plan, std::set<std::string> &kept) {
  return plan.chain.used_later ? files_[plan.chain.first] : kept;
}

void FileChains::cap_units(const ModulePlan &plan, int test, TestSpec &running) const {
  if (plan.chain.source < 0 || running.chain_cap != ChainCap::Units)
    return;
  const auto earlier = units_.find({plan.chain.source, test});
  if (earlier == units_.end())
    return;
  const std::vector<std::int64_t> &made = earlier->second;
  for (size_t k = 0; k < made.size() && k < running.phases.size(); ++k)
    if (made[k] > 0 && running.phases[k].work_units > made[k])
      running.phases[k].work_units = made[k];
}

void FileChains::record_units(const ModulePlan &plan, int test, std::vector<std::int64_t> units) {
  if (plan.chain.used_later)
    units_[{plan.chain.self, test}] = std::move(units);
}

bool FileChains::keep_file(const ModulePlan &plan, const std::string &path) {
  if (!plan.chain.used_later)
    return false;
  files_[plan.chain.first].insert(path);
  return true;
}

std::optional<std::string> FileChains::after_block(const ModulePlan &plan, bool failed,
                                                   OwnedFiles &files, MPI_Comm comm) {
  const FileChain &chain = plan.chain;
  if (chain.source < 0 && !chain.used_later)
    return std::nullopt;
  if (failed && !broken_.count(chain.first))
    broken_[chain.first] = plan.label;
  if (!chain.last)
    return std::nullopt;
  MPI_Barrier(comm);
  std::string problem = release_here(chain.first, files, broken_.count(chain.first) != 0);
  MPI_Barrier(comm);
  return problem;
}

void FileChains::release_all(OwnedFiles &files, MPI_Comm comm) {
  MPI_Barrier(comm);
  while (!files_.empty())
    release_here(files_.begin()->first, files, true);
  MPI_Barrier(comm);
}

std::string FileChains::release_here(int first, OwnedFiles &files, bool sweep) {
  std::string problem;
  for (const auto &p : files_[first]) {
    const std::string left = sweep ? files.empty_tree(p) : std::string();
    if (left.empty())
      files.release(p);
    else if (problem.empty())
      problem = left;
  }
  files_.erase(first);
  return problem;
}

} // namespace pio::harness
