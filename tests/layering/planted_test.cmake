# The layering check can fail (issue 35's acceptance): in a copy of src/, plant one forbidden include
# at a time — ImGui in session, an app header in view, a CUDA header in engine, and one each in cli
# and cuda — and expect check_includes.cmake to fail with a line that names the planted file and its
# include. The untouched copy must pass first (else a failure would prove nothing). The real tree is
# never edited.
# Run as: cmake -DSRC=<src dir> -DWORK=<scratch dir> -DCHECK=<check_includes.cmake> -P planted_test.cmake
set(copy "${WORK}/src")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(COPY "${SRC}/" DESTINATION "${copy}")

function(run_check out_rc out_text)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DSRC=${copy}" -P "${CHECK}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_rc} "${rc}" PARENT_SCOPE)
  set(${out_text} "${out}${err}" PARENT_SCOPE)
endfunction()

run_check(rc text)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the unplanted copy of src/ does not pass the layering check:\n${text}")
endif()

set(failures "")
# layer | planted file | include line
foreach(plant IN ITEMS
    "session|session/planted_layering.cpp|#include <imgui.h>"
    "view|view/planted_layering.h|#include \"app/painter.h\""
    "engine|engine/planted_layering.cpp|#include \"cuda/gpu_types.h\""
    "cli|cli/planted_layering.cpp|#include <GLFW/glfw3.h>"
    "cuda|cuda/planted_layering.cu|#include \"view/scene.h\"")
  string(REPLACE "|" ";" parts "${plant}")
  list(GET parts 0 layer)
  list(GET parts 1 rel)
  list(GET parts 2 line)
  file(WRITE "${copy}/${rel}" "// planted by tests/layering/planted_test.cmake\n${line}\n")
  run_check(rc text)
  file(REMOVE "${copy}/${rel}")
  string(FIND "${text}" "${copy}/${rel}: ${line}" at)
  if(rc EQUAL 0)
    string(APPEND failures "\n  ${layer}: the check passed with ${rel} including ${line}")
  elseif(at EQUAL -1)
    string(APPEND failures "\n  ${layer}: the check failed, but its message does not name ${rel} and ${line}:\n${text}")
  else()
    message(STATUS "planted in ${layer}: ${line} -> refused, naming ${rel}")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
if(failures)
  message(FATAL_ERROR "The layering check let a planted include through:${failures}")
endif()
