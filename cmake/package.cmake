# CPack: `./amp package` -> build/package/amp-compat_<version>_<arch>.deb.
# The package holds the headers, CMake/pkg-config files, amp++ and this
# project's host Kokkos 3.4.01 under <libdir>/amp_compat/kokkos (Debian 12 has
# no Kokkos package usable through find_package(Kokkos)); a user's own Kokkos,
# when given to CMake, is preferred over the bundled one.
set(CPACK_PACKAGE_NAME amp-compat)
set(CPACK_PACKAGE_VENDOR "amp_compat")
set(CPACK_PACKAGE_CONTACT "amp_compat maintainers <amp-compat@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "C++ AMP (<amp.h>) for GCC and Clang on Linux, over Kokkos")
set(CPACK_PACKAGE_DESCRIPTION "Drop-in <amp.h>, <amp_math.h> for legacy C++ AMP code: builds unchanged with g++ and runs on multicore CPUs (Kokkos OpenMP and Serial). Provides the amp++ compiler driver, a CMake package (find_package(amp_compat)) and a pkg-config file.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# What compiling and linking amp_compat programs needs on Debian 12.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++ (>= 4:12), libc6-dev, libgomp1, libboost-context-dev")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake (>= 3.16), make, pkgconf, python3")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/cpack)
include(CPack)
