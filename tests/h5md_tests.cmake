# The H5MD trajectories of the carom command (tools/h5md_out.c, built
# when HDF5 is found), read back with Debian's python3-h5py.
if(NOT CAROM_HAVE_HDF5)
  return()
endif()
carom_python3_with(_h5md_python3 "h5py, numpy")
if(NOT _h5md_python3)
  message(WARNING "python3 with h5py not found: the H5MD test is skipped "
                  "(Debian: apt-get install python3-h5py)")
  return()
endif()
add_test(NAME cli_h5md_trajectory
         COMMAND ${_h5md_python3} ${CMAKE_CURRENT_SOURCE_DIR}/h5md_test.py $<TARGET_FILE:carom>
                 ${CMAKE_CURRENT_BINARY_DIR}/h5md_work)
set_tests_properties(cli_h5md_trajectory PROPERTIES TIMEOUT 120 LABELS cli)
