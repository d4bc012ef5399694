# Moves the training run's counts (CMakeLists.txt, TEXTEDGE_PGO) to where -fprofile-use looks for
# them: each object's .gcda beside the library's object of the same source.
# -DCOUNTS: the run's GCOV_PREFIX; -DFROM: the instrumented objects' folder name; -DTO: the
# library's objects' folder.
file(GLOB_RECURSE counts "${COUNTS}/*.gcda")
set(moved 0)
foreach(count ${counts})
  string(FIND "${count}" "/${FROM}/" at)
  if(at EQUAL -1)
    continue()
  endif()
  string(LENGTH "/${FROM}/" skip)
  math(EXPR at "${at} + ${skip}")
  string(SUBSTRING "${count}" ${at} -1 relative)
  get_filename_component(folder "${TO}/${relative}" DIRECTORY)
  file(MAKE_DIRECTORY "${folder}")
  file(COPY_FILE "${count}" "${TO}/${relative}")
  math(EXPR moved "${moved} + 1")
endforeach()
if(moved EQUAL 0)
  message(FATAL_ERROR "pgo_counts: the training run wrote no counts under ${COUNTS}")
endif()
