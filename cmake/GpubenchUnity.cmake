# Unity builds for the asan and fuzz presets (CMAKE_UNITY_BUILD=ON in CMakePresets.json): each
# target's sources are compiled in batches, so the json/fmt templates every file instantiates
# are compiled once per batch instead of once per file (a third of the CPU time of file by file).
# The default, ci and debug presets build file by file: the ci preset is the build CI tests and
# the README's main command reuses, so a source that compiles only beside others fails there.
# Files that cannot share a batch stay out of it: internal-linkage names that clash with a
# neighbour's ("redefinition of ... {anonymous}::name"), or a class with a member of an
# anonymous-namespace type (-Wsubobject-linkage fires once the file is #included). When a new
# file fails only in the asan preset like that, add it below.

# gpubench_unity_exclude(target file...): compile these sources of target on their own.
function(gpubench_unity_exclude target)
  if(NOT TARGET ${target})
    return()
  endif()
  list(TRANSFORM ARGN PREPEND "${PROJECT_SOURCE_DIR}/" OUTPUT_VARIABLE files)
  set_source_files_properties(${files} TARGET_DIRECTORY ${target}
    PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()

function(gpubench_unity_exclusions)
  gpubench_unity_exclude(gpubench_tcp transports/tcp/tcp_passive.cpp)  # min_recv_buffer
  gpubench_unity_exclude(gpubench_reports reports/render/markdown_writer.cpp)  # write_table
  gpubench_unity_exclude(unit_tests tests/unit/compare_references_test.cpp)  # golden
  gpubench_unity_exclude(gpubench_gpu_backend benchmarks/gpu/cuda/nvml.cpp)  # subobject-linkage
  gpubench_unity_exclude(gpubench_gpu_backend_standin benchmarks/gpu/cuda/nvml.cpp)  # the same
endfunction()
