# Locate nvcc for check_language(CUDA): honour CUDACXX / CMAKE_CUDA_COMPILER, else the
# toolkit's conventional install prefix, which is not on PATH by default.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(GPUBENCH_NVCC nvcc HINTS ENV CUDA_HOME ENV CUDA_PATH PATH_SUFFIXES bin
               PATHS /usr/local/cuda/bin)
  if(GPUBENCH_NVCC)
    set(CMAKE_CUDA_COMPILER "${GPUBENCH_NVCC}" CACHE FILEPATH "CUDA compiler")
  endif()
endif()
# nvcc 13 builds sm_75 and newer; never "native": build machines may have no GPU.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 75 80 90 100 CACHE STRING "CUDA architectures")
endif()
