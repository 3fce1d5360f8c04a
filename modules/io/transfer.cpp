// The text of the seam's enums, beside them in one place.
#include "pio/io/transfer.hpp"

namespace pio::io {

const char *to_string(Direction d) { return d == Direction::Write ? "write" : "read"; }

const char *to_string(Positioning p) {
  switch (p) {
  case Positioning::ExplicitOffset:
    return "explicit offset";
  case Positioning::IndividualPointer:
    return "individual file pointer";
  case Positioning::SharedPointer:
    return "shared file pointer";
  }
  return "?";
}

const char *to_string(Coordination c) {
  return c == Coordination::Collective ? "collective" : "independent";
}

const char *to_string(Completion c) {
  switch (c) {
  case Completion::Blocking:
    return "blocking";
  case Completion::NonBlocking:
    return "non-blocking";
  case Completion::Split:
    return "split";
  }
  return "?";
}

} // namespace pio::io
