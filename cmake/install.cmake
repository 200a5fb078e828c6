# Install rules (included from the top-level CMakeLists.txt when AMP_INSTALL):
#
#   include/amp_compat/                amp.h & co., detail/, compat/ (<Windows.h> shim)
#   <libdir>/cmake/amp_compat/         find_package(amp_compat CONFIG): amp_compat::amp_compat
#   <libdir>/pkgconfig/amp_compat.pc   host build flags for pkg-config users
#   bin/amp++                          the compiler driver (scripts/amp++)
#   share/amp_compat/amp_driver/       the driver package (scripts/amp_driver: amp++, the
#                                      launcher and its passes, vsproj), amp_driver.sh,
#                                      restrict_launcher.sh
#   bin/amp-vs                         Visual Studio solutions (the package's vsproj)
#   share/amp_compat/amp++.conf        where the driver finds Kokkos
#   <libdir>/amp_compat/kokkos[-cuda-ARCH|-hip-ARCH]/   a copy of this project's
#                                      Kokkos build, when AMP_BUNDLE_KOKKOS_HOST/
#                                      _CUDA/_HIP name one (./amp install, ./amp package)
#
# Every installed file finds the others relative to its own location, so the
# tree can be moved (dpkg -x into a scratch root works).
include(CMakePackageConfigHelpers)

set(AMP_BUNDLE_KOKKOS_HOST "" CACHE PATH "Kokkos (host) install to copy into the amp_compat install")
set(AMP_BUNDLE_KOKKOS_CUDA "" CACHE PATH "Kokkos (CUDA, AMP_CUDA_ARCH) install to copy into the amp_compat install")
set(AMP_BUNDLE_KOKKOS_HIP "" CACHE PATH "Kokkos (HIP, AMP_HIP_ARCH) install to copy into the amp_compat install")
set(AMP_PRIVATE_DIR "${CMAKE_INSTALL_LIBDIR}/amp_compat")
set(AMP_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/amp_compat")

# ---- headers, targets, package config
install(DIRECTORY ${PROJECT_SOURCE_DIR}/amp_compat/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/amp_compat
  FILES_MATCHING PATTERN "*.h" PATTERN "flags.txt" REGEX "/compat/(future|hash_set|hash_map)$" REGEX "/stdlib/[a-z_]+$" REGEX "/compat/detail/win_paths.cpp$")
install(TARGETS amp_compat amp_compat_windows amp_compat_msvc EXPORT amp_compatTargets)
install(EXPORT amp_compatTargets NAMESPACE amp_compat:: DESTINATION ${AMP_CMAKE_DIR})

# The Kokkos this build used: unless a copy is bundled, the package config's
# last-resort search place (a user's own Kokkos comes first).
get_filename_component(AMP_KOKKOS_USED_PREFIX "${Kokkos_DIR}/../../.." ABSOLUTE)
set(AMP_KOKKOS_FALLBACK "${AMP_KOKKOS_USED_PREFIX}")
if(AMP_BUNDLE_KOKKOS_HOST OR AMP_BUNDLE_KOKKOS_CUDA OR AMP_BUNDLE_KOKKOS_HIP)
  set(AMP_KOKKOS_FALLBACK "")
endif()
set(AMP_SHARE_DIR "${CMAKE_INSTALL_DATADIR}/amp_compat")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/install/amp_compatConfig.cmake.in
  ${PROJECT_BINARY_DIR}/amp_compatConfig.cmake INSTALL_DESTINATION ${AMP_CMAKE_DIR}
  PATH_VARS AMP_PRIVATE_DIR AMP_SHARE_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/amp_compatConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/amp_compatConfig.cmake ${PROJECT_BINARY_DIR}/amp_compatConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/amp_compat_gpu.cmake DESTINATION ${AMP_CMAKE_DIR})

# ---- bundled Kokkos copies; which Kokkos the driver and pkg-config use.
# Paths in amp++.conf are relative to the install prefix unless absolute.
set(AMP_CONF_KOKKOS_HOST "")
set(AMP_CONF_KOKKOS_CUDA "")
set(AMP_CONF_KOKKOS_HIP "")
if(AMP_CUDA)
  set(AMP_CONF_KOKKOS_CUDA "${AMP_KOKKOS_USED_PREFIX}")
elseif(AMP_HIP)
  set(AMP_CONF_KOKKOS_HIP "${AMP_KOKKOS_USED_PREFIX}")
else()
  set(AMP_CONF_KOKKOS_HOST "${AMP_KOKKOS_USED_PREFIX}")
