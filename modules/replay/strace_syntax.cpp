// strace's output syntax (strace_syntax.hpp).
#include "strace_syntax.hpp"

#include <cctype>
#include <cstdlib>

#include "number_text.hpp"

namespace pio::replay {
namespace {

bool is_digits(const std::string &s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

std::string trim(const std::string &s) {
  const auto a = s.find_first_not_of(" \t");
  if (a == std::string::npos)
    return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

/// From `from` in `s` at bracket depth `depth`: the index of the ')' that closes it, skipping
/// strings and /* comments */; npos if the text ends first.
std::size_t closing(const std::string &s, std::size_t from, int depth) {
  for (std::size_t i = from; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i)
        if (s[i] == '\\')
          ++i;
      if (i >= s.size())
        return std::string::npos;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const auto end = s.find("*/", i + 2);
      if (end == std::string::npos)
        return std::string::npos;
      i = end + 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0)
        return c == ')' ? i : std::string::npos;
    }
  }
  return std::string::npos;
}

/// "= ret [<dur>]" after a call's closing parenthesis into `out`; false if there is no '='.
bool result(const std::string &rest, StraceLine &out) {
  const std::string r = trim(rest);
  if (r.empty() || r[0] != '=')
    return false;
  std::string ret = trim(r.substr(1));
  if (!ret.empty() && ret.back() == '>') {
    const auto lt = ret.rfind('<');
    if (lt != std::string::npos) {
      if (const auto d = whole_real(ret.substr(lt + 1, ret.size() - lt - 2))) {
        out.duration = *d;
        ret = trim(ret.substr(0, lt));
      }
    }
  }
  out.ret = ret;
  return true;
}

const std::string kUnfinished = " <unfinished ...>";

} // namespace

bool complete_call(const std::string &text, StraceLine &out) {
  const auto c = closing(text, 0, 1);
  if (c == std::string::npos)
    return false;
  out.args = text.substr(0, c);
  return result(text.substr(c + 1), out);
}

std::optional<StraceLine> parse_strace_line(const std::string &line, std::string *why) {
  StraceLine out;
  std::string s = trim(line);
  if (s.rfind("strace: ", 0) == 0)
    return out; // Event: "strace: Process N attached" (output to the terminal)
  std::size_t p = 0;
  if (s.rfind("[pid", 0) == 0) {
    const auto close = s.find(']');
    if (close == std::string::npos || !is_digits(trim(s.substr(4, close - 4)))) {
      *why = "a '[pid' prefix without its pid";
      return std::nullopt;
    }
    out.pid = std::stoll(trim(s.substr(4, close - 4)));
    p = s.find_first_not_of(' ', close + 1);
  } else {
    const auto sp = s.find(' ');
    if (sp != std::string::npos && is_digits(s.substr(0, sp))) {
      out.pid = std::stoll(s.substr(0, sp));
      p = s.find_first_not_of(' ', sp);
    }
  }
  if (p == std::string::npos) {
    *why = "a line with nothing after its pid";
    return std::nullopt;
  }
  const auto sp = s.find(' ', p);
  const std::string stamp = s.substr(p, sp == std::string::npos ? std::string::npos : sp - p);
  const auto dot = stamp.find('.');
  if (stamp.find(':') != std::string::npos) {
    *why = "a clock-time timestamp (strace -t or -tt); the replay needs -ttt (seconds since the "
           "epoch)";
    return std::nullopt;
  }
  if (dot == std::string::npos || !is_digits(stamp.substr(0, dot)) ||
      !is_digits(stamp.substr(dot + 1)) || stamp.size() - dot - 1 > 9) {
    *why = "no -ttt timestamp where one belongs";
    return std::nullopt;
  }
  out.seconds = std::stoll(stamp.substr(0, dot));
  std::string frac = stamp.substr(dot + 1);
  frac.resize(6, '0'); // microseconds, padded or cut from strace's -ttt digits
  out.micros = std::stoll(frac);
  if (sp == std::string::npos) {
    *why = "a timestamp and nothing after it";
    return std::nullopt;
  }
  const std::string body = s.substr(sp + 1);
  if (body.rfind("--- ", 0) == 0 || body.rfind("+++ ", 0) == 0)
    return out;
  if (body.rfind("<... ", 0) == 0) {
    const auto r = body.find(" resumed>");
    if (r == std::string::npos) {
      *why = "a '<...' line without 'resumed>'";
      return std::nullopt;
    }
    out.name = body.substr(5, r - 5);
    out.kind = StraceLine::Kind::Resumed;
    out.args = body.substr(r + 9);
    return out;
  }
  std::size_t n = 0;
  while (n < body.size() && (std::isalnum(static_cast<unsigned char>(body[n])) || body[n] == '_'))
    ++n;
  if (n == 0 || n >= body.size() || body[n] != '(') {
    *why = "neither a call, a resumed call, a signal nor an exit";
    return std::nullopt;
  }
  out.name = body.substr(0, n);
  const auto c = closing(body, n + 1, 1);
  if (c == std::string::npos) {
    if (body.size() >= kUnfinished.size() &&
        body.compare(body.size() - kUnfinished.size(), kUnfinished.size(), kUnfinished) == 0) {
      out.kind = StraceLine::Kind::Unfinished;
      out.args = body.substr(n + 1, body.size() - kUnfinished.size() - n - 1);
      return out;
    }
    *why = "a call without its closing parenthesis";
    return std::nullopt;
  }
  out.args = body.substr(n + 1, c - n - 1);
  const std::string after = trim(body.substr(c + 1));
  if (after.rfind("<unfinished ...>", 0) == 0) { // every argument printed, the return not yet
    out.kind = StraceLine::Kind::Unfinished;
    return out;
  }
  out.kind = StraceLine::Kind::Call;
  if (!result(after, out)) {
    *why = "a call without '= result'";
    return std::nullopt;
  }
  return out;
}

