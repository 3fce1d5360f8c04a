/* Preloaded into the ranks of a test that has more ranks than the machine has cores
 * (tests/CMakeLists.txt, pio_rank_env): MPICH's ch4:ucx device polls UCX in every wait and never
 * gives up the core (MPIR_CVAR_POLLS_BEFORE_YIELD is ch3's), so a waiting rank spends the time
 * slice the rank it waits for needs, and every collective waits for the scheduler. This wraps
 * UCX's progress call: after 16 polls in a row that found nothing, the rank yields its core.
 * What the ranks compute is unchanged; only when a waiting rank runs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>

typedef struct ucp_worker *ucp_worker_h;

unsigned ucp_worker_progress(ucp_worker_h worker);

unsigned ucp_worker_progress(ucp_worker_h worker) {
  static unsigned (*real)(ucp_worker_h);
  static unsigned idle;
  if (!real)
    real = (unsigned (*)(ucp_worker_h))dlsym(RTLD_NEXT, "ucp_worker_progress");
  const unsigned events = real(worker);
  if (events == 0 && ++idle % 16 == 0)
    sched_yield();
  return events;
}
