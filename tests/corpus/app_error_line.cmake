# Opens a bad corpus FILE in the real app (under its own Xvfb, as a drop would: --open-after) and
# checks the error the app shows — the dumped scene's "error" — is the one line
# "FILE: EXPECTED_PATH: …", and that the app keeps the lesson it had (a step is still shown).
set(png "${OUT_DIR}/${NAME}.png")
set(json "${OUT_DIR}/${NAME}.json")
file(REMOVE "${json}")
execute_process(COMMAND xvfb-run -a -s "-screen 0 1024x700x24" "${APP}" --width 1024 --height 700 --lang en
                        --open-after "${FILE}" --screenshot "${png}" --dump-scene "${json}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "app exited with ${rc}: ${err}")
endif()
file(READ "${json}" scene)
string(JSON shown GET "${scene}" error)
string(JSON step GET "${scene}" step)
set(head "${FILE}: ${EXPECTED_PATH}: ")
string(FIND "${shown}" "${head}" pos)
if(NOT pos EQUAL 0)
  message(FATAL_ERROR "the app shows '${shown}', expected it to start with '${head}'")
endif()
if(shown MATCHES "\n")
  message(FATAL_ERROR "the app's error is not one line: ${shown}")
endif()
if(step STREQUAL "")
  message(FATAL_ERROR "the app dropped the lesson it had after a bad file")
endif()
message(STATUS "app shows: ${shown} (still at step ${step})")
