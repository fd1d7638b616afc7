// The stand-in NCCL's debug output, where NCCL writes its own: NCCL_DEBUG_FILE (else stderr
// when NCCL_DEBUG is set), in NCCL's line format ("host:pid:tid [dev] NCCL WARN ..."), so
// gpubench reads the stand-in's WARN lines as it reads NCCL's.
#pragma once

#include <string>

namespace gpubench::tests::standin::nccl {

void log_warn(int device, const std::string& text);
void log_info(int device, const std::string& text);

}  // namespace gpubench::tests::standin::nccl
