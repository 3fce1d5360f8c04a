# pio_add_module(<target> SOURCES <src>... [LIBRARIES <lib>...] [NO_INSTALL])
# Builds a pio-bench module: a shared object loaded by pio-harness. Used in tree and, through
# find_package(pio-bench), by module authors out of tree; a pattern links pio::patterns.
# Without NO_INSTALL, `cmake --install` puts it in PIO_INSTALL_MODULE_DIR: in tree
# <libdir>/pio-bench/modules under the install prefix; out of tree the package config sets it to
# the installed pio-harness's module directory (override with -DPIO_INSTALL_MODULE_DIR=...).
function(pio_add_module target)
  cmake_parse_arguments(ARG "NO_INSTALL" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES})
  if(TARGET pio_api)
    target_link_libraries(${target} PRIVATE pio_api)
  else()
    target_link_libraries(${target} PRIVATE pio::api)
  endif()
  target_link_libraries(${target} PRIVATE ${ARG_LIBRARIES})
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  set_target_properties(${target} PROPERTIES PREFIX "" CXX_VISIBILITY_PRESET hidden)
  if(DEFINED PIO_BUILD_MODULE_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PIO_BUILD_MODULE_DIR})
  endif()
  if(TARGET pio_all_modules)
    add_dependencies(pio_all_modules ${target})
  endif()
  if(NOT ARG_NO_INSTALL)
    if(NOT PIO_INSTALL_MODULE_DIR)
      message(FATAL_ERROR "pio_add_module(${target}): PIO_INSTALL_MODULE_DIR is not set; use "
                          "find_package(pio-bench) first, or pass NO_INSTALL")
    endif()
    install(TARGETS ${target} LIBRARY DESTINATION ${PIO_INSTALL_MODULE_DIR})
  endif()
endfunction()
