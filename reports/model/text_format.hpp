// How numbers, sizes and parameters are written in every report format: core's, which the
// cluster verdict (cluster/) writes its evidence with too, so the two read alike.
#pragma once

#include "core/text_format.hpp"

namespace gpubench::reports::model {

using core::format_ratio;
using core::format_size;
using core::format_value;
using core::param_text;
using core::params_text;

}  // namespace gpubench::reports::model
