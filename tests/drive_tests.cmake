# Tests of the drivers of carom/drive.h (issue 4): unit tests of the
# orbits, random-force and velocity-field drivers, and the validation of
# orbiting spheres against an independent fine-sampling reference.
carom_add_test(test_drive)
carom_add_test(test_drive_orbits)
