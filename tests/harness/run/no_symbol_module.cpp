// Test fixture: a shared object that is not a pio-bench module (no pio_api_version).
extern "C" __attribute__((visibility("default"))) int something_else() { return 42; }
