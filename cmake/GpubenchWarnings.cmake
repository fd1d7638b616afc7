# One interface target carries the project's warning flags.
add_library(gpubench_warnings INTERFACE)
target_compile_options(gpubench_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${GPUBENCH_WERROR}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${GPUBENCH_WERROR}>>:-Werror=all-warnings>)
