# nccl.h alone, beside the stand-in's CUDA headers: the directory NCCL ships in also holds the
# real CUDA headers, which must not be found before the stand-in's.
set(standin_nccl_include "${CMAKE_CURRENT_BINARY_DIR}/nccl_include")
file(MAKE_DIRECTORY "${standin_nccl_include}")
file(CREATE_LINK "${NCCL_INCLUDE_DIR}/nccl.h" "${standin_nccl_include}/nccl.h" SYMBOLIC)

# The stand-in NCCL: loaded through GPUBENCH_NCCL_LIBRARY by dlopen, as libnccl.so.2 is. Its
# CUDA calls resolve to the stand-in runtime of the program that loads it.
add_library(gpubench_standin_nccl MODULE
  nccl/debug_log.cpp nccl/faults.cpp nccl/nccl_api.cpp nccl/operation.cpp nccl/shared_comm.cpp)
target_include_directories(gpubench_standin_nccl BEFORE PRIVATE
  "${CMAKE_CURRENT_SOURCE_DIR}/include" "${standin_nccl_include}")
set_target_properties(gpubench_standin_nccl PROPERTIES CXX_VISIBILITY_PRESET hidden)
target_link_libraries(gpubench_standin_nccl PRIVATE Threads::Threads gpubench_warnings)

# gpubench's NCCL runtime and RDMA GPU memory, the shipped sources unchanged, on the stand-in.
set(nccl_dir "${PROJECT_SOURCE_DIR}/transports/nccl")
add_library(gpubench_nccl_standin STATIC "${nccl_dir}/cuda_resources.cpp"
  "${nccl_dir}/nccl_backend.cpp" "${nccl_dir}/nccl_library.cpp" "${nccl_dir}/nccl_runtime.cpp")
target_include_directories(gpubench_nccl_standin BEFORE PRIVATE "${standin_nccl_include}")
target_link_libraries(gpubench_nccl_standin PUBLIC gpubench_coll_transport gpubench_standin
  ${CMAKE_DL_LIBS} PRIVATE gpubench_warnings)
add_library(gpubench_rdma_cuda_standin STATIC
  "${PROJECT_SOURCE_DIR}/transports/rdma/cuda_memory.cpp")
target_link_libraries(gpubench_rdma_cuda_standin PUBLIC gpubench_standin
  PRIVATE gpubench_rdma_logic IBVerbs::ibverbs gpubench_warnings)

# gpubench itself on the stand-in: the CLI's objects with the stand-in's device parts. Its
# symbols are exported: the stand-in NCCL calls the stand-in CUDA runtime in it.
add_executable(standin_gpubench)
target_link_libraries(standin_gpubench PRIVATE gpubench_cli)
set_target_properties(standin_gpubench PROPERTIES ENABLE_EXPORTS ON GPUBENCH_DEVICE_BACKENDS
  "gpubench_gpu_backend_standin;gpubench_nccl_standin;gpubench_rdma_cuda_standin")
add_dependencies(standin_gpubench gpubench_standin_nccl)

# RDMA's GPU memory on the stand-in, in the stand-in's test binary.
target_sources(standin_tests PRIVATE rdma_cuda_memory_test.cpp)
target_link_libraries(standin_tests PRIVATE gpubench_rdma_cuda_standin)

# Every coll.* case with backend nccl through standin_gpubench under mpirun (seconds each).
foreach(check ranks2 ranks4 local visible_one visible_share exclusive deadline never_join
    async_error corrupt)
  add_test(NAME standin.nccl.${check}
    COMMAND "${CMAKE_CURRENT_SOURCE_DIR}/nccl_standin_test.sh" $<TARGET_FILE:standin_gpubench>
      $<TARGET_FILE:gpubench_standin_nccl> ${check})
  set_tests_properties(standin.nccl.${check} PROPERTIES LABELS "standin;nccl" TIMEOUT 180
    SKIP_RETURN_CODE 77)
endforeach()

# The shipped gpubench contains none of the stand-in (and the check can see it where it is).
add_test(NAME standin.release_symbols
  COMMAND "${CMAKE_CURRENT_SOURCE_DIR}/release_symbols_test.sh" $<TARGET_FILE:gpubench>
    $<TARGET_FILE:standin_gpubench> $<TARGET_FILE:gpubench_standin_nccl>)
set_tests_properties(standin.release_symbols PROPERTIES LABELS standin SKIP_RETURN_CODE 77)
