#pragma once
/// The owner record of a file the harness creates (docs/reference/reliability.md):
/// `<file>.pio-owner`, a short text naming the run, host, process and its start, and the device,
/// inode, size and modification time of the file as the run last left it, so that a later run
/// recognises a leftover of a pio-bench run that died and may remove it only while the file on disk
/// is still the one that run left, while a file without our record is never touched.

#include <optional>
#include <string>

#include "pio/tree_rule.hpp"

namespace pio::harness {

/// Who created a file.
struct OwnerRecord {
  std::string run_id;       ///< unique per harness process
  std::string host;         ///< gethostname
  long pid = 0;             ///< process id
  std::string boot_id;      ///< /proc/sys/kernel/random/boot_id ("" if unknown)
  long long start = 0;      ///< process start time in clock ticks since boot (/proc/PID/stat)
  std::string started_at;   ///< UTC date, for messages
  long long created_ns = 0; ///< when the record was first written (realtime, ns since 1970)
  /// The file as the run last left it: known once the file exists (stamped after the harness
  /// opened it and after it closed it).
  bool stamped = false;
  bool open = false;          ///< stamped while the run had the file open (size and mtime moving)
  unsigned long long dev = 0; ///< st_dev
  unsigned long long ino = 0; ///< st_ino
  long long size = 0;         ///< st_size when stamped closed
  long long mtime_ns = 0;     ///< st_mtim when stamped closed
  /// Birth time (statx STATX_BTIME), 0 where the file system does not give it: a file made again
  /// under the same name can get the same inode number (ext4 reuses them), never the same birth.
  long long btime_ns = 0;
  /// For a claimed directory: what the run may have made in it (the stale cleanup's rules).
  TreeRules trees;
  /// The run touched the record every refresh_s seconds while it wrote the file or filled the
  /// directory (record_refresh.hpp); 0 in records of pio-bench 0.4.0 and before.
  int refresh_s = 0;
  /// The record's own modification time (ns): the run was alive then.
  long long seen_ns = 0;
  /// With refresh_s: a change of the file (its ctime) or of an item later than this is not the
  /// run's (it was dead by then): seen_ns plus kRecordGraceS; 0 without refresh_s.
  long long changed_after_ns() const;
};

/// Whether the owner of a record still runs.
enum class OwnerState {
  Alive,   ///< this host, same boot, that process with the same start time exists
  Gone,    ///< provably gone: this host, and another boot, or no such process, or another start
  Unknown, ///< another host: cannot tell
};

/// The record path of a file: path + ".pio-owner".
std::string owner_record_path(const std::string &path);

/// This process's record (computed once).
const OwnerRecord &my_owner_record();

/// Writes this process's record for path, created exclusively (never replacing a file), with
/// the tree rules of a claimed directory if given. Returns false if it could not be created (the
/// data file is then simply not marked).
bool write_owner_record(const std::string &path, const TreeRules *trees = nullptr);

/// Rewrites this process's record of path (created by write_owner_record) with the file's
/// device, inode, size and modification time now; `open` says the run still writes it. Replaced
/// atomically (a temporary renamed over it). Returns false if the record could not be written.
bool stamp_owner_record(const std::string &path, bool open);

/// "" if the file at path is, by device, inode and birth time (and, stamped closed, size and
/// modification time; stamped open, no change after the run was last seen: changed_after_ns), the
/// one the record's run left there, or if there is no such file; else what differs. A directory is
/// proved by device and inode alone (it is only ever removed when empty). A record written on
/// another host is not held to its device number, which numbers that host's mount of a shared
/// file system, not the file system. moved: path is the name this process just moved the file to
/// (the move set its change time, so the change after the run was last seen is not asked).
std::string file_differs(const OwnerRecord &r, const std::string &path, bool moved = false);

/// Reads the record of path; nothing if there is none or it is not a pio-bench record.
std::optional<OwnerRecord> read_owner_record(const std::string &path);

/// Whether the record's owner still runs.
OwnerState owner_state(const OwnerRecord &r);

/// "run R (pid P on H, started D)" for messages.
std::string describe_owner(const OwnerRecord &r);

} // namespace pio::harness
