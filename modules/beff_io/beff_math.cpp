// The MPI-free definitions of b_eff_io: Table 2, M_PART and the averaging rules (b_eff_io
// paper §5.1, Table 2; Euro-Par b_eff_io paper §4).
#include "beff_math.hpp"

#include <algorithm>
#include <cmath>

namespace pio::beff_io {

const char *definition_name(Definition d) {
  return d == Definition::Original ? "original" : "paper";
}

const char *method_name(Method m) {
  switch (m) {
  case Method::Write:
    return "write";
  case Method::Rewrite:
    return "rewrite";
  case Method::Read:
    return "read";
  }
  return "?";
}

const std::vector<Method> &all_methods() {
  static const std::vector<Method> methods = {Method::Write, Method::Rewrite, Method::Read};
  return methods;
}

namespace {

Pattern row(int number, int type, std::int64_t l, std::int64_t L, int U, std::string chunk,
            bool well_formed = true) {
  Pattern p;
  p.number = number;
  p.type = type;
  p.l = l;
  p.L = L;
  p.U = U;
  p.chunk = std::move(chunk);
  p.well_formed = well_formed;
  return p;
}

} // namespace

std::vector<Pattern> table2(std::int64_t mpart) {
  const std::int64_t K = kKiB, M = kMiB;
  std::vector<Pattern> t;
  // Type 0: strided collective, L bytes of memory scattered to chunks of l on disk per call.
  t.push_back(row(0, 0, M, M, 0, "1M"));
  t.push_back(row(1, 0, mpart, mpart, 4, "MPART"));
  t.push_back(row(2, 0, M, 2 * M, 4, "1M"));
  t.push_back(row(3, 0, M, M, 4, "1M"));
  t.push_back(row(4, 0, 32 * K, M, 2, "32K"));
  t.push_back(row(5, 0, K, M, 2, "1K"));
  t.push_back(row(6, 0, 32 * K + 8, M + 256, 2, "32K+8", false));
  t.push_back(row(7, 0, K + 8, M + 8 * K, 2, "1K+8", false));
  t.push_back(row(8, 0, M + 8, M + 8, 2, "1M+8", false));
  // Type 1: strided collective with shared file pointers, one call per chunk (L := l).
  const struct {
    std::int64_t l;
    int U;
    const char *chunk;
    bool wf;
  } t1[] = {{M, 0, "1M", true},        {mpart, 4, "MPART", true}, {M, 2, "1M", true},
            {32 * K, 1, "32K", true},  {K, 1, "1K", true},        {32 * K + 8, 1, "32K+8", false},
            {K + 8, 1, "1K+8", false}, {M + 8, 2, "1M+8", false}};
  int n = 9;
  for (const auto &r : t1)
    t.push_back(row(n++, 1, r.l, r.l, r.U, r.chunk, r.wf));
  // Type 2: separate files, non-collective (L := l).
  const struct {
    std::int64_t l;
    int U;
    const char *chunk;
    bool wf;
  } t2[] = {{M, 0, "1M", true},        {mpart, 2, "MPART", true}, {M, 2, "1M", true},
            {32 * K, 1, "32K", true},  {K, 1, "1K", true},        {32 * K + 8, 1, "32K+8", false},
            {K + 8, 1, "1K+8", false}, {M + 8, 2, "1M+8", false}};
  for (const auto &r : t2)
    t.push_back(row(n++, 2, r.l, r.l, r.U, r.chunk, r.wf));
  // Types 3 and 4: as patterns 17-24 on segments of one file, then "fill up segments".
  for (int type = 3; type <= 4; ++type) {
    for (const auto &r : t2)
      t.push_back(row(n++, type, r.l, r.l, r.U, r.chunk, r.wf));
    Pattern fill = row(n++, type, 0, 0, 0, "fill");
    fill.fill = true;
    t.push_back(fill);
  }
  return t;
}

std::int64_t mpart_for(std::int64_t memory_per_process) {
  return std::max<std::int64_t>(2 * kMiB, memory_per_process / 128);
}

double type_weight(int type) { return type == 0 ? 2.0 : 1.0; }

double method_beff(const std::map<int, double> &bandwidth_by_type) {
  double sum = 0, weights = 0;
  for (const auto &[type, bw] : bandwidth_by_type) {
    sum += type_weight(type) * bw;
    weights += type_weight(type);
  }
  return weights > 0 ? sum / weights : 0.0;
}

double partition_beff(double write, double rewrite, double read) {
  return 0.25 * write + 0.25 * rewrite + 0.5 * read;
}

double original_write_rewrite(const std::map<int, double> &write_by_type,
                              const double *rewrite_type0) {
  // b_eff_io 2.1 adds every write type once (type 0 is not doubled here) and the type 0
  // rewrite, then divides by PAT_TYPES + 1.
  double sum = 0;
  int count = 0;
  for (const auto &[type, bw] : write_by_type) {
    sum += bw;
    ++count;
  }
  if (rewrite_type0) {
    sum += *rewrite_type0;
    ++count;
  }
  return count > 0 ? sum / count : 0.0;
}

double original_partition_beff(double write_rewrite, double read) {
  return write_rewrite > 0 && read > 0 ? std::sqrt(write_rewrite * read) : 0.0;
}

std::string phase_label(Method m, const Pattern &p, bool sync) {
  return std::string(method_name(m)) + " " + std::to_string(p.number) + " " +
         (sync ? std::string("sync") : p.chunk);
}

} // namespace pio::beff_io
