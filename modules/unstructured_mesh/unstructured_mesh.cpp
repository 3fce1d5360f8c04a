// Unstructured mesh pattern: thesis §3.4.1 "Unstructured Mesh" (results §4.2.9, Fig. 4.9).
//
// "This data can be thought of as a point in three dimensional space with X, Y, and Z
// coordinates. Commonly these points will also have some other value, or structure of values
// for each point ... Namely, either a simple strided, or segmented access pattern will be used by
// a parallel application when it needs to store or load unstructured mesh data points."
//
// A vertex record is x, y, z and ValuesPerVertex values, all doubles: R = (3 + V)*8 bytes. The
// mesh is partitioned over the P ranks in contiguous ranges of N vertices (rank r holds global
// vertices r*N .. r*N+N-1); memory holds a rank's records packed (§4.2.9: "the values associated
// with each vertex are packed into a contiguous buffer"). Work unit u stores mesh u (a time step)
// at base B(u) = HeaderOffset + u*P*N*R. Placement in the file:
//
//   segmented: records in global vertex order; rank r's vertices are one run
//     offset B(u) + r*N*R, length N*R
//       header | r0: v0 v1 ... vN-1 | r1: vN ... | ... | rP-1 ...
//   strided:   records interleaved round robin by rank in chunks of K vertices; chunk k of
//     every rank has length L(k) = min(K, N - k*K) vertices and chunk k of rank r starts at
//     B(u) + (k*P*K + r*L(k))*R
//       header | r0 chunk 0 | r1 chunk 0 | ... | rP-1 chunk 0 | r0 chunk 1 | r1 chunk 1 | ...
//
// TestSpec.buffer_size is N*R, the bytes of a rank's vertices (§4.2.9: buffer sizes correspond
// to the number of vertices and values per vertex; both are swept).

#include <mpi.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "pio/error.hpp"
#include "pio/module.hpp"
#include "pio/patterns/byte_types.hpp"
#include "pio/patterns/checked_offsets.hpp"
#include "pio/patterns/pattern_module.hpp"

namespace pio::patterns {
namespace {

/// Where vertex records go in the file.
enum class Placement { Segmented, Strided };

/// Bytes of one coordinate or value.
constexpr std::int64_t kValueBytes = sizeof(double);

/// One mesh test.
struct MeshLayout {
  Placement placement = Placement::Segmented;
  std::int64_t vertices = 1; ///< N: vertices per rank
  std::int64_t values = 1;   ///< V: values per vertex besides x, y, z
  std::int64_t chunk = 1;    ///< K: vertices per chunk (strided)
  std::int64_t header = 0;   ///< HeaderOffset
  int ranks = 1;             ///< P

  /// Bytes of one vertex record: R.
  std::int64_t record() const { return (3 + values) * kValueBytes; }
  /// Bytes of one mesh (all ranks).
  std::int64_t mesh_bytes() const { return ranks * vertices * record(); }
};

/// Thesis §3.4.1: partitioned vertex records, segmented or strided in the file.
class MeshGeometry : public Geometry {
public:
  explicit MeshGeometry(const MeshLayout &m) : m_(m) {}

  std::vector<Extent> extents(int rank, std::int64_t unit) const override {
    const std::int64_t base = m_.header + unit * m_.mesh_bytes(), R = m_.record();
    if (m_.placement == Placement::Segmented)
      return {{base + rank * m_.vertices * R, m_.vertices * R}};
    std::vector<Extent> out;
    const std::int64_t P = m_.ranks, K = m_.chunk;
    for (std::int64_t k = 0; k * K < m_.vertices; ++k) {
      const std::int64_t len = std::min(K, m_.vertices - k * K);
      out.push_back({base + (k * P * K + rank * len) * R, len * R});
    }
    return out;
  }