endif()
foreach(kind HOST CUDA HIP)
  set(src "${AMP_BUNDLE_KOKKOS_${kind}}")
  if(src)
    if(NOT EXISTS "${src}/include/Kokkos_Core.hpp")
      message(FATAL_ERROR "AMP_BUNDLE_KOKKOS_${kind}=${src} is not a Kokkos install")
    endif()
    if(kind STREQUAL HOST)
      set(name kokkos)
    elseif(kind STREQUAL HIP)
      set(name kokkos-hip-${AMP_HIP_ARCH})
    else()
      set(name kokkos-cuda-${AMP_CUDA_ARCH})
    endif()
    install(DIRECTORY ${src}/ DESTINATION ${AMP_PRIVATE_DIR}/${name} USE_SOURCE_PERMISSIONS
      PATTERN ".amp-compat-stamp" EXCLUDE)
    set(AMP_CONF_KOKKOS_${kind} "${AMP_PRIVATE_DIR}/${name}")
    # Kokkos is BSD-licensed: its licence travels with the copy (scripts/deps.sh
    # keeps the source beside the installs; the HIP one is Kokkos 4.6's).
    set(ksrc "${src}/../kokkos-src")
    if(kind STREQUAL HIP)
      set(ksrc "${src}/../kokkos46-src")
    endif()
    if(EXISTS "${ksrc}/LICENSE")
      install(FILES "${ksrc}/LICENSE" "${ksrc}/Copyright.txt" DESTINATION ${AMP_PRIVATE_DIR}/${name})
    endif()
  endif()
endforeach()

configure_file(${CMAKE_CURRENT_LIST_DIR}/install/amp++.conf.in ${PROJECT_BINARY_DIR}/amp++.conf @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/amp++.conf DESTINATION ${CMAKE_INSTALL_DATADIR}/amp_compat)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/amp++ DESTINATION ${CMAKE_INSTALL_BINDIR})
# Visual Studio solutions: bin/amp-vs build|import (the driver package's vsproj).
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/amp-vs DESTINATION ${CMAKE_INSTALL_BINDIR})
# The driver package (scripts/amp_driver: amp++'s driver, the compiler
# launcher and its source passes, vsproj), whole; its entry scripts, which
# put share/amp_compat on the import path.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scripts/amp_driver DESTINATION ${CMAKE_INSTALL_DATADIR}/amp_compat
  FILES_MATCHING PATTERN "*.py" PATTERN "backends.txt" PATTERN "__pycache__" EXCLUDE)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/restrict_launcher.sh ${PROJECT_SOURCE_DIR}/scripts/amp_driver.sh
  DESTINATION ${CMAKE_INSTALL_DATADIR}/amp_compat)
# The host tile compiler (tools/tile_compiler, a Clang 22 plugin; its driver
# is the package's tile_compiler.py): its source, and the plugin built now where clang++-22 and Clang's headers
# are (scripts/deps.sh checker), by the one plugin builder (scripts/amp_driver/plugins.py).
# Without a prebuilt plugin the installed
# driver builds one on first use into the user's cache; without Clang at all
# host kernels keep fibers (GCC-only machines).
# Its source: every .cpp and .h of tools/tile_compiler (plugins.py builds them all).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/tile_compiler/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/amp_compat/tile_compiler
  FILES_MATCHING PATTERN "*.cpp" PATTERN "*.h")
install(CODE "
  execute_process(COMMAND \"${PROJECT_SOURCE_DIR}/scripts/amp_driver.sh\" plugin tile_compiler
    RESULT_VARIABLE amp_tc_rc OUTPUT_VARIABLE amp_tc_so OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(amp_tc_rc EQUAL 0 AND EXISTS \"\${amp_tc_so}\")
    file(INSTALL \"\${amp_tc_so}\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/amp_compat/tile_compiler\")
  else()
    message(STATUS \"amp_compat: the host tile compiler was not built (no clang++-22 or Clang headers): built on first use, or host kernels keep fibers\")
  endif()")

# pkg-config: the host build (the GPU builds need amp++ --gpu[=hip] or CMake).
if(AMP_CONF_KOKKOS_HOST)
  file(RELATIVE_PATH AMP_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" AMP_PC_TO_PREFIX "${AMP_PC_TO_PREFIX}")
  if(IS_ABSOLUTE "${AMP_CONF_KOKKOS_HOST}")
    set(AMP_PC_KOKKOS "${AMP_CONF_KOKKOS_HOST}")
  else()
    set(AMP_PC_KOKKOS "\${prefix}/${AMP_CONF_KOKKOS_HOST}")
  endif()
  # Its Cflags:/Libs: lines are amp++'s host flags, from the driver's option rows.
  execute_process(COMMAND ${PROJECT_SOURCE_DIR}/scripts/amp_driver.sh pkgconfig
    OUTPUT_VARIABLE AMP_PC_FLAGS OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE amp_pc_rc)
  if(NOT amp_pc_rc EQUAL 0)
    message(FATAL_ERROR "scripts/amp_driver.sh pkgconfig failed (python3 is needed)")
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/install/amp_compat.pc.in ${PROJECT_BINARY_DIR}/amp_compat.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/amp_compat.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/package.cmake)
