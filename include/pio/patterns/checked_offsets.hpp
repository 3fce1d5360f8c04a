#pragma once
/// Offset arithmetic that refuses to overflow. A pattern computes the end of its file with these
/// in make_tests, from its directives and the process count only, so that a geometry reaching
/// beyond 2^63-1 bytes (HeaderOffset 9223372036854775807, a huge stride) is a config error on
/// every rank alike before any I/O, instead of offsets that wrap on some ranks (an
/// MPI_File_set_view failing on one rank while the others wait inside it).

#include <cstdint>
#include <string>

namespace pio::patterns {

/// a + b (both >= 0); throws pio::DirectiveError naming `directive` and `what` if the sum
/// exceeds 2^63-1.
std::int64_t checked_add(std::int64_t a, std::int64_t b, const std::string &directive,
                         const std::string &what);

/// a * b (both >= 0); throws pio::DirectiveError naming `directive` and `what` if the product
/// exceeds 2^63-1.
std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string &directive,
                         const std::string &what);

/// The end of a pattern's file, header + units * unit_span: `units` work units whose bytes (of
/// all ranks, gaps included) lie in consecutive frames of unit_span bytes after the header. Every
/// offset and view extent of the pattern must lie below it. Throws pio::DirectiveError naming
/// `span_directive` when units * unit_span exceeds 2^63-1, HeaderOffset when adding the header
/// does.
std::int64_t checked_file_end(std::int64_t header, std::int64_t units, std::int64_t unit_span,
                              const std::string &span_directive);

} // namespace pio::patterns
