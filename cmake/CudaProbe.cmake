# Tries the CUDA compiler with its host compiler before CMake enables CUDA, and says why when
# they do not work together. Each CUDA release accepts host compilers only up to a version
# (CUDA 11.8: GCC 11; Debian 12's default is GCC 12): without this, a toolkit named with
# CUDACXX made check_language fail quietly ("no CUDA compiler") and one named with CUDA_HOME
# stopped configure inside CMake's compiler test, neither naming the host compiler.
#
# gpubench_probe_cuda(<out-var>): empty when `nvcc` (CMAKE_CUDA_COMPILER, else $CUDACXX)
# compiles and links a test program with the host compiler CMake will give it
# (CMAKE_CUDA_HOST_COMPILER, else $CUDAHOSTCXX, else nvcc's own default), or when there is
# no nvcc to try; otherwise the reason, naming both compilers and how to pick another.
function(gpubench_probe_cuda out)
  set(${out} "" PARENT_SCOPE)
  set(nvcc "${CMAKE_CUDA_COMPILER}")
  if(NOT nvcc AND DEFINED ENV{CUDACXX})
    set(nvcc "$ENV{CUDACXX}")
  endif()
  if(NOT nvcc)
    return()
  endif()
  set(host "${CMAKE_CUDA_HOST_COMPILER}")
  if(NOT host AND DEFINED ENV{CUDAHOSTCXX})
    set(host "$ENV{CUDAHOSTCXX}")
  endif()
  # A pair that worked once is not tried again on every configure.
  if(GPUBENCH_CUDA_PROBED STREQUAL "${nvcc}|${host}")
    return()
  endif()
  set(dir "${CMAKE_BINARY_DIR}/CMakeFiles/gpubench_cuda_probe")
  file(MAKE_DIRECTORY "${dir}")
  file(WRITE "${dir}/probe.cu" "__global__ void k() {}\nint main() { k<<<1, 1>>>(); return 0; }\n")
  set(args "${dir}/probe.cu" -o "${dir}/probe")
  if(host)
    list(PREPEND args -ccbin "${host}")
  endif()
  execute_process(COMMAND "${nvcc}" ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE log
                  ERROR_VARIABLE log)
  if(rc EQUAL 0)
    set(GPUBENCH_CUDA_PROBED "${nvcc}|${host}" CACHE INTERNAL "nvcc and host compiler that work")
    return()
  endif()
  execute_process(COMMAND "${nvcc}" --version OUTPUT_VARIABLE ver ERROR_QUIET)
  set(release "")
  if(ver MATCHES "release ([0-9]+\\.[0-9]+)")
    set(release " ${CMAKE_MATCH_1}")
  endif()
  # nvcc's first complaint ("unsupported GNU version! gcc versions later than 11 are not
  # supported!", "No supported gcc/g++ host compiler found"), else the first line.
  set(first "")
  string(REPLACE "\n" ";" lines "${log}")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line MATCHES "[Ee][Rr][Rr][Oo][Rr]|unsupported")
      set(first "${line}")
      break()
    endif()
    if(NOT first AND line)
      set(first "${line}")
    endif()
  endforeach()
  string(REGEX REPLACE "^.*: error: " "" first "${first}")  # the header's path and line
  string(REPLACE ";" "," first "${first}")  # the configure summary is a list
  if(host)
    set(which "the host compiler ${host}")
  else()
    set(which "its default host compiler (gcc/g++ on PATH)")
  endif()
  set(${out}
      "nvcc${release} (${nvcc}) cannot build a test program with ${which}: ${first}. Every CUDA release accepts host compilers up to a version (CUDA 11.8: GCC 11): pick one it accepts with CUDAHOSTCXX=/usr/bin/g++-11 (or -DCMAKE_CUDA_HOST_COMPILER=...) and configure again"
      PARENT_SCOPE)
endfunction()
