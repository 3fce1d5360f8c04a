#pragma once
/// Everything a module author includes.
#include "pio/abi.hpp"
#include "pio/context.hpp"
#include "pio/directive.hpp"
#include "pio/error.hpp"
#include "pio/handle.hpp"
#include "pio/module.hpp"
#include "pio/mpi_handles.hpp"
#include "pio/results.hpp"
#include "pio/spec.hpp"
#include "pio/stamp.hpp"
#include "pio/tree_rule.hpp"
#include "pio/version.hpp"
