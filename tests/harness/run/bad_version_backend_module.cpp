// Test fixture: a backend object claiming a module API version this harness does not have.
extern "C" __attribute__((visibility("default"))) const int pio_api_version = 999;
extern "C" __attribute__((visibility("default"))) void *pio_backends() {
  static int called = 0;
  ++called; // must never be reached: the loader checks the version first
  return nullptr;
}
