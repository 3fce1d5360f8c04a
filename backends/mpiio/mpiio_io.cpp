// The mpiio backend's Interface: one MPI-IO call per transfer, chosen by positioning,
// coordination, completion and direction; return codes become pio::MpiError at the call.
#include "mpiio_io.hpp"

#include <string>

#include "pio/mpi_handles.hpp"

namespace pio::io {

namespace {

bool writes(const Transfer &t) { return t.direction == Direction::Write; }
bool collective(const Transfer &t) { return t.coordination == Coordination::Collective; }

[[noreturn]] void no_such_call(const Transfer &t) {
  throw Error(std::string("MPI-IO has no ") + to_string(t.completion) + " " +
                  to_string(t.coordination) + " " + to_string(t.direction) + " on the " +
                  to_string(t.positioning),
              "split transfers are collective only, and the shared file pointer has no "
              "non-blocking collective (ordered) form; choose another completion");
}

/// The elements a completed transfer moved, when asked for.
std::int64_t moved(const Transfer &t, MPI_Status *st) {
  if (!t.count_moved)
    return t.count;
  int got = 0;
  mpi_check(MPI_Get_count(st, t.datatype, &got), "MPI_Get_count");
  return got;
}

int blocking(MPI_File f, const Transfer &t, MPI_Status *st) {
  void *b = t.buffer;
  const int n = t.count;
  const MPI_Datatype d = t.datatype;
  const bool w = writes(t), c = collective(t);
  switch (t.positioning) {
  case Positioning::ExplicitOffset:
    return w ? (c ? MPI_File_write_at_all(f, t.offset, b, n, d, st)
                  : MPI_File_write_at(f, t.offset, b, n, d, st))
             : (c ? MPI_File_read_at_all(f, t.offset, b, n, d, st)
                  : MPI_File_read_at(f, t.offset, b, n, d, st));
  case Positioning::IndividualPointer:
    return w ? (c ? MPI_File_write_all(f, b, n, d, st) : MPI_File_write(f, b, n, d, st))
             : (c ? MPI_File_read_all(f, b, n, d, st) : MPI_File_read(f, b, n, d, st));
  case Positioning::SharedPointer:
    return w ? (c ? MPI_File_write_ordered(f, b, n, d, st) : MPI_File_write_shared(f, b, n, d, st))
             : (c ? MPI_File_read_ordered(f, b, n, d, st) : MPI_File_read_shared(f, b, n, d, st));
  }
  return MPI_ERR_ARG;
}

int nonblocking(MPI_File f, const Transfer &t) {
  void *b = t.buffer;
  const int n = t.count;
  const MPI_Datatype d = t.datatype;
  MPI_Request *r = t.request;
  const bool w = writes(t), c = collective(t);
  switch (t.positioning) {
  case Positioning::ExplicitOffset:
    return w ? (c ? MPI_File_iwrite_at_all(f, t.offset, b, n, d, r)
                  : MPI_File_iwrite_at(f, t.offset, b, n, d, r))
             : (c ? MPI_File_iread_at_all(f, t.offset, b, n, d, r)
                  : MPI_File_iread_at(f, t.offset, b, n, d, r));
  case Positioning::IndividualPointer:
    return w ? (c ? MPI_File_iwrite_all(f, b, n, d, r) : MPI_File_iwrite(f, b, n, d, r))
             : (c ? MPI_File_iread_all(f, b, n, d, r) : MPI_File_iread(f, b, n, d, r));
  case Positioning::SharedPointer:
    if (c)
      no_such_call(t);
    return w ? MPI_File_iwrite_shared(f, b, n, d, r) : MPI_File_iread_shared(f, b, n, d, r);
  }
  return MPI_ERR_ARG;
}

int begin(MPI_File f, const Transfer &t) {
  if (!collective(t))
    no_such_call(t);
  void *b = t.buffer;
  const int n = t.count;
  const MPI_Datatype d = t.datatype;
  const bool w = writes(t);
  switch (t.positioning) {
  case Positioning::ExplicitOffset:
    return w ? MPI_File_write_at_all_begin(f, t.offset, b, n, d)
             : MPI_File_read_at_all_begin(f, t.offset, b, n, d);
  case Positioning::IndividualPointer:
    return w ? MPI_File_write_all_begin(f, b, n, d) : MPI_File_read_all_begin(f, b, n, d);
  case Positioning::SharedPointer:
    return w ? MPI_File_write_ordered_begin(f, b, n, d) : MPI_File_read_ordered_begin(f, b, n, d);
  }
  return MPI_ERR_ARG;
}

int end(MPI_File f, const Transfer &t, MPI_Status *st) {
  void *b = t.buffer;
  const bool w = writes(t);
  switch (t.positioning) {
  case Positioning::ExplicitOffset:
    return w ? MPI_File_write_at_all_end(f, b, st) : MPI_File_read_at_all_end(f, b, st);
  case Positioning::IndividualPointer:
    return w ? MPI_File_write_all_end(f, b, st) : MPI_File_read_all_end(f, b, st);
  case Positioning::SharedPointer:
    return w ? MPI_File_write_ordered_end(f, b, st) : MPI_File_read_ordered_end(f, b, st);
  }
  return MPI_ERR_ARG;
}

/// The MPI call names, indexed [completion][positioning][collective][read].
const char *const kCalls[3][3][2][2] = {
    {{{"MPI_File_write_at", "MPI_File_read_at"}, {"MPI_File_write_at_all", "MPI_File_read_at_all"}},
     {{"MPI_File_write", "MPI_File_read"}, {"MPI_File_write_all", "MPI_File_read_all"}},
     {{"MPI_File_write_shared", "MPI_File_read_shared"},
      {"MPI_File_write_ordered", "MPI_File_read_ordered"}}},
    {{{"MPI_File_iwrite_at", "MPI_File_iread_at"},
      {"MPI_File_iwrite_at_all", "MPI_File_iread_at_all"}},
     {{"MPI_File_iwrite", "MPI_File_iread"}, {"MPI_File_iwrite_all", "MPI_File_iread_all"}},
     {{"MPI_File_iwrite_shared", "MPI_File_iread_shared"}, {nullptr, nullptr}}},
    {{{nullptr, nullptr}, {"MPI_File_write_at_all_begin", "MPI_File_read_at_all_begin"}},
     {{nullptr, nullptr}, {"MPI_File_write_all_begin", "MPI_File_read_all_begin"}},
     {{nullptr, nullptr}, {"MPI_File_write_ordered_begin", "MPI_File_read_ordered_begin"}}}};

/// The split end of t's begin, e.g. "MPI_File_write_at_all_end".
std::string end_name(const Transfer &t) {
  std::string s = MpiIo::call_name(t);
  return s.substr(0, s.size() - 5) + "end";
}

} // namespace

const char *MpiIo::call_name(const Transfer &t) {
  return kCalls[static_cast<int>(t.completion)][static_cast<int>(t.positioning)][collective(t)]
               [!writes(t)];
}

std::int64_t MpiIo::start(const Transfer &t) {
  switch (t.completion) {
  case Completion::Blocking: {
    MPI_Status st;
    MPI_Status *sp = t.count_moved ? &st : MPI_STATUS_IGNORE;
    const int rc = blocking(file_, t, sp);
    if (rc != MPI_SUCCESS)
      mpi_check(rc, call_name(t));
    return moved(t, sp);
  }
  case Completion::NonBlocking: {
    if (t.request == nullptr)
      throw Error("a non-blocking transfer needs Transfer::request",
                  "point it at the MPI_Request the transfer's completion waits on");
    const int rc = nonblocking(file_, t);
    if (rc != MPI_SUCCESS)
      mpi_check(rc, call_name(t));
    return 0;
  }
  case Completion::Split: {
    const int rc = begin(file_, t);
    if (rc != MPI_SUCCESS)
      mpi_check(rc, call_name(t));
    return 0;
  }
  }
  return 0;
}

std::int64_t MpiIo::finish(const Transfer &t) {
  MPI_Status st;
  MPI_Status *sp = t.count_moved ? &st : MPI_STATUS_IGNORE;
  switch (t.completion) {
  case Completion::Blocking:
    return t.count;
  case Completion::NonBlocking:
    mpi_check(MPI_Wait(t.request, sp), "MPI_Wait");
    return moved(t, sp);
  case Completion::Split: {
    const int rc = end(file_, t, sp);
    if (rc != MPI_SUCCESS)
      mpi_check(rc, end_name(t).c_str());
    return moved(t, sp);
  }
  }
  return 0;
}

void MpiIo::wait_all(MPI_Request *requests, int n) {
  mpi_check(MPI_Waitall(n, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
}

void MpiIo::sync() { mpi_check(MPI_File_sync(file_), "MPI_File_sync"); }

void MpiIo::set_view(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype) {
  char native[] = "native";
  mpi_check(MPI_File_set_view(file_, disp, etype, filetype, native, MPI_INFO_NULL),
            "MPI_File_set_view");
}

void MpiIo::seek(MPI_Offset offset) {
  mpi_check(MPI_File_seek(file_, offset, MPI_SEEK_SET), "MPI_File_seek");
}

void MpiIo::seek_shared(MPI_Offset offset) {
  mpi_check(MPI_File_seek_shared(file_, offset, MPI_SEEK_SET), "MPI_File_seek_shared");
}

void MpiIo::set_info(const std::map<std::string, std::string> &hints) {
  mpi_check(MPI_File_set_info(file_, Info(hints).get()), "MPI_File_set_info");
}

std::int64_t MpiIo::size() {
  MPI_Offset bytes = 0;
  mpi_check(MPI_File_get_size(file_, &bytes), "MPI_File_get_size");
  return static_cast<std::int64_t>(bytes);
}

} // namespace pio::io
