# Fails when a layer includes what its CMake target must not see:
#   src/engine: no GUI (imgui, GLFW, GL), no JSON (nlohmann), no header of a layer above it (data,
#     view, session, classroom, server, app, cli) nor of the CUDA backend.
#   src/data, src/view: no GUI.
#   src/session: no GUI and no app header (the classroom rules without a window).
#   src/classroom, src/server: no GUI and no app header (the live class runs without a window).
#   src/cli: no GUI and no app header (the CLI runs without a window).
#   src/cuda: no GUI and no header of view, session, app or cli (the view reads its plain types).
# Each line it fails on names the file, the include and the rule.
# Run as: cmake -DSRC=<src dir> -P check_includes.cmake
set(bad "")
function(check dir regex what)
  file(GLOB_RECURSE files "${SRC}/${dir}/*.h" "${SRC}/${dir}/*.cpp" "${SRC}/${dir}/*.hpp" "${SRC}/${dir}/*.cu" "${SRC}/${dir}/*.cuh" "${SRC}/${dir}/*.inc")
  foreach(f IN LISTS files)
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${regex})")
    foreach(l IN LISTS lines)
      set(bad "${bad}\n  ${f}: ${l}   (${what})" PARENT_SCOPE)
    endforeach()
  endforeach()
endfunction()
check(engine "imgui|GLFW|GL/|backends/|nlohmann|data/|view/|session/|classroom/|server/|app/|cli/|cuda/" "the engine links Eigen and Boost.Multiprecision only")
check(data "imgui|GLFW|GL/|backends/|view/|app/" "the data layer has no GUI")
check(view "imgui|GLFW|GL/|backends/|app/|session/" "the view computes geometry as data; the app paints it")
check(session "imgui|GLFW|GL/|backends/|app/" "the classroom rules run without a window (the app, the web edition and the tests drive them)")
check(classroom "imgui|GLFW|GL/|backends/|app/" "the live class's protocol and rules run without a window")
check(server "imgui|GLFW|GL/|backends/|app/" "the class server runs on its own thread, without a window")
check(cli "imgui|GLFW|GL/|backends/|app/" "the CLI runs without a window")
check(cuda "imgui|GLFW|GL/|backends/|app/|view/|session/|cli/" "the CUDA backend has no GUI; the view reads its plain types, not the reverse")
if(bad)
  message(FATAL_ERROR "Layer boundary crossed:${bad}")
endif()
message(STATUS "layering: engine, data, view, session, classroom, server, cli and cuda include only what their targets allow")
