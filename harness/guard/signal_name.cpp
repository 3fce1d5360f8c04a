#include "guard/signal_name.hpp"

#include <signal.h>

namespace pio::harness {

const char *signal_name(int sig) noexcept {
  switch (sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGABRT:
    return "SIGABRT";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  case SIGKILL:
    return "SIGKILL";
  }
  return "a signal";
}

} // namespace pio::harness
