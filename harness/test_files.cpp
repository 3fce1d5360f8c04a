#include "test_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include "pio/error.hpp"

namespace pio::harness {

void TestFiles::claim(const std::string &path) {
  if (created_.count(path))
    return;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (!overwrite_)
      throw Error("test file " + path +
                      " already exists and was not created by this run; "
                      "pio-harness will not overwrite it",
                  "choose another TestFile, remove the file yourself, or allow it with "
                  "'Overwrite on' / --overwrite");
    return; // allowed to write it, never to delete it
  }
  created_.insert(path);
}

bool TestFiles::release(const std::string &path) {
  if (keep_ || !created_.count(path))
    return false;
  created_.erase(path);
  return ::unlink(path.c_str()) == 0;
}

} // namespace pio::harness
