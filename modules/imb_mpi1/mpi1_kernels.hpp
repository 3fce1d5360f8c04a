#pragma once
/// The 17 IMB-MPI1 kernels (IMB 3.2 User Guide §3.2, §3.3), run by the IMB core's ImbModule.

#include <memory>

#include "kernel.hpp"

namespace imb {

/// The 17 kernels, in the order of §3.2.
std::unique_ptr<Kernel> make_pingpong();
std::unique_ptr<Kernel> make_pingping();
std::unique_ptr<Kernel> make_sendrecv();
std::unique_ptr<Kernel> make_exchange();
std::unique_ptr<Kernel> make_bcast();
std::unique_ptr<Kernel> make_allgather();
std::unique_ptr<Kernel> make_allgatherv();
std::unique_ptr<Kernel> make_scatter();
std::unique_ptr<Kernel> make_scatterv();
std::unique_ptr<Kernel> make_gather();
std::unique_ptr<Kernel> make_gatherv();
std::unique_ptr<Kernel> make_alltoall();
std::unique_ptr<Kernel> make_alltoallv();
std::unique_ptr<Kernel> make_reduce();
std::unique_ptr<Kernel> make_reduce_scatter();
std::unique_ptr<Kernel> make_allreduce();
std::unique_ptr<Kernel> make_barrier();

} // namespace imb
