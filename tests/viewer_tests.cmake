# Tests of `carom render` and `carom view` (tools/viewer, issue 5), only
# when they are built. The view tests run a real window under Xvfb
# (xvfb-run from Debian's xvfb; xdotool drives the mouse and keys) and
# take the "xvfb" lock so that two of them never start X servers at once.
# Python is Debian's /usr/bin/python3 with its standard library only.
get_property(carom_have_render GLOBAL PROPERTY CAROM_HAVE_RENDER)
get_property(carom_have_view GLOBAL PROPERTY CAROM_HAVE_VIEW)
set(viewer_test_dir ${CMAKE_CURRENT_SOURCE_DIR}/viewer)
set(viewer_work_dir ${CMAKE_CURRENT_BINARY_DIR}/viewer_work)
file(MAKE_DIRECTORY ${viewer_work_dir})
# SDL and the OpenGL drivers keep allocations until exit; leak reports
# from inside them are not ours (ASan builds only).
set(viewer_env "ASAN_OPTIONS=detect_leaks=0")

# The planes' drawing lines are plain geometry (no display, no libraries):
# tested in every build.
add_executable(test_plane_lines ${viewer_test_dir}/test_plane_lines.c
                                ${PROJECT_SOURCE_DIR}/tools/viewer/plane_lines.c
                                ${PROJECT_SOURCE_DIR}/tools/viewer/scene_style.c)
target_link_libraries(test_plane_lines PRIVATE carom_lib m)
target_include_directories(test_plane_lines PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                                                    ${PROJECT_SOURCE_DIR}/tools/viewer)
add_test(NAME test_plane_lines COMMAND test_plane_lines)

if(carom_have_render)
  add_test(NAME viewer_render
           COMMAND /usr/bin/python3 ${viewer_test_dir}/render_test.py $<TARGET_FILE:carom>
                   ${viewer_work_dir}/render)
  file(MAKE_DIRECTORY ${viewer_work_dir}/render)
  # With HDF5, renders of an H5MD trajectory are checked too.
  set(render_env ${viewer_env})
  if(CAROM_HAVE_HDF5)
    list(APPEND render_env "CAROM_HAVE_HDF5=1")
  endif()
  # With Assimp, renders of a mesh (mesh=) are checked too.
  if(CAROM_HAVE_MESH)
    list(APPEND render_env "CAROM_HAVE_MESH=1")
  endif()
  set_tests_properties(viewer_render PROPERTIES TIMEOUT 300 ENVIRONMENT "${render_env}")
endif()

find_program(CAROM_XVFB_RUN xvfb-run)
find_program(CAROM_XDOTOOL xdotool)
find_package(X11 QUIET)
if(carom_have_view AND CAROM_XVFB_RUN AND CAROM_XDOTOOL AND X11_FOUND)
  add_executable(x11_close ${viewer_test_dir}/x11_close.c)
  target_link_libraries(x11_close PRIVATE X11::X11)
  foreach(mode drag close keys species)
    file(MAKE_DIRECTORY ${viewer_work_dir}/${mode})
    add_test(NAME viewer_view_${mode}
             COMMAND ${CAROM_XVFB_RUN} -a -s "-screen 0 1024x900x24 -noreset"
                     /usr/bin/python3 ${viewer_test_dir}/view_test.py ${mode}
                     $<TARGET_FILE:carom> ${viewer_work_dir}/${mode} $<TARGET_FILE:x11_close>)
    set_tests_properties(viewer_view_${mode} PROPERTIES TIMEOUT 300 RESOURCE_LOCK xvfb
                         ENVIRONMENT "${viewer_env}")
  endforeach()
elseif(carom_have_view)
  message(STATUS "carom view tests: not registered (need xvfb, xdotool and libx11-dev)")
endif()
