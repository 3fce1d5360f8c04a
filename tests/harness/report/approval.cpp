#include "approval.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace pio::test {

namespace {
std::string read_text(const std::string &path, bool &found) {
  std::ifstream in(path, std::ios::binary);
  found = static_cast<bool>(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string &path, const std::string &text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out)
    throw std::runtime_error("cannot write " + path);
}
} // namespace

bool matches_approved(const std::string &name, const std::string &received) {
  const std::string approved_path = std::string(PIO_APPROVED_DIR) + "/" + name;
  const char *approve = std::getenv("PIO_APPROVE");
  if (approve && std::string(approve) == "1") {
    write_text(approved_path, received);
    std::cout << "approved: " << approved_path << "\n";
    return true;
  }
  bool found = false;
  const std::string approved = read_text(approved_path, found);
  if (found && approved == received)
    return true;
  const std::string received_path = std::string(PIO_RECEIVED_DIR) + "/" + name;
  write_text(received_path, received);
  std::cout << (found ? "output differs from " : "no approved file ") << approved_path
            << "\n  see: diff -u " << approved_path << " " << received_path
            << "\n  if the new output is right: PIO_APPROVE=1 ctest -R test_reporters\n";
  return false;
}

} // namespace pio::test
