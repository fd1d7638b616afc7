// The one list of point-to-point transports this build has: `gpubench serve` and cluster mode's
// pair servers host every entry of it. Adding a transport is its folder and one line in
// transport_list.cpp.
#pragma once

#include "transports/transport.hpp"

namespace gpubench::transports {

// Every point-to-point transport of this build by name, also those this host cannot use (their
// entry says why in `unavailable`, so a client asking for one is told the reason).
transport_table all_transports();

}  // namespace gpubench::transports
