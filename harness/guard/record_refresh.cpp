// Touching the owner records of files being written (record_refresh.hpp).
#include "guard/record_refresh.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <chrono>
#include <vector>

namespace pio::harness {

RecordRefresher::~RecordRefresher() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

void RecordRefresher::watch(const std::string &record) {
  std::lock_guard<std::mutex> lock(mutex_);
  records_.insert(record);
  if (!thread_.joinable())
    thread_ = std::thread([this] { loop(); });
}

void RecordRefresher::unwatch(const std::string &record) {
  std::lock_guard<std::mutex> lock(mutex_);
  records_.erase(record);
}

void RecordRefresher::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::seconds(kRecordRefreshS), [this] { return stop_; })) {
    const std::vector<std::string> now(records_.begin(), records_.end());
    lock.unlock();
    for (const auto &record : now) // the time now; a record gone meanwhile is simply skipped
      ::utimensat(AT_FDCWD, record.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
    lock.lock();
  }
}

} // namespace pio::harness
