# Precompiled headers for the heavy third-party headers (nlohmann/json, fmt) that nearly every
# translation unit includes through core/: parsing them was a large share of each compile.
# One PCH is built on gpubench_core and reused by the targets whose compile flags match it
# (REUSE_FROM); GCC's -Winvalid-pch, which CMake adds, reports a mismatch, and
# GPUBENCH_WERROR makes that an error rather than a silently slower build. Headers are
# listed for C++ only: nvcc must never be handed a GCC PCH.
# -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON builds without them (checks include hygiene).
set(GPUBENCH_PCH_HEADERS <nlohmann/json.hpp> <fmt/format.h> <algorithm> <chrono> <filesystem>
    <functional> <map> <memory> <optional> <stdexcept> <string> <vector>)

function(_gpubench_pch_cxx out)
  set(list "")
  foreach(h IN LISTS ARGN)
    list(APPEND list "$<$<COMPILE_LANGUAGE:CXX>:${h}>")
  endforeach()
  set(${out} "${list}" PARENT_SCOPE)
endfunction()

# gpubench_pch_reuse(target...): gpubench_core's PCH for these targets (missing ones ignored).
function(gpubench_pch_reuse)
  get_target_property(core_pch gpubench_core PRECOMPILE_HEADERS)
  if(NOT core_pch)
    _gpubench_pch_cxx(headers ${GPUBENCH_PCH_HEADERS})
    target_precompile_headers(gpubench_core PRIVATE ${headers})
  endif()
  foreach(t IN LISTS ARGN)
    if(TARGET ${t})
      target_precompile_headers(${t} REUSE_FROM gpubench_core)
    endif()
  endforeach()
endfunction()

# gpubench_pch_own(target header...): a PCH of its own (its definitions differ from
# gpubench_core's) with the common headers plus the given ones.
function(gpubench_pch_own target)
  if(TARGET ${target})
    _gpubench_pch_cxx(headers ${GPUBENCH_PCH_HEADERS} ${ARGN})
    target_precompile_headers(${target} PRIVATE ${headers})
  endif()
endfunction()
