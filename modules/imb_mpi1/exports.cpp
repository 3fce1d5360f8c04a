// The IMB-MPI1 family's shared object: the 17 kernels of the IMB 3.2 User Guide §3.2, each a
// module named imb_<kernel> with IMB's name as its title.
#include "imb_module.hpp"
#include "mpi1_kernels.hpp"

namespace {

template <std::unique_ptr<imb::Kernel> (*Make)()> pio::ModuleInfo info() {
  return imb::module_info(Make, imb::create<Make>);
}

} // namespace

PIO_EXPORT_MODULES(std::vector<pio::ModuleInfo>{
    info<imb::make_pingpong>(), info<imb::make_pingping>(), info<imb::make_sendrecv>(),
    info<imb::make_exchange>(), info<imb::make_bcast>(), info<imb::make_allgather>(),
    info<imb::make_allgatherv>(), info<imb::make_scatter>(), info<imb::make_scatterv>(),
    info<imb::make_gather>(), info<imb::make_gatherv>(), info<imb::make_alltoall>(),
    info<imb::make_alltoallv>(), info<imb::make_reduce>(), info<imb::make_reduce_scatter>(),
    info<imb::make_allreduce>(), info<imb::make_barrier>()})
