#pragma once
/// One move-only RAII handle template for every MPI object the harness or a module owns.

#include <utility>

namespace pio {

/// Owns one raw handle of type Traits::type; frees it with Traits::free on destruction.
/// Traits: `using type = ...; static type null(); static void free(type &);`
template <class Traits> class Handle {
public:
  using raw_type = typename Traits::type;
  Handle() = default;
  /// Takes ownership of h.
  explicit Handle(raw_type h) : h_(h) {}
  Handle(Handle &&o) noexcept : h_(std::exchange(o.h_, Traits::null())) {}
  Handle &operator=(Handle &&o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, Traits::null());
    }
    return *this;
  }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  ~Handle() { reset(); }
  /// The raw handle (the null handle when empty).
  raw_type get() const { return h_; }
  /// Address of the raw handle, for MPI calls that create one (it must be empty).
  raw_type *out() {
    reset();
    return &h_;
  }
  /// Gives up ownership and returns the raw handle.
  raw_type release() { return std::exchange(h_, Traits::null()); }
  /// True when a handle is owned.
  explicit operator bool() const { return h_ != Traits::null(); }
  /// Frees the handle now (errors are ignored: destructors must not throw).
  void reset() {
    if (h_ != Traits::null())
      Traits::free(h_);
    h_ = Traits::null();
  }

private:
  raw_type h_ = Traits::null();
};

} // namespace pio
