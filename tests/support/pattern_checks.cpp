#include "pattern_checks.hpp"

#include <catch2/catch.hpp>

#include <exception>
#include <sstream>

#include "pio/stamp.hpp"

namespace pio::test {

const std::vector<std::string> &temporal_modes() {
  static const std::vector<std::string> modes = {"write", "read", "read-modify-write", "re-read",
                                                 "re-write"};
  return modes;
}

std::uint8_t final_byte(const std::string &mode, int owner, std::int64_t o) {
  if (mode == "re-write")
    return pio::stamp_byte(owner, o, 1);
  if (mode == "read-modify-write")
    return pio::stamp_byte(owner, o, 0) ^ 0xA5; // pio/patterns/temporal_mode.hpp kModifyMask
  return pio::stamp_byte(owner, o, 0);          // write; read and re-read see prepared data
}

std::string compare_image(const std::vector<std::uint8_t> &data, const std::string &path,
                          const Image &img, const std::string &mode) {
  if (static_cast<std::int64_t>(data.size()) != img.length)
    return path + ": length " + std::to_string(data.size()) + ", expected " +
           std::to_string(img.length);
  for (std::int64_t o = 0; o < img.length; ++o) {
    const int who = img.owner(o);
    if (who == kUnspecified)
      continue;
    const unsigned expect = who < 0 ? 0u : final_byte(mode, who, o);
    const unsigned got = data[static_cast<size_t>(o)];
    if (got != expect)
      return path + ": offset " + std::to_string(o) + " (owner " + std::to_string(who) +
             "): expected " + std::to_string(expect) + ", found " + std::to_string(got);
  }
  return "";
}

std::string compare_file(const std::string &path, const Image &img, const std::string &mode) {
  try {
    return compare_image(read_bytes(path), path, img, mode);
  } catch (const std::exception &e) {
    return e.what();
  }
}

std::string result_errors(const nlohmann::json &results) {
  if (!results.is_object() || !results.contains("modules"))
    return "no results document";
  for (const auto &m : results["modules"]) {
    if (!m["error"].is_null())
      return "module error: " + m["error"].dump();
    if (m["tests"].empty())
      return "module " + m.value("module_name", std::string()) + " ran no tests";
    for (const auto &t : m["tests"]) {
      if (!t["error"].is_null())
        return "test error: " + t["error"].dump();
      if (t["reps"].empty())
        return "test without reps";
    }
  }
  return "";
}

std::string config_text(const TempDir &dir, const std::vector<Block> &blocks, bool verify) {
  std::ostringstream c;
  c << "TestFile \"" << dir.file("unused") << "\"\nVerify " << (verify ? "on" : "off")
    << "\nKeepFiles on\n";
  for (const auto &b : blocks)
    c << "<ap_module>\n  ModuleName \"" << b.module << "\"\n  TestFile \"" << b.file
      << "\"\n  Mode " << b.mode << "\n  Collective " << (b.collective ? "on" : "off")
      << "\n  FileView " << (b.view ? "on" : "off") << "\n"
      << b.directives << "</ap_module>\n";
  return c.str();
}

void run_and_check(const TempDir &dir, const std::string &name, const std::string &config,
                   const std::function<std::string(const nlohmann::json &results)> &check,
                   bool keep_files) {
  const auto ran = run_config(dir, name, config, keep_files);
  INFO(ran.out << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 0));
  std::string problem;
  if (rank() == 0) {
    try {
      problem = result_errors(ran.results);
      if (problem.empty())
        problem = check(ran.results);
    } catch (const std::exception &e) { // fail all ranks rather than leave the others waiting
      problem = std::string("check threw: ") + e.what();
    }
  }
  INFO(problem);
  REQUIRE(all_ranks(problem.empty()));
}

std::vector<std::string> modes_at_this_size(const std::vector<std::string> &modes) {
  if (size() <= 2 || modes.empty())
    return modes;
  std::vector<std::string> out;
  for (const auto &mode : modes)
    if (mode == "write" || mode == "read")
      out.push_back(mode);
  return out.empty() ? std::vector<std::string>{modes.front()} : out;
}

