#pragma once
/// An Interface that passes every call to another: the base of a decorator that counts, delays,
/// reorders or fails some calls of a backend's Interface and leaves the rest as they were.

#include <map>
#include <string>

#include "pio/io/interface.hpp"

namespace pio::io {

/// Forwards every call to `inner` (set before the first call); override what you change.
class ForwardingInterface : public Interface {
public:
  /// The Interface the calls go to.
  Interface *inner = nullptr;

  std::int64_t start(const Transfer &t) override { return inner->start(t); }
  std::int64_t finish(const Transfer &t) override { return inner->finish(t); }
  void wait_all(MPI_Request *requests, int n) override { inner->wait_all(requests, n); }
  void sync() override { inner->sync(); }
  void shape(std::int64_t bytes) override { inner->shape(bytes); }
  std::int64_t size() override { return inner->size(); }
  void set_view(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype) override {
    inner->set_view(disp, etype, filetype);
  }
  void seek(MPI_Offset offset) override { inner->seek(offset); }
  void seek_shared(MPI_Offset offset) override { inner->seek_shared(offset); }
  void set_info(const std::map<std::string, std::string> &hints) override {
    inner->set_info(hints);
  }
  int queue_depth() const override { return inner->queue_depth(); }
  void report_latencies(LatencySink *sink) override { inner->report_latencies(sink); }
};

} // namespace pio::io
