// PMPI wrappers of the MPI-IO data calls (generated from mpio.h's prototypes): each logs its
// name and forwards to the library, so a test sees exactly which call the seam made.
#include "call_log.hpp"

#include <mpi.h>

namespace {

std::vector<std::string> &log() {
  static std::vector<std::string> l;
  return l;
}

void note(const char *name) { log().emplace_back(name); }

} // namespace

namespace pio::test {

const std::vector<std::string> &calls() { return log(); }

void clear_calls() { log().clear(); }

} // namespace pio::test

extern "C" {

int MPI_File_write_at(MPI_File f, MPI_Offset o, const void *b, int n, MPI_Datatype d,
                      MPI_Status *s) {
  note("MPI_File_write_at");
  return PMPI_File_write_at(f, o, b, n, d, s);
}

int MPI_File_write_at_all(MPI_File f, MPI_Offset o, const void *b, int n, MPI_Datatype d,
                          MPI_Status *s) {
  note("MPI_File_write_at_all");
  return PMPI_File_write_at_all(f, o, b, n, d, s);
}

int MPI_File_write(MPI_File f, const void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_write");
  return PMPI_File_write(f, b, n, d, s);
}

int MPI_File_write_all(MPI_File f, const void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_write_all");
  return PMPI_File_write_all(f, b, n, d, s);
}

int MPI_File_write_shared(MPI_File f, const void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_write_shared");
  return PMPI_File_write_shared(f, b, n, d, s);
}

int MPI_File_write_ordered(MPI_File f, const void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_write_ordered");
  return PMPI_File_write_ordered(f, b, n, d, s);
}

int MPI_File_iwrite_at(MPI_File f, MPI_Offset o, const void *b, int n, MPI_Datatype d,
                       MPI_Request *r) {
  note("MPI_File_iwrite_at");
  return PMPI_File_iwrite_at(f, o, b, n, d, r);
}

int MPI_File_iwrite_at_all(MPI_File f, MPI_Offset o, const void *b, int n, MPI_Datatype d,
                           MPI_Request *r) {
  note("MPI_File_iwrite_at_all");
  return PMPI_File_iwrite_at_all(f, o, b, n, d, r);
}

int MPI_File_iwrite(MPI_File f, const void *b, int n, MPI_Datatype d, MPI_Request *r) {
  note("MPI_File_iwrite");
  return PMPI_File_iwrite(f, b, n, d, r);
}

int MPI_File_iwrite_all(MPI_File f, const void *b, int n, MPI_Datatype d, MPI_Request *r) {
  note("MPI_File_iwrite_all");
  return PMPI_File_iwrite_all(f, b, n, d, r);
}

int MPI_File_iwrite_shared(MPI_File f, const void *b, int n, MPI_Datatype d, MPI_Request *r) {
  note("MPI_File_iwrite_shared");
  return PMPI_File_iwrite_shared(f, b, n, d, r);
}

int MPI_File_write_at_all_begin(MPI_File f, MPI_Offset o, const void *b, int n, MPI_Datatype d) {
  note("MPI_File_write_at_all_begin");
  return PMPI_File_write_at_all_begin(f, o, b, n, d);
}

int MPI_File_write_all_begin(MPI_File f, const void *b, int n, MPI_Datatype d) {
  note("MPI_File_write_all_begin");
  return PMPI_File_write_all_begin(f, b, n, d);
}

int MPI_File_write_ordered_begin(MPI_File f, const void *b, int n, MPI_Datatype d) {
  note("MPI_File_write_ordered_begin");
  return PMPI_File_write_ordered_begin(f, b, n, d);
}

int MPI_File_write_at_all_end(MPI_File f, const void *b, MPI_Status *s) {
  note("MPI_File_write_at_all_end");
  return PMPI_File_write_at_all_end(f, b, s);
}

int MPI_File_write_all_end(MPI_File f, const void *b, MPI_Status *s) {
  note("MPI_File_write_all_end");
  return PMPI_File_write_all_end(f, b, s);
}

int MPI_File_write_ordered_end(MPI_File f, const void *b, MPI_Status *s) {
  note("MPI_File_write_ordered_end");
  return PMPI_File_write_ordered_end(f, b, s);
}

int MPI_File_read_at(MPI_File f, MPI_Offset o, void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_read_at");
  return PMPI_File_read_at(f, o, b, n, d, s);
}

int MPI_File_read_at_all(MPI_File f, MPI_Offset o, void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_read_at_all");
  return PMPI_File_read_at_all(f, o, b, n, d, s);
}

int MPI_File_read(MPI_File f, void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_read");
  return PMPI_File_read(f, b, n, d, s);
}

int MPI_File_read_all(MPI_File f, void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_read_all");
  return PMPI_File_read_all(f, b, n, d, s);
}

int MPI_File_read_shared(MPI_File f, void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_read_shared");
  return PMPI_File_read_shared(f, b, n, d, s);
}

int MPI_File_read_ordered(MPI_File f, void *b, int n, MPI_Datatype d, MPI_Status *s) {
  note("MPI_File_read_ordered");
  return PMPI_File_read_ordered(f, b, n, d, s);
}

int MPI_File_iread_at(MPI_File f, MPI_Offset o, void *b, int n, MPI_Datatype d, MPI_Request *r) {
  note("MPI_File_iread_at");
  return PMPI_File_iread_at(f, o, b, n, d, r);
}

int MPI_File_iread_at_all(MPI_File f, MPI_Offset o, void *b, int n, MPI_Datatype d,
                          MPI_Request *r) {
  note("MPI_File_iread_at_all");
  return PMPI_File_iread_at_all(f, o, b, n, d, r);
}

int MPI_File_iread(MPI_File f, void *b, int n, MPI_Datatype d, MPI_Request *r) {
  note("MPI_File_iread");
  return PMPI_File_iread(f, b, n, d, r);
}

int MPI_File_iread_all(MPI_File f, void *b, int n, MPI_Datatype d, MPI_Request *r) {
  note("MPI_File_iread_all");
  return PMPI_File_iread_all(f, b, n, d, r);
}

int MPI_File_iread_shared(MPI_File f, void *b, int n, MPI_Datatype d, MPI_Request *r) {
  note("MPI_File_iread_shared");
  return PMPI_File_iread_shared(f, b, n, d, r);
}

int MPI_File_read_at_all_begin(MPI_File f, MPI_Offset o, void *b, int n, MPI_Datatype d) {
  note("MPI_File_read_at_all_begin");
  return PMPI_File_read_at_all_begin(f, o, b, n, d);
}

int MPI_File_read_all_begin(MPI_File f, void *b, int n, MPI_Datatype d) {
  note("MPI_File_read_all_begin");
  return PMPI_File_read_all_begin(f, b, n, d);
}

int MPI_File_read_ordered_begin(MPI_File f, void *b, int n, MPI_Datatype d) {
  note("MPI_File_read_ordered_begin");
  return PMPI_File_read_ordered_begin(f, b, n, d);
}

int MPI_File_read_at_all_end(MPI_File f, void *b, MPI_Status *s) {
  note("MPI_File_read_at_all_end");
  return PMPI_File_read_at_all_end(f, b, s);
}

int MPI_File_read_all_end(MPI_File f, void *b, MPI_Status *s) {
  note("MPI_File_read_all_end");
  return PMPI_File_read_all_end(f, b, s);
}

int MPI_File_read_ordered_end(MPI_File f, void *b, MPI_Status *s) {
  note("MPI_File_read_ordered_end");
  return PMPI_File_read_ordered_end(f, b, s);
}

} // extern "C"
