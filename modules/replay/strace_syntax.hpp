#pragma once
// The lines of `strace -f -ttt -T [-y]` output, taken apart: who (pid), when (-ttt: seconds since
// the epoch), which call with which argument text, what it returned and how long it took (-T).
// A call another process interrupts is printed in two halves, "name(args <unfinished ...>" and
// "<... name resumed>rest) = ret <dur>"; the reader joins them per pid.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pio::replay {

/// One line of strace output.
struct StraceLine {
  /// What the line is.
  enum class Kind {
    Call,       ///< name(args) = ret [<dur>]
    Unfinished, ///< name(args <unfinished ...>
    Resumed,    ///< <... name resumed>args) = ret [<dur>]: `args` holds all after "resumed>",
                ///< for complete_call with the first half's arguments
    Event,      ///< "--- SIGNAL ... ---", "+++ exited with N +++", "strace: ..." (nothing to do)
  };
  Kind kind = Kind::Event;
  std::int64_t pid = 0;     ///< the process (thread) id; 0 when strace printed none (one process)
  std::int64_t seconds = 0; ///< -ttt timestamp, whole seconds
  std::int64_t micros = 0;  ///< -ttt timestamp, microseconds
  std::string name;         ///< the call
  std::string args;         ///< the argument text (Unfinished: its first part; Resumed: the rest)
  std::string ret;          ///< the return text, e.g. "4096", "-1 ENOENT (No such file ...)"
  double duration = -1;     ///< -T seconds; negative when the line has none
};

/// Takes a line apart. Returns nothing for a line that is not strace's (a timestamp missing or
/// not -ttt's, a call without its closing parenthesis); `why` then says what is wrong.
std::optional<StraceLine> parse_strace_line(const std::string &line, std::string *why);

/// Completes a call from `text`, its arguments and what follows them (a resumed call: the first
/// half's arguments then the second half): sets out.args to the arguments, out.ret and
/// out.duration from "= ret [<dur>]". False when the arguments do not close or no result follows.
bool complete_call(const std::string &text, StraceLine &out);

/// The arguments of a call, split at the commas outside strings, brackets and braces, trimmed.
std::vector<std::string> split_arguments(const std::string &args);

/// The bytes of a quoted C-style string argument ("..." with \" \\ \n \t \xHH \NNN escapes),
/// without a trailing "..." (strace's mark of a string cut at -s); nothing if not quoted.
std::optional<std::string> unquote(const std::string &arg);

/// A file descriptor argument or return value: "3", "3</path>" (-y), "AT_FDCWD</cwd>".
struct FdText {
  std::int64_t fd = -1; ///< -100 for AT_FDCWD; -1 when not a descriptor
  std::string path;     ///< the -y path, "" when strace printed none
};
/// Reads a descriptor (see FdText); nothing if the text is not one.
std::optional<FdText> parse_fd(const std::string &text);

/// The leading integer of a return value ("4096", "-1 EBADF (...)", "3</x>", "0x1f"), or nothing
/// ("?", an address that does not fit).
std::optional<std::int64_t> return_value(const std::string &ret);

/// The integer in a "[N]" or "[N => M]" argument (an offset passed by pointer; N, the value on
/// entry), or nothing ("NULL").
std::optional<std::int64_t> bracketed(const std::string &arg);

} // namespace pio::replay
