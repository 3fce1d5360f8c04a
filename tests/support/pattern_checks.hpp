#pragma once
/// Checks shared by the pattern test suites; who owns which byte stays in each suite.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mpi_test.hpp"

namespace pio::test {

/// The five temporal modes (thesis §3.4.2), in the order the suites run them.
const std::vector<std::string> &temporal_modes();

/// Owner value of a byte that belongs to nobody and whose value is unspecified (not checked).
constexpr int kUnspecified = -2;

/// The owner of each file byte (-1: nobody, the byte must be zero) and the file's length.
struct Image {
  std::int64_t length = 0;                ///< expected file size
  std::function<int(std::int64_t)> owner; ///< rank owning offset o, -1 or kUnspecified
};

/// The byte `mode` leaves at offset o owned by `owner` (re-write: gen 1; read-modify-write: ^0xA5).
std::uint8_t final_byte(const std::string &mode, int owner, std::int64_t o);

/// Compares file bytes `data` (read from `path`) with img after `mode`; "" or the first difference.
std::string compare_image(const std::vector<std::uint8_t> &data, const std::string &path,
                          const Image &img, const std::string &mode);

/// Reads the file at `path` and compares it with img after `mode`; "" or the problem.
std::string compare_file(const std::string &path, const Image &img, const std::string &mode);

/// "" when every module and test in the results has no error and every test ran its reps.
std::string result_errors(const nlohmann::json &results);

/// One <ap_module> block of a config: its module, mode, I/O flavour and own directives.
struct Block {
  std::string module;
  std::string mode;
  bool collective = false;
  bool view = true;
  std::string directives;
  std::string file; ///< TestFile of the block
};

/// A config of `blocks` with KeepFiles on and Verify on (or off).
std::string config_text(const TempDir &dir, const std::vector<Block> &blocks, bool verify = true);

/// Runs `config`; requires exit 0, clean results and "" from check(results) (run on rank 0).
void run_and_check(const TempDir &dir, const std::string &name, const std::string &config,
                   const std::function<std::string(const nlohmann::json &results)> &check,
                   bool keep_files = true);

/// The modes run_all_modes runs of `modes`: all of them at 1 and 2 ranks. At more ranks only the
/// layout is new (each mode's own logic is the same at every rank count and checked at 1 and 2
/// ranks), so "write" and "read" of them, or the first when neither is: between them they make
/// every kind of transfer the other modes make, through every I/O flavour.
std::vector<std::string> modes_at_this_size(const std::vector<std::string> &modes);

/// Runs modes_at_this_size(modes) x {ind, coll} x {view, no view}; checks image(mode, r or -1)
/// per (shared) file.
void run_all_modes(const std::string &module, const std::string &directives,
                   const std::function<bool(const std::string &mode)> &per_process,
                   const std::function<Image(const std::string &mode, int file_rank)> &image,
                   const std::vector<std::string> &modes = temporal_modes());

/// run_all_modes in the temporal modes with one shared file whose image is `img`.
void run_all_modes(const std::string &module, const std::string &directives, const Image &img);

/// Runs a one-block config whose first directive line (`directives` starts with it) breaks a
/// limit the module declares for `directive`: it must fail on every rank before any I/O, rank 0
/// naming the config file and line of that directive and the directive itself.
void expect_limit_error(const std::string &module, const std::string &directives,
                        const std::string &directive, const std::string &mode = "write");

/// Runs a one-block config whose module finds a config error in init_module (a
/// pio::DirectiveError): exit code 2 on every rank from the pre-flight check, rank 0 naming
/// bad.conf:`line` and `directive` on stderr, no results file and no test file created.
/// `line` 10 is the first line of `directives`, 5 the ModuleName line (a defaulted directive).
void expect_config_error(const std::string &module, const std::string &directives,
                         const std::string &directive, int line = 10,
                         const std::string &mode = "write", bool verify = true);

/// Runs a one-block config that must fail on every rank, rank 0 reporting `needle`.
void expect_failure(const std::string &module, const std::string &directives,
                    const std::string &needle, const std::string &mode = "write",
                    bool verify = true);

} // namespace pio::test
