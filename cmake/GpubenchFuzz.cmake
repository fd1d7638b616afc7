# GPUBENCH_FUZZ (preset fuzz): every C++ file is built with libFuzzer's coverage and
# AddressSanitizer + UBSan, so the libraries the fuzz targets in tests/fuzz link are
# instrumented too; the targets themselves add libFuzzer's main (-fsanitize=fuzzer).
option(GPUBENCH_FUZZ "Build the libFuzzer targets of tests/fuzz (needs clang)" OFF)

if(GPUBENCH_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GPUBENCH_FUZZ needs clang (libFuzzer), not ${CMAKE_CXX_COMPILER_ID}: "
                        "use the fuzz preset (Debian: apt install clang libclang-rt-dev)")
  endif()
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link,address,undefined>"
    "$<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=all;-fno-omit-frame-pointer>")
  add_link_options(-fsanitize=address,undefined)
  gpubench_note("fuzzing" "yes" "libFuzzer targets of tests/fuzz (scripts/fuzz.sh)")
endif()
