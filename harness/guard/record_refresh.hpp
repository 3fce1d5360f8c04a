#pragma once
/// While the harness writes a file or fills a claimed directory, it touches the file's owner
/// record every kRecordRefreshS seconds (its modification time: "the run was alive then"), so that
/// after the run died a later run can tell what changed since: a file or an item whose change
/// time is later than the record's last touch (plus kRecordGraceS) was changed by someone else
/// after the run died, and is never removed (owner_record.hpp). One utimensat per record and
/// period, on a thread of its own: nothing in the timed path.

#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace pio::harness {

/// How often a watched owner record is touched, in seconds.
constexpr int kRecordRefreshS = 5;
/// How much later than the record's last touch a change may be and still be the run's own: two
/// periods (a touch late on a loaded machine) and the moment the other ranks of a run take to
/// die after the record's owner.
constexpr int kRecordGraceS = 2 * kRecordRefreshS + 10;

/// Touches the watched owner records every kRecordRefreshS seconds while it lives.
class RecordRefresher {
public:
  RecordRefresher() = default;
  ~RecordRefresher();
  RecordRefresher(const RecordRefresher &) = delete;
  RecordRefresher &operator=(const RecordRefresher &) = delete;
  /// Starts touching `record` (the thread starts with the first).
  void watch(const std::string &record);
  /// Stops touching it.
  void unwatch(const std::string &record);

private:
  void loop();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::set<std::string> records_;
  bool stop_ = false;
  std::thread thread_;
};

} // namespace pio::harness
