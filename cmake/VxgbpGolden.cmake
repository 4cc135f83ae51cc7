# vxgbp_golden_list(PREFIX LIST EXPECTED_DIR LABELS)
#
# One ctest case "<PREFIX>.<name>" per line of a tcpdump-style list file
#   name  capture  expected-output  options...
# run by tests/golden/run-one.sh (gbpdump -r fixtures/<capture> <options>,
# compared with EXPECTED_DIR/<expected-output>; NEW/ and DIFF/ on a
# mismatch in the calling folder's build directory).
function(vxgbp_golden_list prefix list expdir labels)
  file(STRINGS ${list} _lines)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${list})
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^[ \t]*(#|$)")
      continue()
    endif()
    if(NOT _line MATCHES "^([^ \t]+)[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]*(.*)$")
      message(FATAL_ERROR "${list}: cannot parse: ${_line}")
    endif()
    add_test(NAME ${prefix}.${CMAKE_MATCH_1}
             COMMAND sh ${PROJECT_SOURCE_DIR}/tests/golden/run-one.sh
                     $<TARGET_FILE:gbpdump> ${PROJECT_SOURCE_DIR}/fixtures ${expdir}
                     ${CMAKE_CURRENT_BINARY_DIR} ${CMAKE_MATCH_1} ${CMAKE_MATCH_2}
                     ${CMAKE_MATCH_3} "${CMAKE_MATCH_4}")
    set_tests_properties(${prefix}.${CMAKE_MATCH_1} PROPERTIES LABELS "${labels}" TIMEOUT 60)
  endforeach()
endfunction()