  /// Segmented: one contiguous run. Strided with whole chunks: an hvector of chunks P*K*R
  /// apart. Otherwise (a short last chunk) the default hindexed view over extents().
  FileView view(int rank, std::int64_t unit) const override {
    const auto ex = extents(rank, unit);
    if (m_.placement == Placement::Segmented)
      return {ex.front().offset, contiguous_bytes(ex.front().length)};
    if (m_.vertices % m_.chunk != 0)
      return Geometry::view(rank, unit);
    Datatype chunk = contiguous_bytes(m_.chunk * m_.record());
    MPI_Datatype t = MPI_DATATYPE_NULL;
    mpi_check(MPI_Type_create_hvector(static_cast<int>(ex.size()), 1,
                                      static_cast<MPI_Aint>(m_.ranks * m_.chunk * m_.record()),
                                      chunk.get(), &t),
              "MPI_Type_create_hvector");
    return {ex.front().offset, Datatype(t)};
  }

private:
  MeshLayout m_;
};

Placement parse_placement(std::string text) {
  for (auto &c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text == "segmented")
    return Placement::Segmented;
  if (text == "strided")
    return Placement::Strided;
  throw DirectiveError("Placement", "unknown Placement '" + text + "'", "use segmented or strided");
}

class UnstructuredMesh : public PatternModule {
protected:
  std::vector<PatternTest> make_tests(const ModuleContext &ctx) override {
    const auto &s = ctx.settings;
    const std::int64_t chunk = s.integer("ChunkVertices");
    const std::string placement = s.text("Placement");
    const Placement p = parse_placement(placement);
    std::vector<PatternTest> tests;
    for (const std::int64_t values : s.integers("ValuesPerVertex"))
      for (const std::int64_t vertices : s.integers("Vertices")) {
        const MeshLayout m{p, vertices, values, chunk, header_offset(), ctx.size};
        // R = (3 + V) x 8 bytes; a mesh is P x N records; unit u is mesh u after the header.
        const std::int64_t record =
            checked_mul(checked_add(values, 3, "ValuesPerVertex", "values of a vertex"),
                        kValueBytes, "ValuesPerVertex", "one vertex record");
        const std::int64_t rank_bytes =
            checked_mul(vertices, record, "Vertices", "the records of one rank");
        checked_file_end(m.header, work_units(vertices * m.record()),
                         checked_mul(rank_bytes, ctx.size, "Vertices", "one mesh"), "WorkUnits");
        PatternTest t{pattern_spec(std::to_string(vertices) + "v" + std::to_string(values),
                                   vertices * m.record()),
                      std::make_shared<MeshGeometry>(m)};
        t.spec.params["placement"] = placement;
        t.spec.params["vertices_per_rank"] = std::to_string(vertices);
        t.spec.params["values_per_vertex"] = std::to_string(values);
        t.spec.params["record_bytes"] = std::to_string(m.record());
        t.spec.params["chunk_vertices"] = std::to_string(chunk);
        t.spec.params["buffer_size_means"] = "bytes of one rank's packed vertex records";
        tests.push_back(std::move(t));
      }
    return tests;
  }
};

std::vector<DirectiveSpec> directives() {
  auto d = pattern_directives("1", "work units per test; unit u stores mesh u after the header");
  d.push_back(DirectiveSpec{"Vertices", DirectiveType::Integers, "4096",
                            "vertices per process (contiguous ranges of the mesh); one test per "
                            "entry"}
                  .at_least(1));
  d.push_back(DirectiveSpec{"ValuesPerVertex", DirectiveType::Integers, "1",
                            "doubles per vertex besides x, y, z; one test per entry"}
                  .at_least(0));
  d.push_back({"Placement",
               DirectiveType::Text,
               "segmented",
               "file layout: segmented (each rank's vertices contiguous) or strided (records "
               "interleaved round robin by rank in chunks)",
               {"segmented", "strided"}});
  d.push_back(DirectiveSpec{"ChunkVertices", DirectiveType::Integer, "1",
                            "vertices per interleaved chunk (Placement strided)"}
                  .at_least(1));
  return d;
}

ModuleInfo info() {
  ModuleInfo m("unstructured_mesh", make_module<UnstructuredMesh>);
  m.title = "Unstructured Mesh";
  m.summary = "vertex records (x, y, z and values) partitioned over ranks, segmented or strided "
              "in the file";
  m.reference = "thesis §3.4.1; §4.2.9, Fig. 4.9";
  m.directives = directives();
  return m;
}

} // namespace
} // namespace pio::patterns

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{pio::patterns::info()})
