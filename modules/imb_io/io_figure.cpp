// The IMB 3.2 User Guide's overlap table of the non-blocking IO benchmarks (§4.2.5.2): t_ovrl,
// t_pure, t_CPU and the overlap per I/O size.
#include "io_module.hpp"

namespace imb::io {

std::pair<double, double> IoModule::pure_and_cpu(int test_index) const {
  auto it = pure_cpu_.find(test_index);
  return it == pure_cpu_.end() ? std::pair<double, double>{0, 0} : it->second;
}

std::optional<pio::Figure> IoModule::figure(const pio::ModuleResult &results) {
  if (!b_.nonblocking)
    return std::nullopt;
  // §4.2.5.2: t_ovrl, t_pure, t_CPU and the overlap (*) per I/O size; the Mflop/s of t_CPU.
  pio::Figure f;
  f.name = b_.name + " overlap";
  f.values.push_back({"cpu_exploit", cpu_.mflops(), "Mflop/s"});
  pio::FigureTable t{
      "overlap",
      {"#bytes", "#repetitions", "t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]"},
      {}};
  for (const auto &test : results.tests) {
    if (!test.summary.op)
      continue;
    const auto [pure, cpu] = pure_and_cpu(test.index);
    const double ovrl = test.summary.op->t_max_us * 1e-6;
    t.rows.push_back({test.buffer_size, test.comm ? test.comm->ops_per_unit : 0, ovrl * 1e6,
                      pure * 1e6, cpu * 1e6, 100.0 * overlap(pure, cpu, ovrl)});
  }
  f.tables.push_back(std::move(t));
  f.notes.push_back("overlap = (t_pure + t_CPU - t_ovrl) / min(t_pure, t_CPU) (IMB 3.2 User "
                    "Guide §4.2.5.2); t_pure is the blocking sample just before, t_CPU the "
                    "exploit alone");
  return f;
}

} // namespace imb::io
