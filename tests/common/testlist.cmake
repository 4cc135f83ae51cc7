# vxgbp_test_list(PREFIX LIST COMMAND program [args...]
#                 [RUN_IN dir] [EXPECTED dir] [BUILD_DIR dir]
#                 [STDIN] [STDERR] [EXIT_LINE] [PROPERTIES name value...])
#
# One ctest "<PREFIX>.<name>" per case of LIST (the dialect of
# tests/README.md), each run by tests/common/testlist.sh, which also reads
# the names out of the list: the one parser of the dialect.
#   COMMAND    the list's program and its first arguments
#   RUN_IN     where it runs and the captures are (default: fixtures/)
#   EXPECTED   the expected outputs (default: LIST's folder/expected)
#   BUILD_DIR  @captures, NEW/ and DIFF/ (default: this build folder)
#   STDIN      the capture on standard input, not as -r CAPTURE
#   STDERR     standard error is part of the output
#   EXIT_LINE  a non-zero exit status is also a last line "EXIT n"
#   PROPERTIES more test properties (LABELS, FIXTURES_REQUIRED, ...)
function(vxgbp_test_list prefix list)
  cmake_parse_arguments(PARSE_ARGV 2 A "STDIN;STDERR;EXIT_LINE"
                        "RUN_IN;EXPECTED;BUILD_DIR" "COMMAND;PROPERTIES")
  set(_runner ${PROJECT_SOURCE_DIR}/tests/common/testlist.sh)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list} ${_runner})
  execute_process(COMMAND sh ${_runner} -l ${list} RESULT_VARIABLE _rc
                  OUTPUT_VARIABLE _names ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0 OR NOT A_COMMAND)
    message(FATAL_ERROR "vxgbp_test_list(${prefix}): ${_err}")
  endif()
  if(NOT A_RUN_IN)
    set(A_RUN_IN ${PROJECT_SOURCE_DIR}/fixtures)
  endif()
  if(NOT A_BUILD_DIR)
    set(A_BUILD_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  set(_opts -t ${prefix} -C ${A_RUN_IN} -b ${A_BUILD_DIR})
  if(A_EXPECTED)
    list(APPEND _opts -e ${A_EXPECTED})
  endif()
  if(A_STDIN)
    list(APPEND _opts -i)
  endif()
  if(A_STDERR)
    list(APPEND _opts -2)
  endif()
  if(A_EXIT_LINE)
    list(APPEND _opts -x)
  endif()
  string(REGEX REPLACE "\n$" "" _names "${_names}")
  string(REPLACE "\n" ";" _names "${_names}")
  foreach(_name IN LISTS _names)
    add_test(NAME ${prefix}.${_name}
             COMMAND sh ${_runner} ${_opts} ${list} ${_name} -- ${A_COMMAND})
    set_tests_properties(${prefix}.${_name} PROPERTIES TIMEOUT 60 ${A_PROPERTIES})
  endforeach()
endfunction()
