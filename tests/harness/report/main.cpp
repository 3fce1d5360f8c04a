// Catch2's main: the reporters need no MPI.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