std::vector<std::string> split_arguments(const std::string &args) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const char c = args[i];
    if (c == '"') {
      for (++i; i < args.size() && args[i] != '"'; ++i)
        if (args[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < args.size() && args[i + 1] == '*') {
      const auto end = args.find("*/", i + 2);
      i = end == std::string::npos ? args.size() : end + 1;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(trim(args.substr(start, i - start)));
      start = i + 1;
    }
  }
  const std::string last = trim(args.substr(start < args.size() ? start : args.size()));
  if (!last.empty() || !out.empty())
    out.push_back(last);
  return out;
}

std::optional<std::string> unquote(const std::string &arg) {
  if (arg.empty() || arg[0] != '"')
    return std::nullopt;
  std::string out;
  for (std::size_t i = 1; i < arg.size(); ++i) {
    char c = arg[i];
    if (c == '"')
      return out;
    if (c != '\\' || i + 1 >= arg.size()) {
      out += c;
      continue;
    }
    c = arg[++i];
    switch (c) {
    case 'n':
      out += '\n';
      break;
    case 't':
      out += '\t';
      break;
    case 'r':
      out += '\r';
      break;
    case 'v':
      out += '\v';
      break;
    case 'f':
      out += '\f';
      break;
    case 'x': {
      const std::string hex = arg.substr(i + 1, 2);
      out += static_cast<char>(std::strtol(hex.c_str(), nullptr, 16));
      i += 2;
      break;
    }
    default:
      if (c >= '0' && c <= '7') {
        int v = 0, k = 0;
        for (; k < 3 && i < arg.size() && arg[i] >= '0' && arg[i] <= '7'; ++k, ++i)
          v = v * 8 + (arg[i] - '0');
        --i;
        out += static_cast<char>(v);
      } else {
        out += c; // \" \\ and anything else as itself
      }
    }
  }
  return std::nullopt; // no closing quote
}

std::optional<FdText> parse_fd(const std::string &text) {
  FdText out;
  std::string t = trim(text);
  const auto lt = t.find('<');
  if (lt != std::string::npos) {
    if (t.back() != '>')
      return std::nullopt;
    out.path = t.substr(lt + 1, t.size() - lt - 2);
    t = t.substr(0, lt);
  }
  if (t == "AT_FDCWD") {
    out.fd = -100;
    return out;
  }
  const auto v = whole_integer(t);
  if (!v)
    return std::nullopt;
  out.fd = *v;
  return out;
}

std::optional<std::int64_t> return_value(const std::string &ret) {
  const std::string t = trim(ret);
  std::size_t n = 0;
  if (t.rfind("0x", 0) == 0) {
    while (2 + n < t.size() && std::isxdigit(static_cast<unsigned char>(t[2 + n])))
      ++n;
    if (n == 0 || n > 15)
      return std::nullopt;
    return static_cast<std::int64_t>(std::strtoll(t.substr(2, n).c_str(), nullptr, 16));
  }
  if (!t.empty() && t[0] == '-')
    n = 1;
  while (n < t.size() && std::isdigit(static_cast<unsigned char>(t[n])))
    ++n;
  return whole_integer(t.substr(0, n));
}

std::optional<std::int64_t> bracketed(const std::string &arg) {
  const std::string t = trim(arg);
  if (t.size() < 3 || t.front() != '[' || t.back() != ']')
    return std::nullopt;
  std::string inner = t.substr(1, t.size() - 2);
  const auto arrow = inner.find("=>");
  if (arrow != std::string::npos)
    inner = inner.substr(0, arrow);
  return whole_integer(trim(inner));
}

} // namespace pio::replay
