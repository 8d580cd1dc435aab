# Read by cmake when highs-sys builds HiGHS (C++), through CMAKE_TOOLCHAIN_FILE (set by the
# Makefile). HiGHS is the longest step of a fresh build and the rest of the crate
# waits for it: compiled as a unity build (8 sources per compiler run, as HiGHS's own macOS
# build does), its compilers use about 45 % less CPU (docs/results.md, "Set-up time").
# Without tests (HiGHS's own, never run here). The compilers, flags and build type stay those
# of highs-sys (Release, -O3).
set(CMAKE_UNITY_BUILD ON CACHE BOOL "HiGHS as a unity build")
set(CMAKE_UNITY_BUILD_BATCH_SIZE 8 CACHE STRING "sources per unity compile")
set(BUILD_TESTING OFF CACHE BOOL "no HiGHS tests")
