# pio_add_module(<target> SOURCES <src>... [LIBRARIES <lib>...] [NO_INSTALL])
# Builds a pio-bench module: a shared object loaded by pio-harness. Used in tree and, through
# find_package(pio-bench), by module authors out of tree; a pattern links pio::patterns.
# Without NO_INSTALL, `cmake --install` puts it in PIO_INSTALL_MODULE_DIR: in tree
# <libdir>/pio-bench/modules under the install prefix; out of tree the package config sets it to
# the installed pio-harness's module directory (override with -DPIO_INSTALL_MODULE_DIR=...).
# After linking, pio-manifest (in tree: its target; out of tree: pio::manifest) opens the object
# and writes <target>.pio-manifest beside it: the module names it exports, its API version and ABI
# fingerprint. pio-harness reads the manifests as text and opens only the objects a config names.
# The manifest is installed beside the object; a failing manifest step fails the build.
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
  if(TARGET pio-manifest)
    set(manifest_tool pio-manifest)
  elseif(TARGET pio::manifest)
    set(manifest_tool pio::manifest)
  else()
    message(FATAL_ERROR "pio_add_module(${target}): no pio-manifest tool (target pio-manifest or "
                        "pio::manifest); use find_package(pio-bench) first")
  endif()
  set(manifest_name "$<TARGET_FILE_BASE_NAME:${target}>.pio-manifest")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${manifest_tool} $<TARGET_FILE:${target}> $<TARGET_FILE_DIR:${target}>/${manifest_name}
    COMMENT "Writing the module manifest of ${target}"
    VERBATIM)
  if(TARGET pio_all_modules)
    add_dependencies(pio_all_modules ${target})
  endif()
  if(NOT ARG_NO_INSTALL)
    if(NOT PIO_INSTALL_MODULE_DIR)
      message(FATAL_ERROR "pio_add_module(${target}): PIO_INSTALL_MODULE_DIR is not set; use "
                          "find_package(pio-bench) first, or pass NO_INSTALL")
    endif()
    install(TARGETS ${target} LIBRARY DESTINATION ${PIO_INSTALL_MODULE_DIR})
    install(FILES $<TARGET_FILE_DIR:${target}>/${manifest_name}
      DESTINATION ${PIO_INSTALL_MODULE_DIR})
    # Installing may rewrite the object (RPATH) after the manifest was copied: the manifest must
    # not look older than its object (the harness would call it stale).
    install(CODE "
      set(dir \"${PIO_INSTALL_MODULE_DIR}\")
      if(NOT IS_ABSOLUTE \"\${dir}\")
        set(dir \"\${CMAKE_INSTALL_PREFIX}/\${dir}\")
      endif()
      file(TOUCH_NOCREATE \"\$ENV{DESTDIR}\${dir}/${manifest_name}\")")
  endif()
endfunction()

# pio_add_backend(<target> SOURCES <src>... [LIBRARIES <lib>...] [NO_INSTALL])
# Builds a pio-bench I/O backend (docs/guides/writing-a-backend.md): an object that exports
# PIO_EXPORT_BACKENDS (pio/io/backend_export.hpp). It is built, given its manifest and installed
# exactly as a module is (pio_add_module above), so pio-harness finds it on the module path.
function(pio_add_backend target)
  pio_add_module(${target} ${ARGN})
endfunction()
