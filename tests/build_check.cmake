# Builds one target of this build tree and checks the outcome; run by CTest as
#   cmake -DBUILD_DIR=... -DTARGET=... -DMODE=fail|succeed [-DEXPECT=text]
#         [-DOUTPUTS=files] [-DCONFIG=...] -P build_check.cmake
# MODE=fail: the build must fail AND the compiler's diagnostics must contain
# EXPECT (the static_assert text), so that a failure for any other reason (a
# missing header, a typo) does not count as a pass.
# MODE=succeed: the build must succeed.
# The targets are EXCLUDE_FROM_ALL, so a normal build never touches them, and
# they are compiled with exactly the flags of every other amp_compat user
# (including the CUDA flags of a GPU build).
foreach(v BUILD_DIR TARGET MODE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "build_check.cmake: ${v} is not set")
  endif()
endforeach()
# Remove what an earlier successful build left (OUTPUTS: the target's object
# files or executable), so that the check never passes on a stale up-to-date
# result.
if(OUTPUTS)
  file(REMOVE ${OUTPUTS})
endif()
set(cmd ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET})
if(CONFIG)
  list(APPEND cmd --config ${CONFIG})
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# Make passes the compiler's stderr through; Ninja prints it on stdout.
set(log "${err}\n${out}")
if(MODE STREQUAL "fail")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${TARGET} compiled, but must be rejected with \"${EXPECT}\".\n${log}")
  endif()
  string(FIND "${log}" "${EXPECT}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${TARGET} failed to build, but without the expected diagnostic \"${EXPECT}\":\n${log}")
  endif()
  message(STATUS "${TARGET} is rejected with \"${EXPECT}\", as required")
elseif(MODE STREQUAL "succeed")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${TARGET} must build, but does not:\n${log}")
  endif()
  message(STATUS "${TARGET} builds, as required")
else()
  message(FATAL_ERROR "build_check.cmake: MODE must be fail or succeed, not ${MODE}")
endif()
