# The Python package (python/carom): each pytest file of python/tests is
# one CTest test, run with Debian's python3 (which has python3-numpy and
# python3-pytest; the python3 first on PATH may be another interpreter)
# against this build's libcarom.so. In a sanitizer build the library
# carries ASan, which must be loaded first: the tests preload it (leak
# reports off, Python itself keeps memory to the end by design).
if(NOT TARGET carom_shared)
  return()
endif()
carom_python3_with(_package_python3 "numpy, pytest")
if(NOT _package_python3)
  message(WARNING "python3 with numpy and pytest not found: the Python package's tests are "
                  "skipped (Debian: apt-get install python3-numpy python3-pytest)")
  return()
endif()

add_executable(carom-python-layout ${PROJECT_SOURCE_DIR}/python/tests/layout.c)
target_include_directories(carom-python-layout PRIVATE ${PROJECT_SOURCE_DIR}/include)

set(_python_env
  "CAROM_LIBRARY=$<TARGET_FILE:carom_shared>"
  "PYTHONPATH=${PROJECT_SOURCE_DIR}/python"
  "PYTHONDONTWRITEBYTECODE=1"
  "CAROM_LAYOUT=$<TARGET_FILE:carom-python-layout>"
  "CAROM_INCLUDE=${PROJECT_SOURCE_DIR}/include"
  "CAROM_EXAMPLES=${PROJECT_SOURCE_DIR}/examples")
if(CAROM_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE _libasan OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(APPEND _python_env "LD_PRELOAD=${_libasan}" "ASAN_OPTIONS=detect_leaks=0")
endif()

file(GLOB _python_tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/python/tests/test_*.py)
foreach(_file IN LISTS _python_tests)
  get_filename_component(_name ${_file} NAME_WE)
  add_test(NAME python_${_name}
           COMMAND ${_package_python3} -m pytest -q -p no:cacheprovider ${_file})
  set_tests_properties(python_${_name} PROPERTIES ENVIRONMENT "${_python_env}" TIMEOUT 300
                       LABELS python)
endforeach()
