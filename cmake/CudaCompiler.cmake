# Locate nvcc for check_language(CUDA): honour CUDACXX / CMAKE_CUDA_COMPILER, else the
# toolkit's conventional install prefix, which is not on PATH by default.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(GPUBENCH_NVCC nvcc HINTS ENV CUDA_HOME ENV CUDA_PATH PATH_SUFFIXES bin
               PATHS /usr/local/cuda/bin)
  if(GPUBENCH_NVCC)
    set(CMAKE_CUDA_COMPILER "${GPUBENCH_NVCC}" CACHE FILEPATH "CUDA compiler")
  endif()
endif()
# Turing, Ampere, Hopper, Blackwell; never "native": build machines may have no GPU. A toolkit
# builds only what it knows (CUDA 11.8 stops at sm_90, CUDA 13 starts at sm_75), so the list
# is what `nvcc --list-gpu-arch` and this one have in common.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(_gpubench_wanted 75 80 90 100)
  set(_gpubench_nvcc "${CMAKE_CUDA_COMPILER}")
  if(NOT _gpubench_nvcc AND DEFINED ENV{CUDACXX})
    set(_gpubench_nvcc "$ENV{CUDACXX}")
  endif()
  set(_gpubench_archs "${_gpubench_wanted}")
  if(_gpubench_nvcc)
    execute_process(COMMAND "${_gpubench_nvcc}" --list-gpu-arch OUTPUT_VARIABLE _gpubench_known
                    RESULT_VARIABLE _gpubench_rc ERROR_QUIET)
    if(_gpubench_rc EQUAL 0)
      set(_gpubench_archs "")
      foreach(_arch IN LISTS _gpubench_wanted)
        if(_gpubench_known MATCHES "compute_${_arch}([^0-9]|$)")
          list(APPEND _gpubench_archs ${_arch})
        endif()
      endforeach()
    endif()
  endif()
  if(_gpubench_archs)
    set(CMAKE_CUDA_ARCHITECTURES ${_gpubench_archs} CACHE STRING "CUDA architectures")
  endif()
endif()
