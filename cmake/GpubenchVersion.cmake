# The tool version and the git commit it was built from, for results and --version.
find_package(Git QUIET)
set(GPUBENCH_GIT "unknown")
if(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
                  OUTPUT_VARIABLE _git OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE _git_rc)
  if(_git_rc EQUAL 0 AND _git)
    set(GPUBENCH_GIT "${_git}")
  endif()
endif()