void run_all_modes(const std::string &module, const std::string &directives,
                   const std::function<bool(const std::string &mode)> &per_process,
                   const std::function<Image(const std::string &mode, int file_rank)> &image,
                   const std::vector<std::string> &modes) {
  TempDir dir;
  std::vector<Block> blocks;
  for (const auto &mode : modes_at_this_size(modes))
    for (int collective = 0; collective < 2; ++collective)
      for (int view = 0; view < 2; ++view) {
        Block b{module, mode, collective != 0, view != 0, directives, ""};
        b.file = dir.file(module + "-" + mode + (b.collective ? "-coll" : "-ind") +
                          (b.view ? "-view" : "-noview"));
        blocks.push_back(b);
      }
  run_and_check(dir, module, config_text(dir, blocks), [&](const nlohmann::json &) {
    std::string problem;
    for (const auto &b : blocks) {
      if (per_process(b.mode)) {
        for (int r = 0; r < size() && problem.empty(); ++r)
          problem = compare_file(b.file + "." + std::to_string(r), image(b.mode, r), b.mode);
      } else {
        problem = compare_file(b.file, image(b.mode, -1), b.mode);
      }
      if (!problem.empty())
        break;
    }
    return problem;
  });
}

void run_all_modes(const std::string &module, const std::string &directives, const Image &img) {
  run_all_modes(
      module, directives, [](const std::string &) { return false; },
      [&](const std::string &, int) { return img; });
}

void expect_failure(const std::string &module, const std::string &directives,
                    const std::string &needle, const std::string &mode, bool verify) {
  TempDir dir;
  Block b{module, mode, false, true, directives, dir.file("bad")};
  const auto ran = run_config(dir, "bad", config_text(dir, {b}, verify), false);
  const std::string text = ran.err + (ran.results.is_null() ? std::string() : ran.results.dump());
  INFO(directives << "\nexpected an error containing: " << needle << "\ngot: " << text);
  REQUIRE(all_ranks(ran.exit_code != 0));
  REQUIRE(all_ranks(rank() != 0 || text.find(needle) != std::string::npos));
}

void expect_config_error(const std::string &module, const std::string &directives,
                         const std::string &directive, int line, const std::string &mode,
                         bool verify) {
  TempDir dir;
  Block b{module, mode, false, true, directives, dir.file("bad")};
  const std::string config = config_text(dir, {b}, verify);
  const std::string where = "bad.conf:" + std::to_string(line) + ": " + directive;
  const auto ran = run_config(dir, "bad", config, false);
  INFO(config << "\nexpected exit 2 and an error at " << where << "\nstderr: " << ran.err);
  REQUIRE(all_ranks(ran.exit_code == 2));
  // Found by the pre-flight check, like any config error: before the results file is begun.
  REQUIRE(all_ranks(rank() != 0 || (ran.err.find("pio-harness: error: config: ") == 0 &&
                                    ran.err.find("/" + where) != std::string::npos)));
  REQUIRE(all_ranks(ran.results.is_null() && !exists(dir.file("bad.json"))));
  REQUIRE(all_ranks(!exists(b.file) && !exists(b.file + ".0")));
}

void expect_limit_error(const std::string &module, const std::string &directives,
                        const std::string &directive, const std::string &mode) {
  TempDir dir;
  Block b{module, mode, false, true, directives, dir.file("bad")};
  const std::string config = config_text(dir, {b}, true);
  // The block's own directives start after the nine lines config_text writes before them.
  const std::string where = "bad.conf:10:";
  const auto ran = run_config(dir, "bad", config, false);
  const std::string text = ran.err + (ran.results.is_null() ? std::string() : ran.results.dump());
  INFO(config << "\nexpected an error at " << where << " naming " << directive
              << "\ngot: " << text);
  REQUIRE(all_ranks(ran.exit_code != 0));
  const auto at = text.find(where);
  REQUIRE(all_ranks(rank() != 0 ||
                    (at != std::string::npos && text.find(directive, at) != std::string::npos)));
  REQUIRE(all_ranks(!exists(b.file)));
}

} // namespace pio::test
